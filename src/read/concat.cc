// concat(datasets, column_mode) and load(list) (FORMAT §6.1, §6.10).
//
// The result gets its own engine. Per source i and level N one Parquet file is mounted in it
// as `part<i>.level<N>.parquet`: the source's stored level (in place: ZIP sub-ranges, FOLDER
// METADATA files, TACOCAT levels), except that a filtered level-0 view is copied in as
// Parquet bytes (so .sql()/filters count). Per level, one multi-file scan of all parts
// (read_parquet of the list, union_by_name) gives `level<N>_table`: the chosen columns
// (sorted by name) plus `internal:source_path` and `internal:source_part` (i, from the file
// each row came from: one source given twice is two parts), level 0 without padding rows,
// levels >= 1 only the children of the kept rows one level up in the same part; then
// `level<N>`/`data_raw`/`data` as for an opened dataset, with gdal_vsi built per source; in
// `level<N>` (N >= 1) a ZIP source's rows take their byte ranges by archive path where the
// writer's rule (read/shifted_ranges.h, checked per source over its whole stored level) says
// tacotoolbox may have shifted them: one read of that source's central directory. No
// view per source: the plan does not grow deeper with the number of parts (DuckDB refuses
// expressions nested more than 1,000 deep), and an unfiltered source's engine never starts.
#include <algorithm>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "read/dataset_state.h"
#include "read/member_resolver.h"
#include "read/path_safety.h"
#include "read/shifted_ranges.h"
#include "read/source_order.h"
#include "read/user_sql.h"
#include "table/engine.h"
#include "table/guard_functions.h"
#include "table/wkb_functions.h"
#include "taco/dataset.h"
#include "taco/io.h"

