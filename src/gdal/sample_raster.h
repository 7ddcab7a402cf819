// Opening a sample's bytes with GDAL so that nothing outside them is read (README "Untrusted
// datasets").
//
// GDAL follows references written inside some formats: a VRT names source files and URLs,
// a WMS/WMTS/WCS file a server, MRF/HFA/ISIS/PDS labels companion files; and most drivers
// look beside the file for side-cars (.aux.xml, .ovr, .msk, world files, .IMD/.RPB). The
// bytes of a sample come from a stranger, so OpenSampleRaster opens a path with:
//  * only the drivers of SelfContainedDrivers() (GTiff — COGs are GTiff —, PNG, JPEG, GIF,
//    BMP, WEBP): each reads its one file and nothing it could name (their only outside
//    reads are side-cars, switched off below), unless `access.external`;
//  * an empty sibling list, GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR and PAM off
//    (GDAL_PAM_ENABLED=NO): no side-car is looked for, read or written;
//  * unless `access.network`: no /vsicurl/-family file may be opened
//    (CPL_VSIL_CURL_ALLOWED_FILENAME) and every CPLHTTPFetch of the thread fails (a fetch
//    callback), so a referencing driver allowed by `access.external` cannot reach a server
//    either. Callers set network when the path itself is remote (NeedsNetwork()).
// The settings are thread-local and hold for the life of the returned SampleRaster, so lazy
// reads (a VRT opens its sources at RasterIO) are covered: use the SampleRaster on the thread
// that opened it, and destroy it there.
//
// Several SampleRasters on one thread must be destroyed in the reverse order of opening
// (each restores the settings it found).
//
// Who uses what: the pixel readers of a dataset (read/ SampleDecoder for the torch loader,
// read/stats_exact for `stats --exact`) call OpenSampleRaster with the dataset's
// OpenOptions::allow_external_rasters and network only for a remote path; `validate` calls
// ReferencingFormat. The extensions (stac, stats: `taco create --ext`, the Python writer)
// call OpenRaster: they read the user's own input files, not a stranger's, so a config
// option is enough there (TACO_ALLOW_EXTERNAL_RASTERS, set by `taco --allow-external-rasters`),
// and its default keeps a dataset from being built out of samples its readers would refuse.
// This lives in gdal/ beside gdal_util (the GDAL helpers; io/ has no GDAL driver code), below
// ext/, read/ and validate/, which all call it.
//
// Errors: InvalidArgument "<path>: GDAL cannot open it as a raster: <why>" (IsNotARaster()
// recognises it); for bytes of a referencing format that `access` does not allow, the why
// names the format and the opt-in (OpenOptions::allow_external_rasters,
// --allow-external-rasters).
#ifndef TACO_SRC_GDAL_SAMPLE_RASTER_H_
#define TACO_SRC_GDAL_SAMPLE_RASTER_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gdal/gdal_util.h"
#include "taco/status.h"

namespace taco::ext::internal {

struct RasterAccess {
  bool external = false;  // any GDAL driver, including those that follow references
  bool network = false;   // GDAL may use the network (the path itself is remote)
};

// The GDAL config option that, set to YES (config option, thread-local option or
// environment), allows external references where no RasterAccess is passed explicitly
// (the extensions of `taco create`; `taco --allow-external-rasters` sets it).
inline constexpr const char* kAllowExternalRastersOption = "TACO_ALLOW_EXTERNAL_RASTERS";
bool ExternalRastersAllowedByConfig();

// While it lives, and when `allow`: kAllowExternalRastersOption is YES for the calling thread
// only (a thread-local GDAL option; the previous value is restored). How an option of the
// API (DirectoryOptions::allow_external_rasters) reaches the extensions, without setenv.
class ScopedExternalRasters {
 public:
  explicit ScopedExternalRasters(bool allow);
  ~ScopedExternalRasters();
  ScopedExternalRasters(const ScopedExternalRasters&) = delete;
  ScopedExternalRasters& operator=(const ScopedExternalRasters&) = delete;

 private:
  bool set_ = false;
  bool had_previous_ = false;
  std::string previous_;
};

// Driver short names opened by default.
const std::vector<std::string>& SelfContainedDrivers();

// True when opening `path` needs the network: after any /vsisubfile/ prefixes, a
// /vsicurl/-family path (/vsicurl/, /vsis3/, /vsigs/, /vsiaz/, /vsiadls/, /vsioss/,
// /vsiswift/, /vsiwebhdfs/, /vsihdfs/), an http(s) URL, or a /vsitaco/ path.
bool NeedsNetwork(std::string_view path);

class SampleRaster {
 public:
  SampleRaster(SampleRaster&&) noexcept;
  SampleRaster& operator=(SampleRaster&&) noexcept;
  ~SampleRaster();
  GDALDataset* get() const { return dataset_.get(); }
  GDALDataset* operator->() const { return dataset_.get(); }
  GDALDataset& operator*() const { return *dataset_; }

  struct Guard;  // the thread-local settings (sample_raster.cc)

 private:
  friend Result<SampleRaster> OpenSampleRaster(const std::string& path, const RasterAccess& access);
  SampleRaster(std::unique_ptr<Guard> guard, DatasetPtr dataset);
  std::unique_ptr<Guard> guard_;  // destroyed after dataset_
  DatasetPtr dataset_;
};

// Opens `path` read-only as a raster under `access` (see above). Also InvalidArgument when
// the raster has no bands or no pixels.
Result<SampleRaster> OpenSampleRaster(const std::string& path, const RasterAccess& access);

// OpenSampleRaster for the extensions (`taco create`, the Python writer): external references
// when ExternalRastersAllowedByConfig(), the network when the path needs it (or external).
Result<SampleRaster> OpenRaster(const std::string& path);

// For `taco validate`: the GDAL driver that would read `head` (the first bytes of a sample
// named `leaf`) as a format that names other files or URLs (VRT, WMS, WMTS, WCS, MRF, STAC
// tiled assets, KML super-overlays, ...), or nullopt. Only the identification functions of
// those drivers run, on a copy of `head` in memory: nothing else is read.
std::optional<std::string> ReferencingFormat(std::string_view head, const std::string& leaf);

// ReferencingFormat for many heads: the GDAL settings, the quiet error handler and the
// driver lookups are made once, at construction (validate sniffs every sample). Use and
// destroy it on the thread that made it; it holds that thread's GDAL settings meanwhile.
class ReferenceSniffer {
 public:
  ReferenceSniffer();
  ~ReferenceSniffer();
  ReferenceSniffer(const ReferenceSniffer&) = delete;
  ReferenceSniffer& operator=(const ReferenceSniffer&) = delete;
  std::optional<std::string> Sniff(std::string_view head, const std::string& leaf);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace taco::ext::internal

#endif  // TACO_SRC_GDAL_SAMPLE_RASTER_H_
