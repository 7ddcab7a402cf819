// Internal state shared by a Dataset opened with Dataset::Open, every view derived from it
// and every Frame reached by navigation (held by shared_ptr; the last holder frees it).
//
// Contract: safe for concurrent use: the Engine serializes statements itself, names come
// from an atomic counter, and everything else is set while opening and only read after.
// Object names created in the engine are unique within a State (NewName). Helpers return
// Status errors prefixed with the dataset path.
#ifndef TACO_READ_DATASET_STATE_H_
#define TACO_READ_DATASET_STATE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "format/container.h"
#include "read/lazy_engine.h"
#include "table/engine.h"
#include "table/parquet_footer.h"
#include "taco/dataset.h"
#include "taco/io.h"
#include "taco/legacy.h"

namespace taco {
namespace read {
class MemberResolver;
struct PartLevelRows;
}  // namespace read

inline constexpr std::string_view kPaddingPrefix = "__TACOPAD__";
inline constexpr std::string_view kGdalVsi = "internal:gdal_vsi";
inline constexpr std::string_view kCurrentId = "internal:current_id";
inline constexpr std::string_view kParentId = "internal:parent_id";
inline constexpr std::string_view kSourceFile = "internal:source_file";
inline constexpr std::string_view kSourcePath = "internal:source_path";
// A concat's part index (0 = the first dataset given): tells the parts apart even when one
// source is given twice, so joins of a child to its parent match it (FORMAT §6.10 ext.).
inline constexpr std::string_view kSourcePart = "internal:source_part";
inline constexpr std::string_view kInternalPrefix = "internal:";

// Relation name (lower case) → the stored levels its rows come from. Safe for concurrent
// use: Sql() on one dataset runs from many threads and registers the views it returns.
class TrustedRelations {
 public:
  void Add(std::string name, std::set<int> levels) {
    std::lock_guard<std::mutex> lock(mu_);
    map_[std::move(name)] = std::move(levels);
  }
  std::optional<std::set<int>> Find(const std::string& name) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(name);
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::set<int>> map_;
};

struct Dataset::State {
  DatasetFormat format = DatasetFormat::kZip;
  // The container of `format` (format/container.h), picked once by Dataset::Open: views,
  // navigation, filters and concat ask it rather than branch on the format.
  const format::Container* layout = &format::Container::For(DatasetFormat::kZip);
  std::string path;
  std::string vsi_root;
  // True when a server reads the sample paths under vsi_root as URLs (a `/vsicurl/` or
  // http(s) root, io/location.h decodes_url_escapes()): the path guards then refuse '%', '?'
  // and '#' too, and the engine-free shortcuts that skip those guards are not taken.
  bool RootDecodesUrlEscapes() const;
  nlohmann::ordered_json collection;
  std::vector<HeaderPair> header;
  RangeReaderPtr container;  // ZIP only (wrapped by OpenOptions::wrap_container)
  // Open readers by the root of a /vsisubfile/ path (a ZIP's vsi_root → its container; a
  // concat holds its sources'), so that a sample's bytes cost one ranged read.
  std::map<std::string, RangeReaderPtr> containers;
  // What each stored level was mounted from (index = level), so that a concat can mount it
  // again without reading it a second time (a remote dataset's levels are in memory).
  std::vector<RangeReaderPtr> level_readers;
  // The SQL engine, started by its first statement (read/lazy_engine.h): ZIP and FOLDER
  // datasets open without it; TACOCAT, legacy and concat datasets start it while opening.
  read::LazyEngine engine;
  // What each stored level's Parquet footer says, read without the engine while opening
  // (ZIP and FOLDER; index = level); nullopt where it was not read or not understood.
  std::vector<std::optional<table::ParquetFooterFacts>> level_footers;
  // OpenOptions::allow_external_sql of the engine's sandbox (read/user_sql.h SandboxUserSql).
  bool allow_external_sql = false;
  int num_levels = 0;
  // The directories (or ZIP files) every sample path must stay inside: {vsi_root} for an
  // opened dataset, every source's for a concat (read/path_safety.h, navigation.cc).
  std::vector<std::string> roots;
  // Relations whose internal:* values are genuine (lower-case name → the stored levels
  // their rows come from): the level views, data, data_raw and every view a Dataset
  // returned (read/protected_columns.h).
  TrustedRelations trusted;
  // A concat of datasets: ids are local to each part, so joins also match
  // internal:source_part (the part index; internal:source_path may repeat).
  bool concatenated = false;
  // A concat: each part's path (Dataset::path()) and the name each of its levels is mounted
  // under in the engine ([part][level]; level 0 the source's view when it was filtered), so
  // that navigation reads a part's own rows, in its own columns, as for the part opened
  // alone (navigation.cc PartLevel), and errors can name the part a column is missing from
  // (filters.cc). Empty else.
  std::vector<std::string> part_paths;
  std::vector<std::vector<std::string>> part_level_files;
  // Legacy BLOB datasets (read/legacy_open.h): what the headers said, and the rows one level
  // below a FOLDER sample (navigation asks here instead of reading a `__meta__`). Null else.
  std::shared_ptr<const LegacyInfo> legacy;
  std::function<Result<Table>(const Table& row, int level)> children_of;
  // OpenOptions::verify_crc: whole-member reads of ZIP samples check the CRC-32.
  bool verify_crc = true;
  // OpenOptions::allow_external_rasters (gdal/sample_raster.h): the decoders may open sample
  // bytes with any GDAL driver.
  bool allow_external_rasters = false;
  // Byte ranges of ZIP samples looked up by archive path for the level views (local ZIP and
  // TACOCAT; read/member_resolver.h). Null else.
  std::shared_ptr<read::MemberResolver> members;
  std::mutex members_mu;  // guards `members` while it is made (engine setup or DirectLevelRows)
  std::atomic<uint64_t> next_name{0};
  // Runs of container bytes read ahead by Dataset::Prefetch (read/sample_bytes.cc), oldest
  // first, at most kMaxPrefetchBytes in all. The one member of State that changes after
  // opening: guarded by prefetch_mu.
  struct PrefetchedRun {
    std::string root;
    uint64_t start = 0;
    std::shared_ptr<const std::string> bytes;
  };
  static constexpr uint64_t kMaxPrefetchBytes = uint64_t{64} << 20;
  mutable std::mutex prefetch_mu;
  mutable std::vector<PrefetchedRun> prefetched;
  // navigation.cc: per (stored level >= 1, concat part (-1 when not a concat), TACOCAT part),
  // that level's rows of the part shaped as its FOLDERs' `__meta__` and indexed by parent,
  // made on first use; null when they cannot stand in for the `__meta__` (navigation.cc says
  // when). Guarded by consolidated_mu.
  std::mutex consolidated_mu;
  std::map<std::tuple<int, int64_t, std::string>, std::shared_ptr<const read::PartLevelRows>> part_levels;

