#include "write/metadata_columns.h"

#include <unordered_map>

namespace taco::write {

std::string MemberPathOf(const std::string& archive_path) {
  if (!archive_path.empty() && archive_path.back() == '/') return archive_path + "__meta__";
  return archive_path;
}

Status AddOffsetColumns(Table& table, const std::vector<std::string>& row_paths, const MemberRanges& ranges) {
  if (row_paths.size() != table.num_rows()) {
    return Status::Internal("metadata table has " + std::to_string(table.num_rows()) + " rows but " +
                            std::to_string(row_paths.size()) + " archive paths");
  }
  Column offsets{"internal:offset", DataType::Int64(), {}};
  Column sizes{"internal:size", DataType::Int64(), {}};
  offsets.values.reserve(row_paths.size());
  sizes.values.reserve(row_paths.size());
  for (const std::string& path : row_paths) {
    auto it = ranges.find(MemberPathOf(path));
    if (it == ranges.end())
      return Status::Internal(MemberPathOf(path) + ": member was not written before its metadata");
    offsets.values.emplace_back(static_cast<int64_t>(it->second.offset));
    sizes.values.emplace_back(static_cast<int64_t>(it->second.size));
  }
  int at = table.FindColumn("internal:relative_path");
  auto pos = at < 0 ? table.columns.end() : table.columns.begin() + at;
  pos = table.columns.insert(pos, std::move(sizes));
  table.columns.insert(pos, std::move(offsets));
  return Status::OK();
}

Status UseLevelRowsAsMeta(model::LevelTables& tables) {
  // Folder archive path -> its children's row indices in the level below.
  std::unordered_map<std::string, std::pair<size_t, std::vector<size_t>>> children;
  for (size_t level = 1; level < tables.levels.size(); ++level) {
    const Table& table = tables.levels[level];
    const int parent = table.FindColumn(model::kParentIdColumn);
    if (parent < 0) return Status::Internal("level" + std::to_string(level) + " has no internal:parent_id");
    const std::vector<std::string>& parent_paths = tables.archive_paths[level - 1];
    for (size_t r = 0; r < table.num_rows(); ++r) {
      const auto p = static_cast<size_t>(table.columns[static_cast<size_t>(parent)].values[r].get<int64_t>());
      if (p >= parent_paths.size()) return Status::Internal("level" + std::to_string(level) + ": bad parent row");
      auto& entry = children[parent_paths[p]];
      entry.first = level;
      entry.second.push_back(r);
    }
  }
  for (auto& [folder, meta] : tables.folder_meta) {
    auto it = children.find(folder);
    if (it == children.end()) return Status::Internal(folder + ": a FOLDER without rows below it");
    const Table& level = tables.levels[it->second.first];
    Table rows;
    for (const Column& column : level.columns) {
      if (column.name == model::kRelativePathColumn) continue;
      Column c{column.name, column.type, {}};
      c.values.reserve(it->second.second.size());
      for (size_t r : it->second.second) c.values.push_back(column.values[r]);
      rows.columns.push_back(std::move(c));
    }
    meta = std::move(rows);
  }
  return Status::OK();
}

}  // namespace taco::write
