// CreateTacocat (FORMAT §5.1, §5.2): the inputs' level Parquets read in place through DuckDB,
// schema-checked (strict) or aligned (union), concatenated in input order with
// `internal:source_file`, written as `.tacocat/` or `__TACOCAT__`.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "io/location.h"
#include "table/engine.h"
#include "table/parquet_writer.h"
#include "taco/tacocat.h"
#include "util/exception_guard.h"
#include "util/file_copy.h"
#include "util/sql_union.h"
#include "write/atomic_output.h"
#include "write/tacocat_internal.h"

namespace taco {
namespace write {
namespace {

namespace fs = std::filesystem;
using table::QuoteIdentifier;
using table::QuoteString;

constexpr std::string_view kSourceFile = "internal:source_file";
constexpr int kTacocatZstdLevel = 19;  // FORMAT §3.1

struct ColumnDef {
  std::string name;
  std::string type;  // DuckDB type, as DESCRIBE prints it
};

// One input level mounted in the engine.
struct MountedLevel {
  std::string path;  // tacofs path for read_parquet()
  std::vector<ColumnDef> columns;
};

std::string LevelLabel(size_t level) { return "level" + std::to_string(level); }

Result<MountedLevel> MountLevel(table::Engine& engine, const OpenedSource& s, size_t level) {
  const std::string name = s.source.path + "/METADATA/" + LevelLabel(level) + ".parquet";
  const ByteRange& r = s.levels[level];
  TACO_ASSIGN_OR_RETURN(RangeReaderPtr member, SubRange(s.reader, r.offset, r.size, name));
  MountedLevel m;
  m.path = engine.Mount(std::move(member), LevelLabel(level) + ".parquet");
  auto described = engine.Query("DESCRIBE SELECT * FROM read_parquet(" + QuoteString(m.path) + ")");
  if (!described.ok()) return described.status().WithPrefix(name);
  const int name_col = described->FindColumn("column_name");
  const int type_col = described->FindColumn("column_type");
  if (name_col < 0 || type_col < 0) return Status::Internal(name + ": DESCRIBE returned no column_name/column_type");
  for (size_t i = 0; i < described->num_rows(); ++i) {
    const Value& n = described->columns[static_cast<size_t>(name_col)].values[i];
    const Value& t = described->columns[static_cast<size_t>(type_col)].values[i];
    if (!n.is<std::string>() || !t.is<std::string>()) return Status::Internal(name + ": DESCRIBE returned nulls");
    m.columns.push_back({n.get<std::string>(), t.get<std::string>()});
  }
  auto has = [&](std::string_view c) {
    return std::any_of(m.columns.begin(), m.columns.end(), [&](const ColumnDef& d) { return d.name == c; });
  };
  for (std::string_view required : {"id", "type", "internal:offset", "internal:size"}) {
    if (!has(required)) return Status::InvalidArgument(name + ": has no column '" + std::string(required) + "'");
  }
  if (has(kSourceFile)) return Status::InvalidArgument(name + ": already has a column internal:source_file");
  return m;
}

// Strict mode: `other` must equal `first` (names, types, order); the error says how not.
Status CompareSchemas(const std::vector<ColumnDef>& first, const std::vector<ColumnDef>& other,
                      const std::string& first_name, const std::string& name, size_t level) {
  auto differs = [&](const std::string& what) {
    return Status::InvalidArgument(name + ": " + LevelLabel(level) + " schema differs from " + first_name + ": " +
                                   what + " (use aligned schemas to combine them with nulls)");
  };
  std::map<std::string, std::string> a, b;
  for (const auto& c : first) a[c.name] = c.type;
  for (const auto& c : other) b[c.name] = c.type;
  for (const auto& c : first) {
    auto it = b.find(c.name);
    if (it == b.end()) return differs("column '" + c.name + "' (" + c.type + ") is missing");
    if (it->second != c.type) return differs("column '" + c.name + "' is " + it->second + ", expected " + c.type);
  }
  for (const auto& c : other) {
    if (!a.count(c.name)) return differs("extra column '" + c.name + "' (" + c.type + ")");
  }
  for (size_t i = 0; i < first.size(); ++i) {
    if (first[i].name != other[i].name) {
      return differs("column " + std::to_string(i) + " is '" + other[i].name + "', expected '" + first[i].name +
                     "' (same columns, different order)");
    }
  }
  return Status::OK();
}

// The output columns of one level: the union (type conflicts are errors), `id`, `type`
// first and the rest sorted by name when there is more than one input (FORMAT §3.2).
Result<std::vector<ColumnDef>> OutputColumns(const std::vector<const MountedLevel*>& levels,
                                             const std::vector<const OpenedSource*>& owners, size_t level,
                                             size_t num_inputs) {
  std::vector<ColumnDef> out;
  std::map<std::string, std::pair<std::string, std::string>> seen;  // name → (type, input)
  for (size_t i = 0; i < levels.size(); ++i) {
    for (const auto& c : levels[i]->columns) {
      auto it = seen.find(c.name);
      if (it == seen.end()) {
        seen[c.name] = {c.type, owners[i]->source.path};
        out.push_back(c);
      } else if (it->second.first != c.type) {
        return Status::InvalidArgument(owners[i]->source.path + ": " + LevelLabel(level) + " column '" + c.name +
                                       "' is " + c.type + " but " + it->second.first + " in " + it->second.second);
      }
    }
  }
  out.push_back({std::string(kSourceFile), "VARCHAR"});
  if (num_inputs > 1) {
    auto rank = [](const std::string& n) { return n == "id" ? 0 : n == "type" ? 1 : 2; };
    std::stable_sort(out.begin(), out.end(), [&](const ColumnDef& x, const ColumnDef& y) {
      if (rank(x.name) != rank(y.name)) return rank(x.name) < rank(y.name);
      return rank(x.name) == 2 && x.name < y.name;
    });
  }
  return out;
}

// Whether an input level has a column named like one of DuckDB's virtual columns of a
// multi-file scan (file_index, file_row_number), which a real column hides.
bool HidesVirtualColumns(const std::vector<const MountedLevel*>& levels) {
  for (const MountedLevel* level : levels) {
    for (const ColumnDef& c : level->columns) {
      if (c.name == "file_index" || c.name == "file_row_number") return true;
    }
  }
  return false;
}

// SQL producing one level of the TACOCAT from ONE multi-file scan of every input's level:
// rows in input order (DuckDB's virtual column file_index: the position in the list) then
// row order (file_row_number); union_by_name fills the columns an input lacks with nulls.
// Planning it costs the same at any number of inputs, where a UNION ALL of one SELECT per
// input took seconds to plan at 1,000 inputs and grew quadratically.
std::string MultiFileLevelQuery(const std::vector<ColumnDef>& columns, const std::vector<const MountedLevel*>& levels,
                                const std::vector<const OpenedSource*>& owners) {
  std::string paths, names;
  for (size_t i = 0; i < levels.size(); ++i) {
    if (i > 0) {
      paths += ", ";
      names += ", ";
    }
    paths += QuoteString(levels[i]->path);
    names += QuoteString(owners[i]->source.file_name);
  }
  std::string select;
  for (const auto& c : columns) {
    const std::string expr =
        c.name == kSourceFile ? "[" + names + "][CAST(file_index AS BIGINT) + 1]" : QuoteIdentifier(c.name);
    select += (select.empty() ? "" : ", ") + expr + " AS " + QuoteIdentifier(c.name);
  }
  return "SELECT " + select + " FROM read_parquet([" + paths +
         "], union_by_name = true) ORDER BY file_index, file_row_number";
}

// SQL producing level `level` of the TACOCAT: every input's rows in input then row order.
// MultiFileLevelQuery unless a column hides the virtual columns it orders by; then one
// SELECT per input, concatenated.
std::string LevelQuery(const std::vector<ColumnDef>& columns, const std::vector<const MountedLevel*>& levels,
                       const std::vector<const OpenedSource*>& owners) {
  if (!HidesVirtualColumns(levels)) return MultiFileLevelQuery(columns, levels, owners);
  std::string outer;
  for (const auto& c : columns) outer += (outer.empty() ? "" : ", ") + QuoteIdentifier(c.name);
  std::vector<std::string> selects;
  for (size_t i = 0; i < levels.size(); ++i) {
    std::string select;
    for (const auto& c : columns) {
      std::string expr;
      if (c.name == kSourceFile) {
        expr = QuoteString(owners[i]->source.file_name) + " AS " + QuoteIdentifier(c.name);
      } else if (std::any_of(levels[i]->columns.begin(), levels[i]->columns.end(),
                             [&](const ColumnDef& d) { return d.name == c.name; })) {
        expr = QuoteIdentifier(c.name);
      } else {
        expr = "CAST(NULL AS " + c.type + ") AS " + QuoteIdentifier(c.name);
      }
      select += (select.empty() ? "" : ", ") + expr;
    }
    selects.push_back("SELECT " + select + ", " + std::to_string(i) +
                      " AS __taco_input, file_row_number AS __taco_row" + " FROM read_parquet(" +
                      QuoteString(levels[i]->path) + ", file_row_number = true)");
  }
  return "SELECT " + outer + " FROM (" + util::UnionAll(selects) + ") ORDER BY __taco_input, __taco_row";
}

std::string DumpJson(const nlohmann::ordered_json& j) {
  return j.dump(4, ' ', /*ensure_ascii=*/false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

// The directory holding every input (InvalidArgument when they differ or are remote).
Result<std::string> CommonDirectory(const std::vector<TacocatSource>& sources) {
  std::string common;
  for (const auto& s : sources) {
    if (!io::Location::Of(s.path).is_local_filesystem()) {  // the TACOCAT is written beside its inputs
      return Status::InvalidArgument(s.path + ": input is remote: give an output directory for the TACOCAT");
    }
    fs::path parent = fs::path(s.path).parent_path();
    std::string dir = fs::absolute(parent.empty() ? fs::path(".") : parent).lexically_normal().string();
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (common.empty()) {
      common = dir;
    } else if (dir != common) {
      return Status::InvalidArgument("inputs are in different directories (" + common + ", " + dir +
                                     "): give an output directory");
    }
  }
  return common;
}

// Level-0 ids found in more than one input: reported through options.warn (a reader
// refuses to resolve them by id).
Status ReportSharedIds(table::Engine& engine, const std::vector<std::vector<MountedLevel>>& mounted,
                       const std::vector<OpenedSource>& opened, const TacocatOptions& options) {
  if (!options.warn || opened.size() < 2) return Status::OK();
  // Every input has a level 0 (OpenSource), so file_index is the input's index.
  std::vector<const MountedLevel*> level0;
  for (const auto& m : mounted) level0.push_back(&m.at(0));
  std::string unions;
  if (HidesVirtualColumns(level0)) {
    std::vector<std::string> selects;
    for (size_t i = 0; i < level0.size(); ++i) {
      selects.push_back("SELECT DISTINCT id, " + std::to_string(i) + " AS input FROM read_parquet(" +
                        QuoteString(level0[i]->path) + ")");
    }
    unions = util::UnionAll(selects);
  } else {
    std::string paths;
    for (size_t i = 0; i < level0.size(); ++i) {
      if (i > 0) paths += ", ";
      paths += QuoteString(level0[i]->path);
    }
    unions = "SELECT DISTINCT id, CAST(file_index AS BIGINT) AS input FROM read_parquet([" + paths +
             "], union_by_name = true)";
  }
  TACO_ASSIGN_OR_RETURN(
      Table shared,
      engine.Query("SELECT id, list(input ORDER BY input) AS inputs, count(*) OVER () AS n FROM (" + unions +
                   ") WHERE NOT coalesce(starts_with(id, '__TACOPAD__'), false) GROUP BY id HAVING count(*) > 1 "
                   "ORDER BY min(input), id LIMIT 1"));
  if (shared.num_rows() == 0) return Status::OK();
  const Value& id = shared.columns[0].values[0];
  const Value& inputs = shared.columns[1].values[0];
  const int64_t n = shared.columns[2].values[0].is<int64_t>() ? shared.columns[2].values[0].get<int64_t>() : 1;
  std::string where;
  if (inputs.is<ValueList>()) {
    for (const Value& v : inputs.get<ValueList>()) {
      if (!v.is<int32_t>() && !v.is<int64_t>()) continue;
      const size_t i = static_cast<size_t>(v.is<int32_t>() ? v.get<int32_t>() : v.get<int64_t>());
      if (i < opened.size()) where += (where.empty() ? "" : ", ") + opened[i].source.file_name;
    }
  }
  options.warn(std::to_string(n) + " level-0 id" + (n == 1 ? " is" : "s are") + " in more than one input (first: '" +
               (id.is<std::string>() ? id.get<std::string>() : "?") + "' in " + where +
               "): readers refuse to resolve a shared id; reach those samples by position (@N) or select them with "
               "internal:source_file");
  return Status::OK();
}

// `internal:source_file` of each input: its path relative to `dir` (see taco/tacocat.h).
Status RelativizeSources(std::vector<TacocatSource>* sources, const std::string& dir) {
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  std::set<std::string> names;
  for (TacocatSource& s : *sources) {
    if (!io::Location::Of(s.path).is_local_filesystem()) continue;  // the base name; read with base_path
    const fs::path input = fs::weakly_canonical(fs::absolute(s.path, ec), ec);
    const fs::path rel = input.lexically_relative(base);
    const std::string text = rel.generic_string();
    if (rel.empty() || rel.is_absolute() || text == "." || text.rfind("..", 0) == 0) {
      return Status::InvalidArgument(
          s.path + ": is not inside the output directory " + base.string() +
          ": a TACOCAT finds its ZIPs by paths relative to its own directory, and readers refuse paths that "
          "leave it; write the TACOCAT into the inputs' directory (the default) or a directory that contains "
          "them, or move it afterwards and read it with --base-path DIR");
    }
    s.file_name = text;
    if (!names.insert(text).second) return Status::InvalidArgument(s.path + ": given twice");
  }
  return Status::OK();
}

// True for DuckDB types that Engine::Query returns without a change of type
// (engine.h's mapping), so that EncodeParquet writes what the engine would have written.
bool KeepsTypeThroughQuery(std::string type) {
  while (type.size() > 2 && type.compare(type.size() - 2, 2, "[]") == 0) type.resize(type.size() - 2);
  static const std::set<std::string> kKept = {"VARCHAR", "BLOB",  "BOOLEAN", "INTEGER",
                                              "BIGINT",  "FLOAT", "DOUBLE",  "TIMESTAMP"};
  return kKept.count(type) > 0;
}

// A TACOCAT level as Parquet: through the engine-free writer (content-defined pages, as the
// consolidated levels of create) when every column's type passes a query unchanged and the
// rows fit the memory budget; else DuckDB's writer.
Result<std::string> LevelToParquet(table::Engine& engine, const std::string& sql,
                                   const table::ParquetWriteOptions& opts) {
  auto described = engine.Query("DESCRIBE " + sql);
  bool native = described.ok() && described->FindColumn("column_type") >= 0;
  if (native) {
    for (const Value& type : described->column("column_type").values) {
      native = native && type.is<std::string>() && KeepsTypeThroughQuery(type.get<std::string>());
    }
  }
  if (native) {
    auto rows = engine.Query(sql);
    if (rows.ok() && table::CanEncodeParquet(*rows) && !rows->columns.empty()) {
      auto bytes = table::EncodeParquet(*rows, opts);
      if (bytes.ok() || bytes.status().code() != StatusCode::kNotSupported) return bytes;
    } else if (!rows.ok() && rows.status().code() != StatusCode::kNotSupported) {
      return rows.status();
    }
  }
  return engine.QueryToParquet(sql, opts);
}

}  // namespace

Result<std::unique_ptr<AtomicOutput>> WriteTacocat(const std::vector<TacocatSource>& sources, const std::string& dir,
                                                   const TacocatOptions& options) {
  if (sources.empty()) return Status::InvalidArgument("tacocat: no input datasets given");
  if (dir.empty()) return Status::InvalidArgument("tacocat: the output directory is empty");
  const std::string final_path =
      (fs::path(dir) / std::string(options.single_file ? kTacocatFileName : kTacocatDirName)).string();
  if (fs::exists(fs::symlink_status(final_path))) return Status::AlreadyExists(final_path + ": already exists");

  TACO_ASSIGN_OR_RETURN(auto engine, table::Engine::Open());
  // Progress counts steps: one per input (opened, levels mounted and checked), then one per
  // level written; the level count is known once every input is open.
  const uint64_t n = sources.size();
  uint64_t total = n + 1;
  auto report = [&](uint64_t done) {
    if (options.progress) options.progress(done, total);
  };
  report(0);

  // Open every input, mount its levels, check the schemas.
  std::vector<OpenedSource> opened;
  std::vector<std::vector<MountedLevel>> mounted(n);
  for (size_t i = 0; i < n; ++i) {
    TACO_ASSIGN_OR_RETURN(OpenedSource o, OpenSource(sources[i]));
    opened.push_back(std::move(o));
    if (!options.align_schemas && opened[i].levels.size() != opened[0].levels.size()) {
      return Status::InvalidArgument(opened[i].source.path + ": has " + std::to_string(opened[i].levels.size()) +
                                     " levels but " + opened[0].source.path + " has " +
                                     std::to_string(opened[0].levels.size()));
    }
    for (size_t level = 0; level < opened[i].levels.size(); ++level) {
      TACO_ASSIGN_OR_RETURN(MountedLevel m, MountLevel(*engine, opened[i], level));
      if (!options.align_schemas && i > 0) {
        TACO_RETURN_IF_ERROR(
            CompareSchemas(mounted[0][level].columns, m.columns, opened[0].source.path, opened[i].source.path, level));
      }
      mounted[i].push_back(std::move(m));
    }
    if (i + 1 < n) report(i + 1);
  }
  size_t num_levels = 0;
  for (const auto& o : opened) num_levels = std::max(num_levels, o.levels.size());
  total = n + num_levels;
  report(n);
  TACO_RETURN_IF_ERROR(ReportSharedIds(*engine, mounted, opened, options));
  TacollectionOptions collection_options;
  collection_options.validate_fields = !options.align_schemas;
  TACO_ASSIGN_OR_RETURN(nlohmann::ordered_json collection, BuildTacollectionFromSources(opened, collection_options));

  std::vector<std::string> level_bytes;
  for (size_t level = 0; level < num_levels; ++level) {
    std::vector<const MountedLevel*> levels;
    std::vector<const OpenedSource*> owners;
    for (size_t i = 0; i < opened.size(); ++i) {
      if (level < mounted[i].size()) {
        levels.push_back(&mounted[i][level]);
        owners.push_back(&opened[i]);
      }
    }
    TACO_ASSIGN_OR_RETURN(std::vector<ColumnDef> columns, OutputColumns(levels, owners, level, opened.size()));
    table::ParquetWriteOptions parquet;
    parquet.zstd_level = kTacocatZstdLevel;
    auto bytes = LevelToParquet(*engine, LevelQuery(columns, levels, owners), parquet);
    if (!bytes.ok()) return bytes.status().WithPrefix("tacocat " + LevelLabel(level));
    level_bytes.push_back(std::move(*bytes));
    report(n + level + 1);
  }

  TACO_ASSIGN_OR_RETURN(auto out, AtomicOutput::Begin(final_path, /*is_directory=*/!options.single_file));
  if (!options.single_file) {
    for (size_t level = 0; level < level_bytes.size(); ++level) {
      TACO_RETURN_IF_ERROR(WriteNewFile(out->temp_path() + "/" + LevelLabel(level) + ".parquet", level_bytes[level]));
    }
    TACO_RETURN_IF_ERROR(WriteNewFile(out->temp_path() + "/COLLECTION.json", DumpJson(collection)));
    return out;
  }

  std::vector<std::string> names;
  for (const auto& s : sources) names.push_back(s.file_name);
  std::sort(names.begin(), names.end());
  collection["_tacocat"] = {{"version", kTacocatVersion}, {"num_datasets", sources.size()}, {"dataset_sources", names}};
  const std::string json = DumpJson(collection);
  TacocatHeader header;
  header.max_depth = static_cast<uint32_t>(level_bytes.size() - 1);
  uint64_t at = kTacocatHeaderSize;
  for (size_t level = 0; level < level_bytes.size(); ++level) {
    header.levels[level] = {at, level_bytes[level].size()};
    at += level_bytes[level].size();
  }
  header.collection = {at, json.size()};
  std::string file = EncodeTacocatHeader(header);
  for (const auto& b : level_bytes) file += b;
  file += json;
  TACO_RETURN_IF_ERROR(WriteNewFile(out->temp_path(), file));
  return out;
}

}  // namespace write

static Result<std::string> CreateTacocatUnguarded(const std::vector<std::string>& inputs,
                                                  const TacocatOptions& options) {
  TACO_ASSIGN_OR_RETURN(std::vector<write::TacocatSource> sources, write::SourcesFromPaths(inputs));
  std::string dir = options.output_dir;
  if (dir.empty()) {
    TACO_ASSIGN_OR_RETURN(dir, write::CommonDirectory(sources));
  } else {
    TACO_RETURN_IF_ERROR(write::RelativizeSources(&sources, dir));
  }
  TACO_ASSIGN_OR_RETURN(auto out, write::WriteTacocat(sources, dir, options));
  TACO_RETURN_IF_ERROR(out->Commit());
  return out->final_path();
}

// The library boundary: nothing a dependency throws escapes (util/exception_guard.h).
Result<std::string> CreateTacocat(const std::vector<std::string>& inputs, const TacocatOptions& options) {
  return util::GuardExceptions("tacocat", [&] { return CreateTacocatUnguarded(inputs, options); });
}

}  // namespace taco
