// concat(datasets, column_mode) and load(list) (FORMAT §6.1, §6.10).
//
// The result gets its own engine: each source's level-0 current view is copied in as
// Parquet bytes (in memory, so .sql()/filters count), its stored levels >= 1 are mounted in
// place again (ZIP: sub-ranges of the container; FOLDER: the METADATA files). Per source i:
// `ds<i>_level<N>` (levels >= 1 keep only children of the kept rows one level up); then
// `level<N>_table` = UNION ALL of the chosen columns (sorted by name) plus
// `internal:source_path` and `internal:source_part` (i: one source given twice is two parts,
// its rows twice, each joined to its own part's children), and `level<N>`/`data_raw`/`data`
// as for an opened dataset, with gdal_vsi built per source.
#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "read/dataset_state.h"
#include "read/path_safety.h"
#include "read/user_sql.h"
#include "table/engine.h"
#include "table/wkb_functions.h"
#include "taco/dataset.h"
#include "taco/io.h"

namespace taco {

using table::QuoteIdentifier;
using table::QuoteString;

namespace {

constexpr const char* kWhat = "concat";

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
Result<std::string> MountStoredLevel(const Dataset::State& src, table::Engine& engine, int level) {
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
  return engine.Mount(std::move(reader), name);
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
  std::vector<std::vector<Column>> views;
  for (size_t i = 0; i < datasets.size(); ++i) {
    const Dataset& ds = *datasets[i];
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
    views.push_back(std::move(columns));
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
  state->path = "concat(";
  for (size_t i = 0; i < datasets.size(); ++i) state->path += (i ? ", " : "") + datasets[i]->path();
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

  // Per-source relations.
  for (size_t i = 0; i < datasets.size(); ++i) {
    const Dataset& ds = *datasets[i];
    const State& src = *ds.state_;
    const std::string prefix = "ds" + std::to_string(i) + "_level";
    std::string select;
    for (const auto& c : views[i]) {
      if (c.name != kGdalVsi) select += (select.empty() ? "" : ", ") + QuoteIdentifier(c.name);
    }
    auto bytes = src.engine->QueryToParquet("SELECT " + select + " FROM " + ds.view_);
    if (!bytes.ok()) return src.Prefixed(bytes.status());
    const std::string level0 =
        engine.Mount(MemoryReader(std::move(*bytes), src.path + " (level 0 view)"), "level0.parquet");
    TACO_RETURN_IF_ERROR(
        engine.Execute("CREATE VIEW " + prefix + "0 AS SELECT * FROM read_parquet(" + QuoteString(level0) + ")"));
    for (int level = 1; level < state->num_levels; ++level) {
      auto mounted = MountStoredLevel(src, engine, level);
      if (!mounted.ok()) return src.Prefixed(mounted.status());
      const std::string n = std::to_string(level);
      const std::string parent = prefix + std::to_string(level - 1);
      Status st = engine.Execute("CREATE VIEW " + prefix + n + "_table AS SELECT * FROM read_parquet(" +
                                 QuoteString(*mounted) + ")");
      if (st.ok()) {
        st = engine.Execute("CREATE VIEW " + prefix + n + " AS SELECT * FROM " + prefix + n + "_table WHERE " +
                            QuoteIdentifier(kParentId) + " IN (SELECT " + QuoteIdentifier(kCurrentId) + " FROM " +
                            parent + ")");
      }
      if (!st.ok()) return src.Prefixed(st);
    }
  }

  // Column selection per level, then the unions and the level views.
  for (int level = 0; level < state->num_levels; ++level) {
    const std::string n = std::to_string(level);
    std::vector<std::vector<std::string>> names(datasets.size());
    std::set<std::string> all, common;
    for (size_t i = 0; i < datasets.size(); ++i) {
      TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, state->ColumnsOf("ds" + std::to_string(i) + "_level" + n));
      std::set<std::string> these;
      for (const auto& c : columns) these.insert(c.name);
      if (i == 0) common = these;
      std::set<std::string> kept;
      std::set_intersection(common.begin(), common.end(), these.begin(), these.end(), std::inserter(kept, kept.end()));
      common = std::move(kept);
      all.insert(these.begin(), these.end());
      names[i].assign(these.begin(), these.end());
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
    std::string union_sql;
    for (size_t i = 0; i < datasets.size(); ++i) {
      std::string select;
      for (const auto& c : chosen) {
        const bool present = std::binary_search(names[i].begin(), names[i].end(), c);
        select += (select.empty() ? "" : ", ") + (present ? QuoteIdentifier(c) : "NULL AS " + QuoteIdentifier(c));
      }
      union_sql += (i ? " UNION ALL " : "") + std::string("SELECT ") + select + ", " +
                   QuoteString(datasets[i]->vsi_root()) + " AS " + QuoteIdentifier(kSourcePath) + ", " +
                   std::to_string(i) + "::BIGINT AS " + QuoteIdentifier(kSourcePart) + " FROM ds" + std::to_string(i) +
                   "_level" + n;
    }
    Status st = engine.Execute("CREATE VIEW level" + n + "_table AS " + union_sql);
    if (st.ok()) {
      st = engine.Execute("CREATE VIEW level" + n + " AS SELECT *, " + ConcatVsiExpression(*state->layout, level) +
                          " AS " + QuoteIdentifier(kGdalVsi) + " FROM level" + n +
                          "_table WHERE NOT coalesce(starts_with(id, " + QuoteString(kPaddingPrefix) + "), false)");
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