namespace taco {

using table::QuoteIdentifier;
using table::QuoteString;

namespace {

constexpr const char* kWhat = "concat";
// The column read_parquet adds with the file each row comes from (then dropped).
constexpr const char* kPartFile = "internal:concat_file";

Status ConcatError(const std::string& message) { return Status::InvalidArgument(std::string(kWhat) + ": " + message); }

std::string Describe(size_t i, const std::string& path) { return "dataset " + std::to_string(i) + " (" + path + ")"; }

// FORMAT §4.1 compatibility: same root.type, same hierarchy keys, same pattern count per
// key, equal type and id arrays (n ignored). Empty when compatible, else the reason.
std::string PitDifference(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b) {
  auto root_type = [](const nlohmann::ordered_json& pit) {
    if (!pit.is_object() || !pit.contains("root") || !pit["root"].is_object()) return std::string("?");
    return pit["root"].value("type", std::string("?"));
  };
  if (root_type(a) != root_type(b)) return "root type " + root_type(a) + " vs " + root_type(b);
  const auto empty = nlohmann::ordered_json::object();
  const auto& ha = a.is_object() && a.contains("hierarchy") ? a["hierarchy"] : empty;
  const auto& hb = b.is_object() && b.contains("hierarchy") ? b["hierarchy"] : empty;
  std::set<std::string> keys_a, keys_b;
  for (const auto& [k, v] : ha.items()) keys_a.insert(k);
  for (const auto& [k, v] : hb.items()) keys_b.insert(k);
  if (keys_a != keys_b) return "different hierarchy depths";
  for (const auto& key : keys_a) {
    const auto& pa = ha[key];
    const auto& pb = hb[key];
    if (!pa.is_array() || !pb.is_array() || pa.size() != pb.size()) return "level " + key + " pattern counts differ";
    for (size_t i = 0; i < pa.size(); ++i) {
      if (pa[i].value("type", nlohmann::ordered_json()) != pb[i].value("type", nlohmann::ordered_json()) ||
          pa[i].value("id", nlohmann::ordered_json()) != pb[i].value("id", nlohmann::ordered_json())) {
        return "level " + key + " children (types/ids) differ";
      }
    }
  }
  return "";
}

// root.n and every pattern n summed (FORMAT §6.10).
void AddPitCounts(nlohmann::ordered_json& into, const nlohmann::ordered_json& from) {
  auto add = [](nlohmann::ordered_json& dst, const nlohmann::ordered_json& src) {
    if (dst.is_object() && src.is_object() && dst.contains("n") && src.contains("n") && dst["n"].is_number_integer() &&
        src["n"].is_number_integer()) {
      dst["n"] = dst["n"].get<int64_t>() + src["n"].get<int64_t>();
    }
  };
  if (!into.is_object() || !from.is_object()) return;
  if (into.contains("root") && from.contains("root")) add(into["root"], from["root"]);
  if (!into.contains("hierarchy") || !from.contains("hierarchy")) return;
  for (auto& [key, patterns] : into["hierarchy"].items()) {
    if (!from["hierarchy"].contains(key)) continue;
    const auto& other = from["hierarchy"][key];
    for (size_t i = 0; i < patterns.size() && i < other.size(); ++i) add(patterns[i], other[i]);
  }
}

// The gdal_vsi expression of a concatenated level (FORMAT §6.2 "concat"), every metadata
// value guarded as for an opened dataset (read/path_safety.h; views.cc).
std::string ConcatVsiExpression(const format::Container& container, int level) {
  const std::string source = QuoteIdentifier(kSourcePath);
  const std::string url = "starts_with(" + source + ", '/vsicurl')";
  format::SamplePathSql sql;
  sql.root = source;
  sql.subfile =
      "'/vsisubfile/' || " + std::string(read::kCheckedRange) + "(\"internal:offset\", \"internal:size\", -1) || ','";
  sql.id = std::string(read::kCheckedId) + "(id, " + url + ")";
  sql.source_file = std::string(read::kCheckedSourceFile) + "(\"internal:source_file\", " + url + ")";
  sql.relative_path = std::string(read::kCheckedRelativePath) + "(\"internal:relative_path\", " + url + ")";
  return container.SamplePathExpression(level, sql);
}

// The stored level `level` of `src` as something the new engine can read.
Result<std::string> MountStoredLevel(const Dataset::State& src, table::Engine& engine, int level,
                                     const std::string& mount_name) {
  const std::string name = src.path + "/METADATA/level" + std::to_string(level) + ".parquet";
  RangeReaderPtr reader;
  if (static_cast<size_t>(level) < src.level_readers.size() && src.level_readers[static_cast<size_t>(level)]) {
    reader = src.level_readers[static_cast<size_t>(level)];
  } else if (src.layout->level_location() == format::LevelLocation::kContainerRange && src.container != nullptr &&
             static_cast<size_t>(level) + 1 < src.header.size()) {
    const HeaderPair& h = src.header[static_cast<size_t>(level)];
    TACO_ASSIGN_OR_RETURN(reader, SubRange(src.container, h.offset, h.length, name));
  } else if (src.layout->level_location() == format::LevelLocation::kTreeFile) {
    TACO_ASSIGN_OR_RETURN(reader,
                          OpenRangeReader(src.vsi_root + "/METADATA/level" + std::to_string(level) + ".parquet"));
  } else {
    TACO_ASSIGN_OR_RETURN(std::string bytes,
                          src.engine->QueryToParquet("SELECT * FROM level" + std::to_string(level) + "_table"));
    reader = MemoryReader(std::move(bytes), name);
  }
  return engine.Mount(std::move(reader), mount_name);
}

// A source whose samples are members of its own ZIP: its levels >= 1 may hold ranges
// tacotoolbox shifted (read/shifted_ranges.h). TACOCAT sources keep their stored ranges.
bool OwnZipSource(const Dataset::State& src) {
  return src.layout->samples_are_zip_members() && !src.concatenated && src.container != nullptr &&
         src.layout->sample_address() == format::SampleAddress::kContainerRange;
}

// The member resolvers of a concatenation's ZIP sources, by internal:source_part (null where
// no level needs one); filled while the views are made, before any query calls the guard.
using SourceResolvers = std::vector<std::shared_ptr<read::MemberResolver>>;

// The resolver of source `i`, made on first use: one request for its central directory (it
// follows the last metadata member, FORMAT §1.1), none of its samples' bytes.
read::MemberResolver& ResolverOf(SourceResolvers& resolvers, size_t i, const Dataset::State& src) {
  if (!resolvers[i]) {
    resolvers[i] = std::make_shared<read::MemberResolver>(src.path, src.container);
    uint64_t end = 0;
    for (const HeaderPair& h : src.header) end = std::max(end, h.offset + h.length);
    if (end > 0) resolvers[i]->ExpectDirectoryAfter(end);
  }
  return *resolvers[i];
}

// The `levelN_table` select with the byte ranges of the sources `shifted` names (source
// parts) looked up by archive path; the other rows keep the stored ranges. Its callers
// checked that the level has internal:offset/size, id, type and internal:relative_path.
std::string ResolvedConcatLevel(int level, const std::vector<size_t>& shifted) {
  std::string list;
  for (size_t i : shifted) list += (list.empty() ? "" : ", ") + std::to_string(i);
  const std::string part = QuoteIdentifier(kSourcePart);
  const std::string archive =
      "'DATA/' || \"internal:relative_path\" || CASE WHEN type = 'FOLDER' THEN '__meta__' ELSE '' END";
  const std::string inner = "SELECT *, CASE WHEN " + part + " IN (" + list + ") THEN " + read::kResolvedMember +
                            "(\"internal:offset\", \"internal:size\", " + archive + ", CAST(" + part +
                            " AS VARCHAR), id) END AS __taco_member FROM level" + std::to_string(level) + "_table";
  auto field = [](const char* column, int n) {
    return "CASE WHEN __taco_member IS NULL THEN \"" + std::string(column) +
           "\" ELSE CAST(split_part(__taco_member, '_', " + std::to_string(n) + ") AS BIGINT) END AS \"" + column +
           "\"";
  };
  return "SELECT * EXCLUDE (__taco_member) REPLACE (" + field("internal:offset", 1) + ", " + field("internal:size", 2) +
         ") FROM (" + inner + ")";
}
}  // namespace

Result<std::unique_ptr<Dataset>> Dataset::OpenList(const std::vector<std::string>& paths, const OpenOptions& options) {
  if (paths.empty()) return Status::InvalidArgument("load: the list of paths is empty (give at least one dataset)");
  if (paths.size() == 1) return Open(paths[0], options);
  std::vector<std::unique_ptr<Dataset>> opened;
  std::vector<const Dataset*> pointers;
  for (const auto& p : paths) {
    TACO_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> ds, Open(p, options));
    pointers.push_back(ds.get());
    opened.push_back(std::move(ds));
  }
  return Concat(pointers, "intersection");
}

