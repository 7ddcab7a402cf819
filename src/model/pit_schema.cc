// PitSchema: taco:pit_schema from the level tables (FORMAT §4.1 algorithm).
#include <string>

#include "model/metadata.h"

namespace taco::model {
namespace {

using nlohmann::ordered_json;

const std::string& Str(const Column& c, size_t r) {
  static const std::string* const kEmpty = new std::string();
  const Value& v = c.values[r];
  return v.is<std::string>() ? v.get<std::string>() : *kEmpty;
}

// Among `groups` consecutive groups of `size` rows (rows given by `row_of(i)`), the first
// one with the most non-padding ids; its {"n", "type", "id"} pattern.
template <typename RowOf>
ordered_json BestGroup(const Table& table, size_t groups, size_t size, size_t n, RowOf row_of) {
  const Column& id = table.column("id");
  const Column& type = table.column("type");
  size_t best = 0;
  size_t best_count = 0;
  for (size_t g = 0; g < groups; ++g) {
    size_t count = 0;
    for (size_t i = 0; i < size; ++i) count += IsPaddingId(Str(id, row_of(g * size + i))) ? 0 : 1;
    if (g == 0 || count > best_count) {
      best = g;
      best_count = count;
    }
    if (count == size) break;
  }
  ordered_json types = ordered_json::array();
  ordered_json ids = ordered_json::array();
  for (size_t i = 0; i < size; ++i) {
    size_t r = row_of(best * size + i);
    types.push_back(Str(type, r));
    ids.push_back(Str(id, r));
  }
  ordered_json pattern = ordered_json::object();
  pattern["n"] = n;
  pattern["type"] = std::move(types);
  pattern["id"] = std::move(ids);
  return pattern;
}

bool HasColumns(const Table& t) { return t.FindColumn("id") >= 0 && t.FindColumn("type") >= 0; }

}  // namespace

ordered_json PitSchema(const std::vector<Table>& levels) {
  ordered_json out = ordered_json::object();
  ordered_json root = ordered_json::object();
  const bool have_root = !levels.empty() && HasColumns(levels[0]) && levels[0].num_rows() > 0;
  root["n"] = have_root ? levels[0].num_rows() : 0;
  root["type"] = have_root ? Str(levels[0].column("type"), 0) : std::string("FILE");
  out["root"] = std::move(root);
  ordered_json hierarchy = ordered_json::object();
  if (have_root && levels.size() > 1 && HasColumns(levels[1]) && levels[1].num_rows() > 0) {
    const size_t rows1 = levels[1].num_rows();
    const size_t k = rows1 / levels[0].num_rows();
    if (k > 0) {
      hierarchy["1"] = ordered_json::array({BestGroup(levels[1], rows1 / k, k, rows1, [](size_t i) { return i; })});
    }
  }
  for (size_t d = 2; d < levels.size(); ++d) {
    const std::string parent_key = std::to_string(d - 1);
    const Table& table = levels[d];
    if (!hierarchy.contains(parent_key) || table.num_rows() == 0 || !HasColumns(table) ||
        table.FindColumn(kParentIdColumn) < 0) {
      break;
    }
    const ordered_json& parent_pattern = hierarchy[parent_key][0];
    const size_t len = parent_pattern["type"].size();
    const size_t groups = levels[d - 1].num_rows() / len;
    if (groups == 0) break;
    // Rows of this level by the position (parent row mod len) of their parent.
    std::vector<std::vector<size_t>> by_position(len);
    const Column& parent_id = table.column(kParentIdColumn);
    for (size_t r = 0; r < table.num_rows(); ++r) {
      const Value& v = parent_id.values[r];
      if (!v.is<int64_t>() || v.get<int64_t>() < 0) continue;
      by_position[static_cast<size_t>(v.get<int64_t>()) % len].push_back(r);
    }
    ordered_json patterns = ordered_json::array();
    for (size_t p = 0; p < len; ++p) {
      if (parent_pattern["type"][p] != "FOLDER") continue;
      const std::vector<size_t>& children = by_position[p];
      const size_t size = children.size() / groups;
      if (size == 0) continue;
      patterns.push_back(BestGroup(table, groups, size, groups * size, [&children](size_t i) { return children[i]; }));
    }
    if (patterns.empty()) break;
    hierarchy[std::to_string(d)] = std::move(patterns);
  }
  out["hierarchy"] = std::move(hierarchy);
  return out;
}

}  // namespace taco::model
