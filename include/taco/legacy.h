// The formats that came before TACO 2.0 (spec/LEGACY.md): Tortilla 0.5 (magic `#y`) and
// TACO v1 (magic `WX`) BLOB files, single or multi-part, and the tools around them.
//
// Reading goes through Dataset::Open (taco/dataset.h, DatasetFormat::kLegacy); this header
// describes what was opened (Dataset::legacy()) and offers writing and conversion.
//
// Byte layouts (LEGACY.md §1–§2): P3 (the spec's: 200-byte header, DP at 18, CO/CL at 26/34
// for `WX`) is read and written; P2 (driver name at 18–41, DP at 42, CO/CL at 50/58) is read;
// the 50-byte prototypes P0/P1 are recognised and refused (NotSupported).
//
// How a legacy dataset is presented (read/legacy_open.h): level N = the rows of every footer
// at nesting depth N (parts concatenated in part order, nested footers in parent order), with
// the stored columns kept (`tortilla:*`, `stac:*`, `rai:*`, others; `__index_level_N__`
// dropped) and:
//   id                    = tortilla:id
//   type                  = "FOLDER" for tortilla:file_format TORTILLA, else "FILE"
//   tortilla:offset       = ABSOLUTE offset in the part file (as tacoreader.v1 shows nested rows)
//   internal:offset/size  = tortilla:offset / tortilla:length
//   internal:current_id   = the row's index in its level; internal:parent_id = the parent's
//   internal:source_file  = the part's file name (sample path: /vsisubfile/O_S,<dir>/<file>)
//   stac:centroid         = WKB point (from the WKT text), so that bbox filters work
//   stac:time_start/_end/_middle = timestamp[us] (from seconds, int or float)
//   tortilla:file_format  = the header's driver name for P2 footers (which have none)
#ifndef TACO_LEGACY_H_
#define TACO_LEGACY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/dataset.h"
#include "taco/status.h"

namespace taco {

class Dataset;
class Taco;

enum class LegacyFlavor { kTortilla, kTacoV1 };

// One file of a legacy dataset, as its header says.
struct LegacyPart {
  std::string path;                // as opened (local path or URL)
  uint64_t size = 0;               // file size
  uint64_t footer_offset = 0;      // FO
  uint64_t footer_length = 0;      // FL
  uint64_t partitions = 0;         // DP
  uint64_t collection_offset = 0;  // CO (TACO only)
  uint64_t collection_length = 0;  // CL (TACO only)
  int number = -1;                 // NNNN of `*.NNNN.part.*`, -1 for a single file
};

// What Dataset::legacy() returns for a legacy dataset.
struct LegacyInfo {
  std::string layout;  // "P3" or "P2"
  LegacyFlavor flavor = LegacyFlavor::kTortilla;
  std::string driver;  // P2 only: the header's driver name (DF)
  std::vector<LegacyPart> parts;
  bool one_based = false;          // parts numbered 0001..DP (the spec's) instead of 0000..DP-1
  int chained_footers = 0;         // further Parquet files of a chained footer (LEGACY.md §11)
  std::string collection_bytes;    // the COLLECTION JSON as stored (TACO only)
  std::vector<std::string> notes;  // what open noticed but tolerated (warnings)

  // "TACO v1 (WX)", "Tortilla 0.5 (#y)", "TACO v1 P2 (#y + collection)", "Tortilla P2 (#y,
  // driver GTiff)"; then ", 3 parts" when there are several.
  std::string Describe() const;
};

// ---- writing -----------------------------------------------------------------------------

struct LegacyWriteOptions {
  LegacyFlavor flavor = LegacyFlavor::kTacoV1;
  // Top-level items are packed greedily, in order, into parts of at most this many data
  // bytes (an item larger than that gets a part of its own). 0 = one file. More than one
  // part: `stem.NNNN.part<suffix>` numbered from 0000, each with DP = the part count and,
  // for TACO v1, the whole COLLECTION appended.
  uint64_t part_size = 0;
  std::function<void(uint64_t done, uint64_t total)> progress;
};

// Writes `taco` in the spec layout P3 (header, contiguous pile from byte 200, Parquet
// footer, COLLECTION JSON appended for TACO v1), mapping TACO 2.0 back to v1 (LEGACY.md
// §13 read backwards): FOLDER → nested TORTILLA; `tortilla:id` / `tortilla:file_format`
// columns are used when present (else the id, and the GDAL driver that recognises the bytes,
// or BYTES); split → tortilla:data_split; stac:tensor_shape → stac:raster_shape (last two
// dims); timestamps → seconds; WKB centroid → WKT; padding samples are dropped; other
// columns are kept as they are. `notes` (may be null) receives what was dropped or invented.
// Atomic; the output(s) must not exist. Returns the paths written.
Result<std::vector<std::string>> WriteLegacy(const Taco& taco, const std::string& output,
                                             const LegacyWriteOptions& options = {},
                                             std::vector<std::string>* notes = nullptr);

// The v1 COLLECTION JSON for a TACO 2.0 collection (LEGACY.md §13.3 backwards); the original
// v1 object kept under `legacy:collection` by a conversion is restored where unchanged.
nlohmann::ordered_json CollectionToV1(const nlohmann::ordered_json& collection);

// ---- conversion --------------------------------------------------------------------------

// A legacy dataset as a TACO 2.0 tree (LEGACY.md §13): every sample's bytes by reference,
// ids sanitised (the original kept in `tortilla:id`), `tortilla:file_format` kept, split,
// tensor_shape, timestamps, WKB centroid and an invented stac:time_middle; heterogeneous
// trees padded with __TACOPAD__ samples when that makes them position-isomorphic, refused
// with the reason otherwise. The collection is mapped (a Tortilla gets an invented one) and
// records under `legacy:conversion` what was invented or dropped; `notes` (may be null)
// receives the same lines.
Result<Taco> LegacyToTaco(Dataset& legacy, std::vector<std::string>* notes = nullptr);

enum class ConvertTarget { kAuto, kZip, kFolder, kTortilla, kTacoV1 };

struct LegacyConvertOptions {
  // kAuto: from OUTPUT's name: .tortilla → Tortilla, .taco → TACO v1, .zip/.tacozip → ZIP,
  // anything else FOLDER.
  ConvertTarget target = ConvertTarget::kAuto;
  uint64_t part_size = 0;   // legacy outputs: see LegacyWriteOptions
  uint64_t split_size = 0;  // ZIP outputs: CreateOptions::split_size (0 = one ZIP)
  std::function<void(uint64_t done, uint64_t total)> progress;
  // How datasets are opened (TACOCAT base path, disk cache of remote metadata; taco/dataset.h).
  OpenOptions open;
};

// `taco convert` when the input or the output is legacy: legacy → 2.0 (ZIP, FOLDER, parts +
// .tacocat/ with split_size), 2.0 → legacy, legacy → legacy. `notes` gets what was invented
// or dropped. Returns the paths written.
Result<std::vector<std::string>> ConvertLegacy(const std::string& input, const std::string& output,
                                               const LegacyConvertOptions& options = {},
                                               std::vector<std::string>* notes = nullptr);

// True when `path` names a legacy file (local: its first two bytes are `#y` or `WX`;
// remote or missing: a `.taco` / `.tortilla` name).
bool IsLegacyPath(const std::string& path);

}  // namespace taco

#endif  // TACO_LEGACY_H_
