// Metadata generation for a validated Taco (FORMAT §3, §4): the consolidated level tables,
// every FOLDER's __meta__ table, the FILE members to write, and COLLECTION.json with
// taco:pit_schema, taco:field_schema and the extent.
//
// Contract: pure functions, no I/O; linear in the number of samples (plus sorting the
// folder list and the centroid longitudes). Pointers in LevelTables::files point into the
// Taco and stay valid while it (or a copy of it) lives.
#ifndef TACO_MODEL_METADATA_H_
#define TACO_MODEL_METADATA_H_

#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "taco/model.h"
#include "taco/value.h"

namespace taco::model {

// Column name -> description, for taco:field_schema.
using DescriptionMap = std::map<std::string, std::string, std::less<>>;

inline constexpr std::string_view kCurrentIdColumn = "internal:current_id";
inline constexpr std::string_view kParentIdColumn = "internal:parent_id";
inline constexpr std::string_view kRelativePathColumn = "internal:relative_path";

struct LevelTables {
  // level0..levelN (FOLDER-format columns, FORMAT §3.1): id, type, extension columns,
  // internal:current_id, internal:parent_id, and on levels >= 1 internal:relative_path.
  // Extension columns: level0 in the root tortilla's order; deeper levels are the union of
  // the level, sorted by name when the level has more than one row (FORMAT §3.2), missing
  // values null. Rows in FORMAT §3.3 order, padding included. The ZIP writer inserts
  // internal:offset and internal:size before internal:relative_path.
  std::vector<Table> levels;
  // archive_paths[level][row]: "DATA/<a>/<b>" for a FILE, "DATA/<a>/<b>/" for a FOLDER
  // (the writer appends "__meta__").
  std::vector<std::vector<std::string>> archive_paths;
  // Every FOLDER by archive path ("DATA/a/"), with its __meta__ table: id, type and its
  // children's extension columns (tortilla order when it has one child, else sorted by
  // name), children in order including padding; no internal columns. Sorted deepest
  // first, then by path (byte order).
  std::vector<std::pair<std::string, Table>> folder_meta;
  // FILE members (padding included) in depth-first order: archive path and sample.
  std::vector<std::pair<std::string, const Sample*>> files;
  // Extension descriptions (first non-empty one seen for each name).
  DescriptionMap descriptions;
};

Result<LevelTables> BuildLevelTables(const Taco& taco);

// taco:pit_schema (FORMAT §4.1 algorithm) from the level tables (columns id, type and
// internal:parent_id are used).
nlohmann::ordered_json PitSchema(const std::vector<Table>& levels);

// taco:field_schema (FORMAT §4.2): {"level0": [[name, type, description], ...], ...}.
// internal:offset, internal:size and internal:source_file are never listed.
nlohmann::ordered_json FieldSchema(const std::vector<Table>& levels, const DescriptionMap& descriptions);

// The extent (FORMAT §4.3) from STAC/ISTAC centroid and time columns. Longitudes: the
// smallest interval covering every centroid on the circle; when it crosses the
// antimeridian, west > east. Temporal values formatted "YYYY-MM-DDTHH:MM:SS[.ffffff]Z".
// Corruption when a centroid is not a WKB point or a column has an unexpected type.
Result<nlohmann::ordered_json> ComputeExtent(const std::vector<Table>& levels);

// The smallest arc of the longitude circle covering every arc [west, east] of `arcs` (west >
// east: the arc crosses the antimeridian; a point is [x, x]; longitudes outside
// [-180, 180] are wrapped; non-finite arcs are skipped). {west, east}, west > east when the
// result crosses the antimeridian; {-180, 180} when they cover the circle or none is given.
std::array<double, 2> CoverLongitudes(const std::vector<std::array<double, 2>>& arcs);

// [west, south, east, north] boxes merged on the circle (CoverLongitudes of their
// longitude arcs; south the least, north the greatest). No box: the whole globe.
std::array<double, 4> MergeBoxes(const std::vector<std::array<double, 4>>& boxes);

// The COLLECTION.json object: id, dataset_version, description, licenses, providers, tasks,
// taco_version, title, curators, keywords (null when absent), extent (given or computed),
// extension keys in their order, taco:pit_schema, taco:field_schema.
Result<nlohmann::ordered_json> BuildCollection(const Taco& taco, const LevelTables& tables);

}  // namespace taco::model

#endif  // TACO_MODEL_METADATA_H_