  // "<prefix>_<8 hex digits>", never returned twice.
  std::string NewName(std::string_view prefix);
  // Column names and types of a view or table (binds the query, reads no rows).
  Result<std::vector<Column>> ColumnsOf(const std::string& relation);
  // "<path>: <message>" as InvalidArgument / the status with the path prefix.
  Status Error(const std::string& message) const { return Status::InvalidArgument(path + ": " + message); }
  Status Prefixed(const Status& st) const { return st.WithPrefix(path); }
  // "Level 99 does not exist (levels 0..1)" unless 0 <= level < num_levels.
  Status CheckLevel(int level) const;
};

// Navigation context: the opened state plus the cascade-filtered child levels of a view.
struct Frame::Context {
  std::shared_ptr<Dataset::State> state;
  std::map<int, std::string> filtered;  // level >= 1 → view with the surviving rows
  // A FOLDER's children frame: the FOLDER's archive path with a trailing '/' ("DATA/a/"),
  // so that its children's members are checked by their exact names (navigation.cc); empty
  // for a dataset's own context and below a FOLDER whose archive path is not known.
  std::string archive_dir;
  // A TACOCAT FOLDER's children frame made from the consolidated level (navigation.cc): the
  // part they belong to (internal:source_file) and each row's internal:current_id there
  // (index = row; empty when the rows carry that column), so that a child FOLDER's own
  // children are found in the next level too. Empty for every other frame.
  std::string source_file;
  std::vector<int64_t> current_ids;
  int64_t source_part = -1;  // a concat's part of those rows (internal:source_part); -1 else
};

// Navigation adds this column to a Node's row when it knows the sample's archive path in a
// ZIP ("DATA/a/x.bin"); reads check the member at the sample's offset against it
// (read/sample_bytes.h ExpectedMember). Hidden like every internal:* column.
inline constexpr std::string_view kArchivePath = "internal:archive_path";

// The rows of the whole dataset's `data` (raw false) or `data_raw` (raw true) computed without
// the engine (direct_level.cc), equal to what the views give; nullopt when this dataset or
// its level 0 needs the engine for them (remote, concat, TACOCAT, legacy, unusual types or
// values). Errors: reading level 0.
Result<std::optional<Table>> DirectLevelRows(Dataset::State& state, bool raw);

// Helpers shared by views.cc, filters.cc and navigation.cc.
bool HasColumn(const std::vector<Column>& columns, std::string_view name);
std::string JoinColumnNames(const std::vector<Column>& columns);
// Corruption when the stored level `levelN_table` claims more than util::kMaxLevelRows rows.
Status CheckLevelRows(Dataset::State& state, int level);
// Creates `levelN`, `data_raw` and `data` views over the `levelN_table`s (FORMAT §6.2/6.3),
// and trusts them (TrustLevelViews).
Status CreateLevelViews(Dataset::State& state);
// Registers levelN, levelN_table, data_raw and data as trusted relations.
void TrustLevelViews(Dataset::State& state);
// SELECT list of `columns` without internal:* except internal:gdal_vsi ("*" when nothing
// is dropped; empty when nothing is left).
std::string DataSelectList(const std::vector<Column>& columns);

}  // namespace taco

#endif  // TACO_READ_DATASET_STATE_H_
