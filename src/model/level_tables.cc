// BuildLevelTables: consolidated level tables, __meta__ tables and the FILE member list
// (FORMAT §3.1–3.4), in one pass per level.
#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>

#include "model/metadata.h"

namespace taco::model {
namespace {

struct Row {
  const Sample* sample;
  const Tortilla* owner;  // the tortilla the sample belongs to
  int64_t parent_row;     // row index in the previous level (level0: its own row)
};

Column MakeColumn(std::string_view name, DataType type, size_t rows) {
  Column c;
  c.name = std::string(name);
  c.type = std::move(type);
  c.values.reserve(rows);
  return c;
}

// Extension columns of a level: union in first-seen order, sorted by name when more than
// one row (upstream concatenates per-sample tables with schema alignment).
Schema LevelSchema(const std::vector<Row>& rows, bool keep_order) {
  Schema out;
  std::unordered_map<std::string_view, size_t> index;
  const Tortilla* last = nullptr;
  for (const Row& row : rows) {
    if (row.owner == last) continue;
    last = row.owner;
    for (const auto& [name, type] : row.owner->schema()) {
      auto [it, inserted] = index.emplace(name, out.size());
      if (inserted) {
        out.emplace_back(name, type);
      } else if (out[it->second].second.id == TypeId::kNull) {
        out[it->second].second = type;
      }
    }
  }
  if (!keep_order && rows.size() > 1) {
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  return out;
}

// The __meta__ table of one FOLDER: its children, id, type and extension columns.
Table MetaTable(const Tortilla& t) {
  const size_t n = t.size();
  Table table;
  table.columns.push_back(MakeColumn("id", DataType::String(), n));
  table.columns.push_back(MakeColumn("type", DataType::String(), n));
  std::vector<size_t> order(t.schema().size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (n > 1) {
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return t.schema()[a].first < t.schema()[b].first; });
  }
  for (size_t i : order) table.columns.push_back(MakeColumn(t.schema()[i].first, t.schema()[i].second, n));
  for (const Sample& s : t.samples()) {
    table.columns[0].values.emplace_back(s.id());
    table.columns[1].values.emplace_back(std::string(SampleTypeName(s.type())));
    for (size_t c = 0; c < order.size(); ++c) table.columns[2 + c].values.push_back(s.extensions()[order[c]].value);
  }
  return table;
}

void CollectFiles(const Tortilla& t, const std::string& prefix, LevelTables* out) {
  for (const Sample& s : t.samples()) {
    if (s.children() != nullptr) {
      CollectFiles(*s.children(), prefix + s.id() + "/", out);
    } else {
      out->files.emplace_back(prefix + s.id(), &s);
    }
  }
}

}  // namespace

Result<LevelTables> BuildLevelTables(const Taco& taco) {
  LevelTables out;
  std::vector<std::tuple<size_t, std::string, Table>> metas;  // (level, path, table)

  std::vector<Row> rows;
  rows.reserve(taco.root().size());
  for (size_t i = 0; i < taco.root().size(); ++i) {
    rows.push_back({&taco.root().samples()[i], &taco.root(), static_cast<int64_t>(i)});
  }
  for (size_t level = 0; !rows.empty(); ++level) {
    if (level >= static_cast<size_t>(kMaxLevels)) {
      return Status::Internal("metadata: the tree has more than " + std::to_string(kMaxLevels) + " levels");
    }
    const size_t n = rows.size();
    const Schema schema = LevelSchema(rows, level == 0);
    std::unordered_map<std::string_view, size_t> column_of;
    for (size_t c = 0; c < schema.size(); ++c) column_of.emplace(schema[c].first, c);

    Table table;
    table.columns.push_back(MakeColumn("id", DataType::String(), n));
    table.columns.push_back(MakeColumn("type", DataType::String(), n));
    for (const auto& [name, type] : schema) {
      Column c = MakeColumn(name, type, n);
      c.values.resize(n);  // nulls; filled below
      table.columns.push_back(std::move(c));
    }
    Column current = MakeColumn(kCurrentIdColumn, DataType::Int64(), n);
    Column parent = MakeColumn(kParentIdColumn, DataType::Int64(), n);
    Column relative = MakeColumn(kRelativePathColumn, DataType::String(), level == 0 ? 0 : n);

    const std::vector<std::string>* parent_paths = level == 0 ? nullptr : &out.archive_paths[level - 1];
    std::vector<std::string> paths;
    paths.reserve(n);
    std::vector<Row> next;
    const Tortilla* last_owner = nullptr;
    std::vector<size_t> target;  // owner schema position -> table column
    for (size_t r = 0; r < n; ++r) {
      const Row& row = rows[r];
      const Sample& s = *row.sample;
      if (row.owner != last_owner) {
        last_owner = row.owner;
        target.clear();
        for (const auto& [name, type] : row.owner->schema()) {
          auto it = column_of.find(name);
          if (it == column_of.end()) return Status::Internal("metadata: column '" + name + "' missing from its level");
          target.push_back(2 + it->second);
        }
      }
      table.columns[0].values.emplace_back(s.id());
      table.columns[1].values.emplace_back(std::string(SampleTypeName(s.type())));
      const std::vector<Field>& fields = s.extensions();
      for (size_t f = 0; f < fields.size(); ++f) {
        table.columns[target[f]].values[r] = fields[f].value;
        if (!fields[f].description.empty()) out.descriptions.try_emplace(fields[f].name, fields[f].description);
      }
      current.values.emplace_back(static_cast<int64_t>(r));
      parent.values.emplace_back(row.parent_row);

      const bool folder = s.type() == SampleType::kFolder;
      std::string path = level == 0 ? "DATA/" : (*parent_paths)[static_cast<size_t>(row.parent_row)];
      path += s.id();
      if (folder) path += '/';
      if (level > 0) relative.values.emplace_back(path.substr(5));
      if (folder) {
        metas.emplace_back(level, path, MetaTable(*s.children()));
        for (const Sample& child : s.children()->samples()) {
          next.push_back({&child, s.children(), static_cast<int64_t>(r)});
        }
      }
      paths.push_back(std::move(path));
    }
    table.columns.push_back(std::move(current));
    table.columns.push_back(std::move(parent));
    if (level > 0) table.columns.push_back(std::move(relative));
    out.levels.push_back(std::move(table));
    out.archive_paths.push_back(std::move(paths));
    rows = std::move(next);
  }

  std::sort(metas.begin(), metas.end(), [](const auto& a, const auto& b) {
    if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) > std::get<0>(b);
    return std::get<1>(a) < std::get<1>(b);
  });
  out.folder_meta.reserve(metas.size());
  for (auto& [level, path, table] : metas) out.folder_meta.emplace_back(std::move(path), std::move(table));
  CollectFiles(taco.root(), "DATA/", &out);
  return out;
}

}  // namespace taco::model
