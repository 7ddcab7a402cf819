// TACOCAT (FORMAT §5.1, §5.2): the consolidated index (`.tacocat/` folder or `__TACOCAT__`
// file) is opened like any dataset; every source ZIP it names is validated as a ZIP (its
// violations prefixed with its file name), and the index's rows of each source must be
// that source's level rows, in order, with the same values (rule tacocat-part). The
// collection is checked for its fields, extension keys, pit schema totals, field schema
// (names and types, any order) and taco:sources.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <filesystem>

#include "model/metadata.h"
#include "read/path_safety.h"
#include "table/parquet_crc.h"
#include "taco/dataset.h"
#include "taco/io.h"
#include "taco/model.h"
#include "validate/checks.h"
#include "write/tacocat_internal.h"

namespace taco::validate {
namespace {

using nlohmann::ordered_json;

constexpr std::string_view kSourceFile = "internal:source_file";
const std::string kWhere(kCollectionMember);

// Rows of each source file in one index level, in order; first-seen order of the sources.
struct SourceRows {
  std::vector<std::string> order;
  std::map<std::string, std::vector<size_t>> rows;
};

SourceRows GroupBySource(const Table& level, const std::string& where, Reporter& rep) {
  SourceRows out;
  const Column* source = RequireColumn(level, where, kSourceFile, DataType::String(), rep);
  if (source == nullptr) return out;
  for (size_t r = 0; r < level.num_rows(); ++r) {
    const Value& v = source->values[r];
    if (!v.is<std::string>() || v.get<std::string>().empty()) {
      rep.Add("required-column", where + " row " + std::to_string(r), std::string(kSourceFile) + " " + CellText(v),
              "the file name of the row's source ZIP");
      continue;
    }
    const std::string& name = v.get<std::string>();
    auto [it, inserted] = out.rows.try_emplace(name);
    if (inserted) out.order.push_back(name);
    it->second.push_back(r);
  }
  return out;
}

// The index rows `rows` of level `d` against the source's own level table.
void ComparePart(const std::string& source, size_t d, const Table& index, const std::vector<size_t>& rows,
                 const Table& part, Reporter& rep) {
  const std::string level = "level" + std::to_string(d);
  const std::string where = level + " rows of " + source;
  if (rows.size() != part.num_rows()) {
    rep.Add("tacocat-part", where, std::to_string(rows.size()) + " rows",
            std::to_string(part.num_rows()) + " rows (" + source + " METADATA/" + level + ".parquet)");
  }
  const size_t common = std::min(rows.size(), part.num_rows());
  for (const Column& pc : part.columns) {
    const int ic = index.FindColumn(pc.name);
    if (ic < 0) {
      rep.Add("tacocat-part", level + " column " + Quoted(pc.name), "missing",
              "the column of " + source + " (" + pc.type.ToString() + ")");
      continue;
    }
    const Column& col = index.columns[static_cast<size_t>(ic)];
    for (size_t i = 0; i < common; ++i) {
      const Value& want = pc.values[i];
      const Value& got = col.values[rows[i]];
      if (SameValue(got, want)) continue;
      rep.Add("tacocat-part", level + " row " + std::to_string(rows[i]) + " column " + Quoted(pc.name), CellText(got),
              CellText(want) + " (" + source + " " + level + " row " + std::to_string(i) + ")");
    }
  }
  for (const Column& col : index.columns) {
    if (col.name == kSourceFile || part.FindColumn(col.name) >= 0) continue;
    for (size_t i = 0; i < common; ++i) {
      if (col.values[rows[i]].is_null()) continue;
      rep.Add("tacocat-part", level + " row " + std::to_string(rows[i]) + " column " + Quoted(col.name),
              CellText(col.values[rows[i]]), "null (" + source + " has no such column)");
      break;
    }
  }
}

// root.n == level-0 rows and the root type; a hierarchy key per deeper level.
void CheckTacocatPit(const ordered_json& c, const std::vector<Table>& levels, Reporter& rep) {
  const auto pit = c.find("taco:pit_schema");
  if (pit == c.end() || !pit->is_object()) {
    rep.Add("pit-schema", kWhere, pit == c.end() ? "no taco:pit_schema" : pit->dump(), "taco:pit_schema");
    return;
  }
  const ordered_json root = pit->value("root", ordered_json());
  if (!root.is_object() ||
      root.value("n", int64_t{-1}) != static_cast<int64_t>(levels.empty() ? 0 : levels[0].num_rows())) {
    rep.Add("pit-schema", "taco:pit_schema.root", root.dump(),
            "n = " + std::to_string(levels.empty() ? 0 : levels[0].num_rows()) + " (the index's level0 rows)");
  }
  const ordered_json hierarchy = pit->value("hierarchy", ordered_json::object());
  const size_t keys = hierarchy.is_object() ? hierarchy.size() : 0;
  if (keys + 1 != levels.size()) {
    rep.Add("pit-schema", "taco:pit_schema.hierarchy", std::to_string(keys) + " levels below the root",
            std::to_string(levels.empty() ? 0 : levels.size() - 1) + " (the index has " +
                std::to_string(levels.size()) + " levels)");
  }
}

// Every listed [name, type] is a column of its level, and every column but the
// container-specific internal ones is listed.
void CheckTacocatFields(const ordered_json& c, const std::vector<Table>& levels, Reporter& rep) {
  const auto fs = c.find("taco:field_schema");
  if (fs == c.end() || !fs->is_object()) {
    rep.Add("field-schema", kWhere, fs == c.end() ? "no taco:field_schema" : fs->dump(),
            "taco:field_schema (one list per level)");
    return;
  }
  const ordered_json want = model::FieldSchema(levels, {});
  for (size_t d = 0; d < levels.size(); ++d) {
    const std::string key = "level" + std::to_string(d);
    const std::string at = "taco:field_schema." + key;
    std::set<std::pair<std::string, std::string>> listed, present;
    if (fs->contains(key) && fs->at(key).is_array()) {
      for (const auto& e : fs->at(key)) {
        if (e.is_array() && e.size() >= 2 && e[0].is_string() && e[1].is_string()) {
          listed.emplace(e[0].get<std::string>(), e[1].get<std::string>());
        }
      }
    } else {
      rep.Add("field-schema", at, "missing", "a list of [name, type, description]");
      continue;
    }
    if (want.contains(key)) {
      for (const auto& e : want.at(key)) {
        if (e[0].get<std::string>() == kSourceFile) continue;
        present.emplace(e[0].get<std::string>(), e[1].get<std::string>());
      }
    }
    for (const auto& [name, type] : listed) {
      if (present.count({name, type}) == 0) {
        rep.Add("field-schema", at + " " + Quoted(name), type, "a column of the index's " + key + " with that type");
      }
    }
    for (const auto& [name, type] : present) {
      if (listed.count({name, type}) == 0)
        rep.Add("field-schema", at, "no entry for " + Quoted(name), name + ": " + type);
    }
  }
}

void CheckSources(const ordered_json& c, const std::vector<std::string>& sources, Reporter& rep) {
  const auto s = c.find("taco:sources");
  if (s == c.end()) return;  // the binary __TACOCAT__ of old toolboxes has none
  const std::string at = "taco:sources";
  if (!s->is_object()) {
    rep.Add("tacocat-sources", at, s->dump(), "{\"count\", \"ids\", \"files\", \"extents\"}");
    return;
  }
  const ordered_json count = s->value("count", ordered_json());
  if (count != ordered_json(sources.size())) {
    rep.Add("tacocat-sources", at + ".count", count.dump(),
            std::to_string(sources.size()) + " (the source files of the index)");
  }
  std::set<std::string> files;
  for (const auto& f : s->value("files", ordered_json::array())) {
    if (f.is_string()) files.insert(f.get<std::string>());
  }
  for (const std::string& src : sources) {
    if (files.count(src) == 0) rep.Add("tacocat-sources", at + ".files", "no " + Quoted(src), "every source file");
  }
}

// The index's own level Parquets (a `.tacocat/` folder's files or the ranges of a
// `__TACOCAT__` file): their page CRC-32s, and a footer and page headers that can be walked
// (rule parquet-crc; the index has no other checksum, and a reader may not notice a
// damaged footer field: issue 29.5).
void CheckIndexParquets(const std::string& path, Reporter& rep) {
  auto check = [&](std::string_view bytes, const std::string& where) {
    ReportParquetPages(table::VerifyParquetPageCrcs(bytes, where), where, where, rep);
  };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    const std::string dir = std::filesystem::is_directory(path + "/.tacocat", ec) ? path + "/.tacocat" : path;
    for (int d = 0; d < write::kTacocatMaxLevels; ++d) {
      const std::string name = "level" + std::to_string(d) + ".parquet";
      Result<RangeReaderPtr> reader = OpenRangeReader(dir + "/" + name);
      if (!reader.ok()) break;
      if ((*reader)->size() > table::kMaxVerifiedParquetBytes) continue;
      Result<std::string> bytes = (*reader)->ReadAll();
      if (bytes.ok()) check(*bytes, name);
    }
    return;
  }
  Result<RangeReaderPtr> reader = OpenRangeReader(path);
  if (!reader.ok() || (*reader)->size() < write::kTacocatHeaderSize) return;  // the open reported it
  std::string head(write::kTacocatHeaderSize, '\0');
  if (!(*reader)->ReadAt(0, head.size(), head.data()).ok()) return;
  Result<write::TacocatHeader> header = write::ParseTacocatHeader(head, (*reader)->size(), path);
  if (!header.ok()) return;
  for (size_t d = 0; d < header->levels.size(); ++d) {
    const write::ByteRange& range = header->levels[d];
    if (!range.present() || range.size > table::kMaxVerifiedParquetBytes) continue;
    std::string bytes(static_cast<size_t>(range.size), '\0');
    if ((*reader)->ReadAt(range.offset, bytes.size(), bytes.data()).ok()) {
      check(bytes, "__TACOCAT__ level" + std::to_string(d));
    }
  }
}

}  // namespace

