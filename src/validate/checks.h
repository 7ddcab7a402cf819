// The checks of Validate() (include/taco/validate.h has the rule table), one group per file:
//   zip_checks.cc         zip-header, zip-store, duplicate-member, header-pairs
//   level_checks.cc       the consolidated level tables: columns, ids, types, current/parent
//                         ids, relative paths, padding, PIT; builds the Tree
//   member_checks.cc      rows vs stored members (missing, member-offset, padding bytes), every
//                         __meta__ vs its level (meta-consistency, level-schema), unreferenced
//   collection_checks.cc  COLLECTION.json: fields, extension keys, taco:pit_schema,
//                         taco:field_schema
//   optical_checks.cc     the OpticalData band table
// Every check reports through the Reporter and never stops at the first violation.
#ifndef TACO_VALIDATE_CHECKS_H_
#define TACO_VALIDATE_CHECKS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "table/engine.h"
#include "table/parquet_crc.h"
#include "taco/dataset.h"
#include "taco/validate.h"
#include "taco/value.h"
#include "validate/container.h"
#include "validate/reporter.h"

namespace taco::validate {

inline constexpr std::string_view kCollectionMember = "COLLECTION.json";
// "METADATA/level<i>.parquet".
std::string LevelMember(int level);

// What the level tables say about the tree, per level and row.
struct Tree {
  std::vector<std::vector<std::string>> id;    // "" when null
  std::vector<std::vector<std::string>> type;  // "FILE", "FOLDER", or "" when invalid
  // Row index of the parent in the level above when it names an existing FOLDER row, else
  // -1 (always -1 at level 0).
  std::vector<std::vector<int64_t>> parent;
  // children[d][r]: rows of level d+1 whose valid parent is row r, in order.
  std::vector<std::vector<std::vector<size_t>>> children;
  // Path below DATA/ implied by the ids ("europe/", "europe/item_0"); the stored
  // internal:relative_path when the parent chain is broken; "" when unknown.
  std::vector<std::vector<std::string>> path;

  // "level1 row 0 (europe/item_0)".
  std::string Where(size_t level, size_t row) const;
  // The path without its trailing '/', or the id when the path is unknown.
  std::string Display(size_t level, size_t row) const;
};

// Column `name` when it exists with type `type`, else nullptr.
const Column* FindTyped(const Table& table, std::string_view name, TypeId type);
// True for id, type and internal:* columns.
bool IsCoreOrInternal(std::string_view name);
// Column `name` of type `type`; otherwise a required-column violation at `where` and nullptr.
const Column* RequireColumn(const Table& table, const std::string& where, std::string_view name, const DataType& type,
                            Reporter& rep);
// internal-column violations for every internal:* column of `table` not in `allowed`.
void CheckInternalColumns(const Table& table, const std::string& where, const std::vector<std::string_view>& allowed,
                          const std::string& expected, Reporter& rep);

// ZIP structure. `header_ok` is set when the TACO_HEADER could be parsed; `pairs` then holds
// its valid pairs.
struct ZipHeaderInfo {
  bool parsed = false;
  std::vector<MemberRange> pairs;
};
ZipHeaderInfo CheckZipStructure(const ZipContainer& zip, Reporter& rep);
// Header pairs vs METADATA/level0..N-1 (the `level_members` contiguous level members
// present) and COLLECTION.json.
// member-crc: every STORE member's data against its central-directory and local CRC-32
// (reads every byte of the ZIP once; crc_checks.cc).
// `skip_header`: the TACO_HEADER entry is left out (its content was reported already).
// When the container's data offsets are deferred, the pass resolves them from the local
// headers it reads (one read of the file, not two) and gives them to the container; it
// returns false, reporting nothing, at a header that does not resolve (the caller then
// resolves them the usual way, for its error).
bool CheckMemberCrcs(ZipContainer& zip, bool skip_header, Reporter& rep,
                     const std::function<void(uint64_t done, uint64_t total)>& progress = {});

void CheckHeaderPairs(const ZipContainer& zip, const ZipHeaderInfo& header, int level_members, Reporter& rep);

// parquet-crc at `where`: a page CRC-32 mismatch in `pages` (the Status of
// table::VerifyParquetPageCrcs of the file named `file_name`), or a footer or page header
// that cannot be walked (table::ParquetDamage). True when a mismatch was reported.
bool ReportParquetPages(const Result<table::PageCrcSummary>& pages, const std::string& file_name,
                        const std::string& where, Reporter& rep);

Tree CheckLevels(const std::vector<Table>& levels, bool zip, Reporter& rep);

// stats_checks.cc: every value of a non-null geotiff:stats / internal:stats row is finite
// (rule stats-values).
void CheckStatsValues(const std::vector<Table>& levels, const Tree& tree, Reporter& rep);

// The members some row refers to: by name, and in a ZIP also by index into entries() (the
// first entry of the name; `entries` has one flag per entry).
struct References {
  std::set<std::string> names;
  std::vector<bool> entries;
};
// Adds every archive path a row or a __meta__ row refers to into `referenced` (a ZIP's
// existing members as entry flags, every other path by name).
// `engine` reads the Parquet files the decoder leaves to it (started on first use).
void CheckMembers(const Container& container, const std::function<table::Engine&()>& engine,
                  const std::vector<Table>& levels, const Tree& tree, Reporter& rep, References* referenced);
// Members not in `referenced` (TACO_HEADER, COLLECTION.json are always expected).
void CheckUnreferenced(const Container& container, const References& referenced, Reporter& rep);

// The known fields, the extension keys and the OpticalData band table of a collection.
void CheckCollectionFields(const nlohmann::ordered_json& collection, const std::vector<Table>& levels, Reporter& rep);

// `collection` is nullopt when COLLECTION.json is missing or not a JSON object (already
// reported). pit/field schemas are compared only when `levels_complete`.
void CheckCollection(const std::optional<nlohmann::ordered_json>& collection, const std::vector<Table>& levels,
                     bool levels_complete, Reporter& rep);

// optical_checks.cc: `optical:bands` (unique non-empty names, positive center_wavelength
// and full_width_half_max), `optical:num_bands` == the number of bands, and, when any level
// has `geotiff:stats`, == the band count of some stats row (rule optical-bands).
void CheckOpticalBands(const nlohmann::ordered_json& collection, const std::vector<Table>& levels, Reporter& rep);

// A ZIP or FOLDER dataset validated (validate.cc), with the level tables it could read.
struct ContainerOutcome {
  ValidationReport report;
  std::vector<Table> levels;
};
Result<ContainerOutcome> ValidateContainer(const std::string& path, DatasetFormat format,
                                           const ValidateOptions& options);

// tacocat_checks.cc: a `.tacocat/` folder or `__TACOCAT__` file and every source ZIP it names.
Result<ValidationReport> ValidateTacocat(const std::string& path, const ValidateOptions& options);

}  // namespace taco::validate

#endif  // TACO_VALIDATE_CHECKS_H_
