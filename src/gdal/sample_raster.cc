#include "gdal/sample_raster.h"

#include <atomic>
#include <cctype>
#include <utility>

#include <cpl_conv.h>
#include <cpl_http.h>
#include <cpl_vsi.h>

#include "taco/io.h"

namespace taco::ext::internal {
namespace {

// Each reads its own file only; side-cars are switched off by the Guard. Checked in GDAL 3.6:
// none of them resolves a path or URL written inside the file.
const char* const kSelfContained[] = {"GTiff", "PNG", "JPEG", "GIF", "BMP", "WEBP", nullptr};

// Formats whose files name other files or servers by design (for messages and validate).
const char* const kReferencing[] = {
    "VRT",   "GTI",     "WMS", "WMTS", "WCS",  "MRF", "STACTA", "STACIT", "KMLSUPEROVERLAY",
    "ESRIC", "ECRGTOC", "TIL", "ISCE", nullptr};

constexpr std::string_view kNetworkPrefixes[] = {"/vsicurl/", "/vsicurl?", "/vsis3/",    "/vsigs/",      "/vsiaz/",
                                                 "/vsiadls/", "/vsioss/",  "/vsiswift/", "/vsiwebhdfs/", "/vsihdfs/",
                                                 "/vsitaco/", "http://",   "https://"};

// Every CPLHTTPFetch of the thread fails while the Guard holds (no request is sent).
CPLHTTPResult* RefuseFetch(const char* url, CSLConstList, GDALProgressFunc, void*, CPLHTTPFetchWriteFunc, void*,
                           void*) {
  auto* result = static_cast<CPLHTTPResult*>(CPLCalloc(1, sizeof(CPLHTTPResult)));
  result->nStatus = 1;
  result->pszErrBuf = CPLStrdup(
      (std::string("network access is off for sample bytes (") + (url ? url : "") + "); see --allow-external-rasters")
          .c_str());
  return result;
}

std::string DriverList(const char* const* names) {
  std::string out;
  for (const char* const* n = names; *n != nullptr; ++n) out += (out.empty() ? "" : ", ") + std::string(*n);
  return out;
}

// The head of `path` (at most `n` bytes), read through GDAL from the path itself.
std::string Head(const std::string& path, size_t n) {
  std::string out;
  VSILFILE* f = VSIFOpenL(path.c_str(), "rb");
  if (f == nullptr) return out;
  out.resize(n);
  out.resize(VSIFReadL(out.data(), 1, n, f));
  VSIFCloseL(f);
  return out;
}

}  // namespace

struct SampleRaster::Guard {
  struct Saved {
    std::string key;
    bool had = false;
    std::string value;
  };
  std::vector<Saved> saved;
  bool pushed = false;

  void Set(const char* key, const char* value) {
    const char* previous = CPLGetThreadLocalConfigOption(key, nullptr);
    saved.push_back({key, previous != nullptr, previous != nullptr ? previous : ""});
    CPLSetThreadLocalConfigOption(key, value);
  }
  explicit Guard(const RasterAccess& access) {
    Set("GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR");
    Set("GDAL_PAM_ENABLED", "NO");
    if (!access.network) {
      // /vsicurl/ and the object stores built on it open only this name (none).
      Set("CPL_VSIL_CURL_ALLOWED_FILENAME", "/vsicurl/taco-network-access-is-off");
      pushed = CPLHTTPPushFetchCallback(RefuseFetch, nullptr) != 0;
    }
  }
  ~Guard() {
    if (pushed) CPLHTTPPopFetchCallback();
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      CPLSetThreadLocalConfigOption(it->key.c_str(), it->had ? it->value.c_str() : nullptr);
    }
  }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
};

SampleRaster::SampleRaster(std::unique_ptr<Guard> guard, DatasetPtr dataset)
    : guard_(std::move(guard)), dataset_(std::move(dataset)) {}
SampleRaster::SampleRaster(SampleRaster&&) noexcept = default;
SampleRaster& SampleRaster::operator=(SampleRaster&&) noexcept = default;
SampleRaster::~SampleRaster() {
  dataset_.reset();  // closes under the guard's settings, then the guard restores them
}

bool ExternalRastersAllowedByConfig() { return CPLTestBool(CPLGetConfigOption(kAllowExternalRastersOption, "NO")); }

ScopedExternalRasters::ScopedExternalRasters(bool allow) : set_(allow) {
  if (!set_) return;
  if (const char* v = CPLGetThreadLocalConfigOption(kAllowExternalRastersOption, nullptr); v != nullptr) {
    had_previous_ = true;
    previous_ = v;
  }
  CPLSetThreadLocalConfigOption(kAllowExternalRastersOption, "YES");
}

ScopedExternalRasters::~ScopedExternalRasters() {
  if (!set_) return;
  CPLSetThreadLocalConfigOption(kAllowExternalRastersOption, had_previous_ ? previous_.c_str() : nullptr);
}