Result<ValidationReport> ValidateTacocat(const std::string& path, const ValidateOptions& options) {
  TACO_ASSIGN_OR_RETURN(auto ds, Dataset::Open(path, options.open));
  Reporter rep(options.max_per_rule);
  CheckIndexParquets(path, rep);
  std::vector<Table> levels;
  for (int d = 0; d < ds->num_levels(); ++d) {
    TACO_ASSIGN_OR_RETURN(Table t, ds->QueryRaw("SELECT * FROM level" + std::to_string(d) + "_table"));
    levels.push_back(std::move(t));
  }
  ValidationReport report;
  std::vector<std::string> sources;
  std::vector<SourceRows> by_level;
  for (size_t d = 0; d < levels.size(); ++d) {
    by_level.push_back(GroupBySource(levels[d], "level" + std::to_string(d), rep));
    for (const std::string& s : by_level.back().order) {
      if (std::find(sources.begin(), sources.end(), s) == sources.end()) sources.push_back(s);
    }
  }
  for (const std::string& source : sources) {
    const std::string part_path = ds->vsi_root() + "/" + source;
    if (Status inside = read::CheckInsideRoot(path, ds->vsi_root(), part_path);
        inside.code() == StatusCode::kInvalidArgument) {
      rep.Add("outside-link", source, inside.message(),
              "a file inside the dataset directory (navigation refuses links out of it)");
      continue;
    }
    Result<ContainerOutcome> part = ValidateContainer(part_path, DatasetFormat::kZip, options);
    if (!part.ok()) {
      rep.Add("missing-member", source, part.status().message(), "the source ZIP the index refers to");
      continue;
    }
    for (const Violation& v : part->report.violations) rep.Add(v.rule, source + ": " + v.where, v.found, v.expected);
    for (const auto& [rule, count] : part->report.omitted) rep.AddOmitted(rule, count);
    for (const std::string& note : part->report.notes) report.notes.push_back(source + ": " + note);
    for (size_t d = 0; d < levels.size(); ++d) {
      const auto it = by_level[d].rows.find(source);
      const std::vector<size_t> none;
      const std::vector<size_t>& rows = it == by_level[d].rows.end() ? none : it->second;
      if (d >= part->levels.size()) {
        if (!rows.empty()) {
          rep.Add("tacocat-part", "level" + std::to_string(d) + " rows of " + source,
                  std::to_string(rows.size()) + " rows",
                  "none (" + source + " has " + std::to_string(part->levels.size()) + " levels)");
        }
        continue;
      }
      ComparePart(source, d, levels[d], rows, part->levels[d], rep);
    }
  }
  const ordered_json& c = ds->collection();
  CheckCollectionFields(c, levels, rep);
  CheckTacocatPit(c, levels, rep);
  CheckTacocatFields(c, levels, rep);
  CheckSources(c, sources, rep);

  report.path = path;
  report.format = "tacocat";
  rep.MoveInto(&report);
  return report;
}

}  // namespace taco::validate
