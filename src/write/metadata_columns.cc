#include "write/metadata_columns.h"

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

}  // namespace taco::write