Result<std::unique_ptr<Dataset>> Dataset::Concat(const std::vector<const Dataset*>& datasets,
                                                 const std::string& column_mode) {
  if (datasets.size() < 2) {
    return ConcatError("need at least 2 datasets, got " + std::to_string(datasets.size()));
  }
  if (column_mode != "intersection" && column_mode != "fill_missing" && column_mode != "strict") {
    return ConcatError("Invalid column_mode: '" + column_mode +
                       "' (valid options: 'intersection' (default), 'fill_missing', 'strict')");
  }
  for (size_t i = 0; i < datasets.size(); ++i) {
    if (datasets[i] == nullptr) return ConcatError("dataset " + std::to_string(i) + " is null");
  }
  const DatasetFormat format = datasets[0]->state_->format;
  // Validation order of FORMAT §6.10: navigation columns (RSUT), format, pit schema.
  // A source's unfiltered view (data_raw) is its stored level 0 less the padding rows: that
  // file is scanned in place (its RSUT columns are checked once mounted) and the source's
  // own engine never starts. A filtered view's rows are copied.
  std::vector<std::vector<Column>> views(datasets.size());
  std::vector<bool> stored_level0(datasets.size(), false);
  for (size_t i = 0; i < datasets.size(); ++i) {
    const Dataset& ds = *datasets[i];
    const State& src = *ds.state_;
    stored_level0[i] = ds.view_ == "data_raw" && !src.concatenated && src.layout->levels_are_stored_parquets();
    if (stored_level0[i]) continue;
    TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, ds.state_->ColumnsOf(ds.view_));
    for (const auto& needed : ds.state_->layout->NavigationColumns()) {
      if (!HasColumn(columns, needed)) {
        return ConcatError(Describe(i, ds.state_->path) + " is not RSUT-compliant: its current view lacks '" + needed +
                           "' (keep the navigation columns, e.g. SELECT * FROM data_raw)");
      }
    }
    if (HasColumn(columns, kSourcePath) || HasColumn(columns, kSourcePart)) {
      return Status::NotSupported(std::string(kWhat) + ": " + Describe(i, ds.state_->path) +
                                  " is itself a concatenation; concatenate the original datasets instead");
    }
    views[i] = std::move(columns);
  }
  for (size_t i = 1; i < datasets.size(); ++i) {
    if (datasets[i]->state_->format != format) {
      return ConcatError("cannot concatenate datasets of different formats: " + Describe(0, datasets[0]->path()) +
                         " is " + std::string(DatasetFormatName(format)) + ", " + Describe(i, datasets[i]->path()) +
                         " is " + std::string(DatasetFormatName(datasets[i]->state_->format)));
    }
  }
  const nlohmann::ordered_json& first = datasets[0]->collection();
  const nlohmann::ordered_json first_pit = first.value("taco:pit_schema", nlohmann::ordered_json());
  for (size_t i = 1; i < datasets.size(); ++i) {
    const nlohmann::ordered_json pit = datasets[i]->collection().value("taco:pit_schema", nlohmann::ordered_json());
    std::string diff = PitDifference(first_pit, pit);
    if (diff.empty() && datasets[i]->num_levels() != datasets[0]->num_levels()) diff = "different number of levels";
    if (!diff.empty()) {
      return ConcatError(Describe(i, datasets[i]->path()) + " has an incompatible schema with " +
                         Describe(0, datasets[0]->path()) + " (taco:pit_schema: " + diff + ")");
    }
  }

  auto state = std::make_shared<State>();
  state->format = format;
  state->layout = datasets[0]->state_->layout;
  state->concatenated = true;
  // Errors name the sources: the first ones and how many more (not a thousand paths).
  constexpr size_t kNamed = 4;
  state->path = "concat(";
  for (size_t i = 0; i < datasets.size() && i < kNamed; ++i) state->path += (i ? ", " : "") + datasets[i]->path();
  if (datasets.size() > kNamed) state->path += ", ... " + std::to_string(datasets.size() - kNamed) + " more";
  state->path += ")";
  state->vsi_root = datasets[0]->vsi_root();
  state->allow_external_rasters = true;  // only when every source allows them
  for (const Dataset* ds : datasets) {
    state->allow_external_rasters = state->allow_external_rasters && ds->state_->allow_external_rasters;
    state->containers.insert(ds->state_->containers.begin(), ds->state_->containers.end());
    state->roots.insert(state->roots.end(), ds->state_->roots.begin(), ds->state_->roots.end());
  }
  state->num_levels = datasets[0]->num_levels();
  state->collection = first;
  for (size_t i = 1; i < datasets.size(); ++i) {
    if (state->collection.contains("taco:pit_schema")) {
      AddPitCounts(state->collection["taco:pit_schema"],
                   datasets[i]->collection().value("taco:pit_schema", nlohmann::ordered_json()));
    }
  }
  TACO_ASSIGN_OR_RETURN(std::unique_ptr<table::Engine> opened, table::Engine::Open());
  state->engine.Adopt(std::move(opened));
  table::Engine& engine = *state->engine;
  TACO_RETURN_IF_ERROR(engine.Execute("SET TimeZone = 'UTC'"));
  // External files only when every source allowed them (read/user_sql.h).
  state->allow_external_sql = true;
  for (const Dataset* ds : datasets)
    state->allow_external_sql = state->allow_external_sql && ds->state_->allow_external_sql;
  TACO_RETURN_IF_ERROR(read::SandboxUserSql(engine, state->allow_external_sql));
  TACO_RETURN_IF_ERROR(table::RegisterWkbFunctions(engine));
  TACO_RETURN_IF_ERROR(read::RegisterPathGuards(engine, state->path));

  // Per source and level, one Parquet file mounted in the new engine: its stored level (or,
  // for a filtered view, its rows copied as Parquet); then per level one multi-file scan of
  // all of them (no view per source: a UNION ALL of N views nests N deep, and DuckDB refuses
  // expressions deeper than 1,000).
  const int levels = state->num_levels;
  std::vector<std::vector<std::string>> files(static_cast<size_t>(levels));  // [level][source]
  std::vector<std::vector<std::vector<std::string>>> columns_of(static_cast<size_t>(levels));
  auto file_name = [](size_t i, int level) {
    return "part" + std::to_string(i) + ".level" + std::to_string(level) + ".parquet";
  };
  auto columns_in = [&](const std::string& mounted) -> Result<std::vector<std::string>> {
    auto result = engine.Query("SELECT * FROM read_parquet(" + QuoteString(mounted) + ") LIMIT 0");
    if (!result.ok()) return result.status();
    std::vector<std::string> out;
    for (const auto& c : result->columns) out.push_back(c.name);
    return out;
  };
  state->part_level_files.assign(datasets.size(), std::vector<std::string>(static_cast<size_t>(levels)));
  for (const Dataset* ds : datasets) state->part_paths.push_back(ds->path());
  for (size_t i = 0; i < datasets.size(); ++i) {
    const Dataset& ds = *datasets[i];
    const State& src = *ds.state_;
    for (int level = 0; level < levels; ++level) {
      std::string mounted;
      if (level == 0 && !stored_level0[i]) {
        std::string select;
        for (const auto& c : views[i]) {
          if (c.name != kGdalVsi) select += (select.empty() ? "" : ", ") + QuoteIdentifier(c.name);
        }
        auto bytes = src.engine->QueryToParquet("SELECT " + select + " FROM " + ds.view_);
        if (!bytes.ok()) return src.Prefixed(bytes.status());
        mounted = engine.Mount(MemoryReader(std::move(*bytes), src.path + " (level 0 view)"), file_name(i, 0));
      } else {
        auto m = MountStoredLevel(src, engine, level, file_name(i, level));
        if (!m.ok()) return src.Prefixed(m.status());
        mounted = std::move(*m);
      }
      auto cols = columns_in(mounted);
      if (!cols.ok()) return src.Prefixed(cols.status());
      std::sort(cols->begin(), cols->end());
      if (level == 0 && stored_level0[i]) {
        for (const auto& needed : src.layout->NavigationColumns()) {
          if (!std::binary_search(cols->begin(), cols->end(), needed)) {
            return ConcatError(Describe(i, src.path) + " is not RSUT-compliant: its level 0 lacks '" + needed + "'");
          }
        }
      }
      state->part_level_files[i][static_cast<size_t>(level)] = mounted;  // navigation.cc, filters.cc
      files[static_cast<size_t>(level)].push_back(std::move(mounted));
      columns_of[static_cast<size_t>(level)].push_back(std::move(*cols));
    }
  }
  std::string source_paths;  // the list literal indexed by internal:source_part + 1
  for (const Dataset* ds : datasets) source_paths += (source_paths.empty() ? "" : ", ") + QuoteString(ds->vsi_root());
  source_paths = "[" + source_paths + "]";

  // Byte ranges of the ZIP sources' levels >= 1 where tacotoolbox may have shifted them, per
  // source by the rule of read/shifted_ranges.h (as a remote ZIP's own views do, views.cc).
  std::vector<size_t> zip_sources;
  for (size_t i = 0; i < datasets.size(); ++i) {
    if (OwnZipSource(*datasets[i]->state_)) zip_sources.push_back(i);
  }
  auto resolvers = std::make_shared<SourceResolvers>(datasets.size());
  if (!zip_sources.empty() && levels > 1) {
    TACO_RETURN_IF_ERROR(table::RegisterMemberGuard(
        engine, read::kResolvedMember,
        [resolvers](int64_t offset, int64_t size, std::string_view path, std::string_view container,
                    std::string_view id, std::string* range) -> std::string {
          const size_t i = static_cast<size_t>(std::stoull(std::string(container)));
          if (i >= resolvers->size() || !(*resolvers)[i]) return "no member index for source " + std::string(container);
          return (*resolvers)[i]->Resolve(offset, size, path, "", id, range);
        }));
  }

  // Column selection per level, then the scans and the level views.
  for (int level = 0; level < levels; ++level) {
    const std::string n = std::to_string(level);
    std::set<std::string> all, common;
    for (size_t i = 0; i < datasets.size(); ++i) {
      const std::vector<std::string>& these = columns_of[static_cast<size_t>(level)][i];
      if (i == 0) common = std::set<std::string>(these.begin(), these.end());
      std::set<std::string> kept;
      std::set_intersection(common.begin(), common.end(), these.begin(), these.end(), std::inserter(kept, kept.end()));
      common = std::move(kept);
      all.insert(these.begin(), these.end());
    }
    if (column_mode == "strict" && common != all) {
      std::string differing;
      for (const auto& c : all) {
        if (!common.count(c)) differing += (differing.empty() ? "" : ", ") + c;
      }
      return ConcatError("column_mode 'strict': level " + n +
                         " columns differ between datasets (not in all: " + differing + ")");
    }
    const std::set<std::string>& chosen = column_mode == "fill_missing" ? all : common;
    for (const auto& critical : state->layout->CriticalColumns(level)) {
      if (!chosen.count(critical)) {
        return ConcatError("level " + n + " would lose the critical column '" + critical +
                           "' (not in every dataset); the result could not be navigated");
      }
    }
    std::string list;
    for (const std::string& f : files[static_cast<size_t>(level)]) list += (list.empty() ? "" : ", ") + QuoteString(f);
    std::string select;
    for (const auto& c : chosen) select += QuoteIdentifier(c) + ", ";
    const std::string part = "CAST(regexp_extract(" + QuoteIdentifier(kPartFile) +
                             ", '/part([0-9]+)\\.level[0-9]+\\.parquet$', 1) AS BIGINT)";
    Status st = engine.Execute("CREATE VIEW concat_level" + n + "_scan AS SELECT " + select + part + " AS " +
                               QuoteIdentifier(kSourcePart) + " FROM read_parquet([" + list +
                               "], union_by_name = true, filename = " + QuoteString(kPartFile) + ")");
    if (st.ok()) {
      // Level 0 without padding rows (the scan's order: part by part, each in stored order);
      // deeper levels keep the children of the kept rows one level up, in the same part, in
      // the scan's order too (a semi-join alone would not keep it: read/source_order.h).
      const std::string scan = "concat_level" + n + "_scan";
      std::string rows;
      if (level == 0) {
        rows = "SELECT * FROM " + scan + " t WHERE NOT coalesce(starts_with(id, " + QuoteString(kPaddingPrefix) +
               "), false)";
      } else {
        rows = read::KeepSourceOrder(scan, "t",
                                     "EXISTS (SELECT 1 FROM level" + std::to_string(level - 1) + "_table p WHERE p." +
                                         QuoteIdentifier(kSourcePart) + " = t." + QuoteIdentifier(kSourcePart) +
                                         " AND p." + QuoteIdentifier(kCurrentId) + " = t." +
                                         QuoteIdentifier(kParentId) + ")");
      }
      st = engine.Execute("CREATE VIEW level" + n + "_table AS SELECT t.* EXCLUDE (" + QuoteIdentifier(kSourcePart) +
                          "), " + source_paths + "[t." + QuoteIdentifier(kSourcePart) + " + 1] AS " +
                          QuoteIdentifier(kSourcePath) + ", t." + QuoteIdentifier(kSourcePart) + " FROM (" + rows +
                          ") t");
    }
    std::string ranges = "level" + n + "_table";
    const bool resolvable = chosen.count("internal:offset") && chosen.count("internal:size") && chosen.count("id") &&
                            chosen.count("type") && chosen.count("internal:relative_path");
    if (st.ok() && level > 0 && resolvable && !zip_sources.empty()) {
      // The rule over the whole stored level of each ZIP source (the scan, not the filtered
      // table: a kept subset of shifted rows can look in order).
      std::string list;
      for (size_t i : zip_sources) list += (list.empty() ? "" : ", ") + std::to_string(i);
      const std::string text = "internal:concat_part_text";
      auto shifted = read::ShiftedRanges(engine,
                                         "(SELECT CAST(" + QuoteIdentifier(kSourcePart) + " AS VARCHAR) AS " +
                                             QuoteIdentifier(text) + ", * FROM concat_level" + n + "_scan WHERE " +
                                             QuoteIdentifier(kSourcePart) + " IN (" + list + "))",
                                         text);
      if (!shifted.ok()) return state->Prefixed(shifted.status().WithPrefix("level " + n));
      std::vector<size_t> parts;
      for (const auto& [key, stored] : *shifted) {
        if (key.empty()) continue;  // a row without its part: cannot be told apart
        const size_t i = static_cast<size_t>(std::stoull(key));
        ResolverOf(*resolvers, i, *datasets[i]->state_).AddStoredRanges("", stored);
        parts.push_back(i);
      }
      if (!parts.empty()) ranges = "(" + ResolvedConcatLevel(level, parts) + ")";
    }
    if (st.ok()) {
      st = engine.Execute("CREATE VIEW level" + n + " AS SELECT *, " + ConcatVsiExpression(*state->layout, level) +
                          " AS " + QuoteIdentifier(kGdalVsi) + " FROM " + ranges +
                          " WHERE NOT coalesce(starts_with(id, " + QuoteString(kPaddingPrefix) + "), false)");
    }
    if (!st.ok()) return state->Prefixed(st.WithPrefix("level " + n));
  }
  TACO_RETURN_IF_ERROR(engine.Execute("CREATE VIEW data_raw AS SELECT * FROM level0"));
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, state->ColumnsOf("level0"));
  TACO_RETURN_IF_ERROR(engine.Execute("CREATE VIEW data AS SELECT " + DataSelectList(columns) + " FROM level0"));
  TrustLevelViews(*state);

  auto context = std::make_shared<Frame::Context>();
  context->state = state;
  return std::unique_ptr<Dataset>(new Dataset(state, "data_raw", "data", std::move(context)));
}

}  // namespace taco