const std::vector<std::string>& SelfContainedDrivers() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const char* const* n = kSelfContained; *n != nullptr; ++n) out.emplace_back(*n);
    return out;
  }();
  return names;
}

bool NeedsNetwork(std::string_view path) {
  while (auto sub = ParseVsiSubfile(path)) {
    const size_t comma = path.find(',');
    path = path.substr(comma + 1);
  }
  for (std::string_view p : kNetworkPrefixes) {
    if (path.size() >= p.size()) {
      bool same = true;
      for (size_t i = 0; i < p.size() && same; ++i) {
        same = std::tolower(static_cast<unsigned char>(path[i])) == p[i];
      }
      if (same) return true;
    }
  }
  return false;
}

// The settings, the quiet error handler and the driver lookups of ReferenceSniffer, made once.
struct ReferenceSniffer::State {
  QuietGdalErrors quiet;
  RasterAccess none;
  SampleRaster::Guard guard{none};
  std::vector<std::pair<const char*, GDALDriver*>> drivers;
};

ReferenceSniffer::ReferenceSniffer() {
  EnsureGdalRegistered();
  state_ = std::make_unique<State>();
  for (const char* const* n = kReferencing; *n != nullptr; ++n) {
    if (GDALDriver* driver = GetGDALDriverManager()->GetDriverByName(*n)) state_->drivers.emplace_back(*n, driver);
  }
}

ReferenceSniffer::~ReferenceSniffer() = default;

std::optional<std::string> ReferenceSniffer::Sniff(std::string_view head, const std::string& leaf) {
  static std::atomic<uint64_t> counter{0};
  std::string_view name = leaf;
  if (const size_t slash = name.find_last_of('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  if (name.empty()) name = "sample";
  std::string path = "/vsimem/taco_sniff/" + std::to_string(counter.fetch_add(1)) + "/";
  path.append(name);
  VSILFILE* f = VSIFileFromMemBuffer(path.c_str(), reinterpret_cast<GByte*>(const_cast<char*>(head.data())),
                                     static_cast<vsi_l_offset>(head.size()), FALSE);
  if (f == nullptr) return std::nullopt;
  VSIFCloseL(f);
  std::optional<std::string> found;
  {
    static const char* const kNoSiblings[] = {nullptr};
    GDALOpenInfo info(path.c_str(), GA_ReadOnly, const_cast<char**>(kNoSiblings));
    for (const auto& [driver_name, driver] : state_->drivers) {
      int identified = 0;
      if (driver->pfnIdentifyEx != nullptr) {
        identified = driver->pfnIdentifyEx(driver, &info);
      } else if (driver->pfnIdentify != nullptr) {
        identified = driver->pfnIdentify(&info);
      }
      if (identified > 0) {  // GDAL_IDENTIFY_UNKNOWN (-1) is not a match
        found = driver_name;
        break;
      }
    }
  }
  VSIUnlink(path.c_str());
  return found;
}

std::optional<std::string> ReferencingFormat(std::string_view head, const std::string& leaf) {
  return ReferenceSniffer().Sniff(head, leaf);
}

Result<SampleRaster> OpenSampleRaster(const std::string& path, const RasterAccess& access) {
  EnsureGdalRegistered();
  QuietGdalErrors quiet;
  auto guard = std::make_unique<SampleRaster::Guard>(access);
  static const char* const kNoSiblings[] = {nullptr};
  DatasetPtr ds(GDALDataset::FromHandle(GDALOpenEx(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY,
                                                   access.external ? nullptr : kSelfContained, nullptr, kNoSiblings)));
  if (ds == nullptr) {
    std::string why = QuietGdalErrors::LastError("unrecognised format");
    if (!access.external) {
      if (auto format = ReferencingFormat(Head(path, 4096), path)) {
        why = "its bytes are a GDAL " + *format +
              " file, which names other files or URLs; sample bytes are opened only as " + DriverList(kSelfContained) +
              " unless external references are allowed (OpenOptions::allow_external_rasters, "
              "--allow-external-rasters)";
      } else {
        why += " (sample bytes are opened only as " + DriverList(kSelfContained) +
               "; other formats need --allow-external-rasters)";
      }
    }
    return Status::InvalidArgument(path + ": GDAL cannot open it as a raster: " + why);
  }
  if (ds->GetRasterCount() < 1 || ds->GetRasterXSize() < 1 || ds->GetRasterYSize() < 1) {
    return Status::InvalidArgument(path + ": GDAL cannot open it as a raster: no bands or no pixels");
  }
  return SampleRaster(std::move(guard), std::move(ds));
}

Result<SampleRaster> OpenRaster(const std::string& path) {
  RasterAccess access;
  access.external = ExternalRastersAllowedByConfig();
  access.network = access.external || NeedsNetwork(path);
  return OpenSampleRaster(path, access);
}

}  // namespace taco::ext::internal
