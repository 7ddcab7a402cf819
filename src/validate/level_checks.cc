// The consolidated level tables (FORMAT §3.1–§3.5, §7.3): required and internal columns,
// extension keys, sample ids and types, current/parent ids, relative paths, padding, PIT.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "model/metadata.h"
#include "taco/model.h"
#include "validate/checks.h"

namespace taco::validate {
namespace {

constexpr std::string_view kFile = "FILE";
constexpr std::string_view kFolder = "FOLDER";

struct LevelColumns {
  const Column* id = nullptr;
  const Column* type = nullptr;
  const Column* current = nullptr;
  const Column* parent = nullptr;
  const Column* relative_path = nullptr;
};

std::string LevelName(size_t d) { return "level" + std::to_string(d); }

const std::string* StringAt(const Column* c, size_t r) {
  if (c == nullptr || !c->values[r].is<std::string>()) return nullptr;
  return &c->values[r].get<std::string>();
}

// Reads the columns of every level and reports the column-level rules.
std::vector<LevelColumns> CheckColumns(const std::vector<Table>& levels, bool zip, Reporter& rep) {
  std::vector<LevelColumns> cols(levels.size());
  for (size_t d = 0; d < levels.size(); ++d) {
    const Table& t = levels[d];
    const std::string where = LevelName(d);
    cols[d].id = RequireColumn(t, where, "id", DataType::String(), rep);
    cols[d].type = RequireColumn(t, where, "type", DataType::String(), rep);
    cols[d].current = RequireColumn(t, where, model::kCurrentIdColumn, DataType::Int64(), rep);
    cols[d].parent = RequireColumn(t, where, model::kParentIdColumn, DataType::Int64(), rep);
    std::vector<std::string_view> allowed = {model::kCurrentIdColumn, model::kParentIdColumn};
    std::string expected = "internal:current_id, internal:parent_id";
    if (zip) {
      RequireColumn(t, where, "internal:offset", DataType::Int64(), rep);
      RequireColumn(t, where, "internal:size", DataType::Int64(), rep);
      allowed.insert(allowed.end(), {"internal:offset", "internal:size"});
      expected += ", internal:offset, internal:size";
    }
    if (d > 0) {
      cols[d].relative_path = RequireColumn(t, where, model::kRelativePathColumn, DataType::String(), rep);
      allowed.push_back(model::kRelativePathColumn);
      expected += ", internal:relative_path";
    }
    CheckInternalColumns(t, where, allowed, "only " + expected + " in a " + (zip ? "ZIP" : "FOLDER") + " " + where,
                         rep);
    for (const Column& c : t.columns) {
      if (IsCoreOrInternal(c.name)) continue;
      Status s = ValidateExtensionKey(c.name);
      if (!s.ok()) {
        rep.Add("extension-key", where + " column " + Quoted(c.name), s.message(),
                "a key matching ^[a-zA-Z0-9_]+(:\\w+)?$, not id, type or path");
      }
    }
  }
  return cols;
}

// ids, types, valid parents, children and implied paths. `implied[d][r]` is set when the
// path comes from the id chain (not from the stored relative_path).
void BuildTree(const std::vector<Table>& levels, const std::vector<LevelColumns>& cols, Tree* tree,
               std::vector<std::vector<char>>* implied) {
  const size_t L = levels.size();
  tree->id.resize(L);
  tree->type.resize(L);
  tree->parent.resize(L);
  tree->children.resize(L);
  tree->path.resize(L);
  implied->resize(L);
  for (size_t d = 0; d < L; ++d) {
    const size_t n = levels[d].num_rows();
    tree->id[d].resize(n);
    tree->type[d].resize(n);
    tree->parent[d].assign(n, -1);
    tree->children[d].resize(n);
    tree->path[d].resize(n);
    (*implied)[d].assign(n, 0);
    for (size_t r = 0; r < n; ++r) {
      if (const std::string* id = StringAt(cols[d].id, r)) tree->id[d][r] = *id;
      const std::string* type = StringAt(cols[d].type, r);
      if (type != nullptr && (*type == kFile || *type == kFolder)) tree->type[d][r] = *type;
    }
    if (d > 0 && cols[d].parent != nullptr) {
      const size_t parents = levels[d - 1].num_rows();
      for (size_t r = 0; r < n; ++r) {
        const Value& v = cols[d].parent->values[r];
        if (!v.is<int64_t>() || v.get<int64_t>() < 0 || static_cast<uint64_t>(v.get<int64_t>()) >= parents) continue;
        const auto p = static_cast<size_t>(v.get<int64_t>());
        if (tree->type[d - 1][p] != kFolder) continue;
        tree->parent[d][r] = static_cast<int64_t>(p);
        tree->children[d - 1][p].push_back(r);
      }
    }
    for (size_t r = 0; r < n; ++r) {
      const std::string& id = tree->id[d][r];
      const std::string slash = tree->type[d][r] == kFolder ? "/" : "";
      if (d == 0) {
        if (!id.empty()) {
          tree->path[d][r] = id + slash;
          (*implied)[d][r] = 1;
        }
        continue;
      }
      const int64_t p = tree->parent[d][r];
      if (p >= 0 && (*implied)[d - 1][static_cast<size_t>(p)] && !id.empty()) {
        tree->path[d][r] = tree->path[d - 1][static_cast<size_t>(p)] + id + slash;
        (*implied)[d][r] = 1;
      } else if (const std::string* stored = StringAt(cols[d].relative_path, r)) {
        tree->path[d][r] = *stored;
      }
    }
  }
}

void CheckRows(const std::vector<Table>& levels, const std::vector<LevelColumns>& cols, const Tree& tree,
               const std::vector<std::vector<char>>& implied, Reporter& rep) {
  const size_t L = levels.size();
  for (size_t d = 0; d < L; ++d) {
    const LevelColumns& c = cols[d];
    int64_t last_parent = -1;
    for (size_t r = 0; r < levels[d].num_rows(); ++r) {
      auto where = [&] { return tree.Where(d, r); };  // built only when reported
      if (c.type != nullptr && tree.type[d][r].empty()) {
        rep.Add("sample-type", where(), "type " + CellText(c.type->values[r]), "FILE or FOLDER");
      }
      if (c.id != nullptr) {
        const Value& id = c.id->values[r];
        if (id.is_null()) {
          rep.Add("sample-id", where(), "id null", "a sample id");
        } else if (!IsPaddingId(id.get<std::string>())) {
          Status s = ValidateSampleId(id.get<std::string>());
          if (!s.ok()) {
            rep.Add("sample-id", where(), s.message(),
                    "a non-empty UTF-8 id without '/', '\\', ':' or NUL, not '.', '..' or starting with '__'");
          }
        }
      }
      if (c.current != nullptr) {
        const Value& v = c.current->values[r];
        if (!(v.is<int64_t>() && v.get<int64_t>() == static_cast<int64_t>(r))) {
          rep.Add("current-id", where(), "internal:current_id " + CellText(v),
                  std::to_string(r) + " (the row's index in " + LevelName(d) + ")");
        }
      }
      if (c.parent != nullptr) {
        const Value& v = c.parent->values[r];
        auto found = [&] { return "internal:parent_id " + CellText(v); };
        if (d == 0) {
          if (!(v.is<int64_t>() && v.get<int64_t>() == static_cast<int64_t>(r))) {
            rep.Add("parent-id", where(), found(), std::to_string(r) + " (= internal:current_id at level 0)");
          }
        } else {
          const size_t parents = levels[d - 1].num_rows();
          if (!v.is<int64_t>() || v.get<int64_t>() < 0 || static_cast<uint64_t>(v.get<int64_t>()) >= parents) {
            rep.Add("parent-id", where(), found(),
                    "a row of " + LevelName(d - 1) + " (0.." + std::to_string(parents == 0 ? 0 : parents - 1) + ")");
          } else if (tree.parent[d][r] < 0) {
            const auto p = static_cast<size_t>(v.get<int64_t>());
            rep.Add("parent-id", where(),
                    found() + " (" + tree.Where(d - 1, p) + " is " +
                        (tree.type[d - 1][p].empty() ? std::string("not a FOLDER") : "a " + tree.type[d - 1][p]) + ")",
                    "a FOLDER row of " + LevelName(d - 1));
          } else if (tree.parent[d][r] < last_parent) {
            rep.Add("parent-id", where(), found() + " after rows of parent " + std::to_string(last_parent),
                    "rows grouped by parent, in parent order (FORMAT 3.3)");
          }
          last_parent = std::max(last_parent, tree.parent[d][r]);
        }
      }
      if (d > 0 && c.relative_path != nullptr && implied[d][r]) {
        const Value& v = c.relative_path->values[r];
        if (!(v.is<std::string>() && v.get<std::string>() == tree.path[d][r])) {
          rep.Add("relative-path", where(), "internal:relative_path " + CellText(v),
                  Quoted(tree.path[d][r]) + " (parent path + id" +
                      (tree.type[d][r] == kFolder ? std::string(" + '/')") : std::string(")")));
        }
      }
    }
  }
  // Every FOLDER needs children (when the next level's parent ids can be read at all).
  for (size_t d = 0; d < L; ++d) {
    if (d + 1 < L && cols[d + 1].parent == nullptr) continue;
    for (size_t r = 0; r < levels[d].num_rows(); ++r) {
      if (tree.type[d][r] != kFolder || !tree.children[d][r].empty()) continue;
      const std::string next = LevelName(d + 1);
      rep.Add("parent-id", tree.Where(d, r),
              d + 1 < L ? "a FOLDER with no children in " + next : "a FOLDER but there is no " + next,
              "at least one row of " + next + " with internal:parent_id " + std::to_string(r));
    }
  }
}

// Duplicate sibling ids and padding rules over one sibling group.
void CheckSiblings(const Table& table, size_t d, const std::vector<size_t>& group, const Tree& tree, Reporter& rep) {
  std::unordered_map<std::string_view, size_t> first;
  size_t pad_k = 0;
  bool after_padding = false;
  for (size_t r : group) {
    const std::string& id = tree.id[d][r];
    if (id.empty()) continue;
    auto where = [&] { return tree.Where(d, r); };  // built only when reported
    if (IsPaddingId(id)) {
      const std::string want = std::string(kPaddingPrefix) + std::to_string(pad_k++);
      if (id != want) rep.Add("padding", where(), "id " + Quoted(id), Quoted(want) + " (padding numbered from 0)");
      if (!tree.type[d][r].empty() && tree.type[d][r] != kFile) {
        rep.Add("padding", where(), "type " + tree.type[d][r], "FILE");
      }
      for (const Column& c : table.columns) {
        if (IsCoreOrInternal(c.name) || c.values[r].is_null()) continue;
        rep.Add("padding", where(), c.name + " = " + CellText(c.values[r]), "null (padding rows have no values)");
      }
      after_padding = true;
      continue;
    }
    if (after_padding) {
      rep.Add("padding", where(), "a sample after padding rows", "padding rows last among their siblings");
    }
    auto [it, inserted] = first.emplace(id, r);
    if (!inserted) {
      rep.Add("sample-id", where(), "id " + Quoted(id) + " again (also " + tree.Where(d, it->second) + ")",
              "ids unique among siblings");
    }
  }
}

void CheckPit(const std::vector<Table>& levels, const Tree& tree, Reporter& rep) {
  const size_t L = levels.size();
  if (L == 0) return;
  // One root type.
  size_t root_ref = SIZE_MAX;
  for (size_t r = 0; r < levels[0].num_rows(); ++r) {
    if (tree.type[0][r].empty()) continue;
    if (root_ref == SIZE_MAX) {
      root_ref = r;
    } else if (tree.type[0][r] != tree.type[0][root_ref]) {
      rep.Add("pit", tree.Where(0, r), "type " + tree.type[0][r],
              tree.type[0][root_ref] + " (as " + tree.Where(0, root_ref) + "; all root samples have one type)");
    }
  }
  // Position keys: the sibling indices from the root (level0 rows all share the empty key).
  std::vector<std::vector<std::string>> key(L);
  std::vector<std::vector<char>> key_ok(L);
  key[0].assign(levels[0].num_rows(), "");
  key_ok[0].assign(levels[0].num_rows(), 1);
  for (size_t d = 1; d < L; ++d) {
    key[d].assign(levels[d].num_rows(), "");
    key_ok[d].assign(levels[d].num_rows(), 0);
    for (size_t p = 0; p < levels[d - 1].num_rows(); ++p) {
      if (!key_ok[d - 1][p]) continue;
      const auto& kids = tree.children[d - 1][p];
      for (size_t i = 0; i < kids.size(); ++i) {
        key[d][kids[i]] = key[d - 1][p] + "/" + std::to_string(i);
        key_ok[d][kids[i]] = 1;
      }
    }
  }
  for (size_t d = 0; d + 1 < L; ++d) {
    std::map<std::string, std::vector<size_t>> folders;
    for (size_t r = 0; r < levels[d].num_rows(); ++r) {
      if (key_ok[d][r] && tree.type[d][r] == kFolder) folders[key[d][r]].push_back(r);
    }
    for (const auto& [k, rows] : folders) {
      const size_t ref = rows.front();
      const auto& ref_kids = tree.children[d][ref];
      // The id expected at each position: the first real (non-padding) id seen there.
      std::vector<size_t> id_row(ref_kids.size(), SIZE_MAX);
      for (size_t f : rows) {
        const auto& kids = tree.children[d][f];
        for (size_t i = 0; i < kids.size() && i < ref_kids.size(); ++i) {
          const std::string& id = tree.id[d + 1][kids[i]];
          if (id_row[i] == SIZE_MAX && !id.empty() && !IsPaddingId(id)) id_row[i] = kids[i];
        }
      }
      for (size_t f : rows) {
        const auto& kids = tree.children[d][f];
        if (kids.size() != ref_kids.size()) {
          rep.Add("pit", tree.Where(d, f), std::to_string(kids.size()) + " children",
                  std::to_string(ref_kids.size()) + " children (as " + tree.Display(d, ref) + ")");
        }
        for (size_t i = 0; i < kids.size() && i < ref_kids.size(); ++i) {
          const size_t c = kids[i];
          const std::string& type = tree.type[d + 1][c];
          const std::string& ref_type = tree.type[d + 1][ref_kids[i]];
          if (!type.empty() && !ref_type.empty() && type != ref_type) {
            rep.Add("pit", tree.Where(d + 1, c), "type " + type,
                    "type " + ref_type + " (as " + tree.Display(d + 1, ref_kids[i]) + ")");
          }
          const std::string& id = tree.id[d + 1][c];
          if (id.empty() || IsPaddingId(id) || id_row[i] == SIZE_MAX) continue;
          const std::string& want = tree.id[d + 1][id_row[i]];
          if (id != want) {
            rep.Add("pit", tree.Where(d + 1, c), "id " + Quoted(id),
                    "id " + Quoted(want) + " (as " + tree.Display(d + 1, id_row[i]) + ")");
          }
        }
      }
    }
  }
}

}  // namespace

std::string Tree::Display(size_t level, size_t row) const {
  std::string p = path[level][row];
  if (!p.empty() && p.back() == '/') p.pop_back();
  return p.empty() ? id[level][row] : p;
}

std::string Tree::Where(size_t level, size_t row) const {
  std::string out = "level" + std::to_string(level) + " row " + std::to_string(row);
  std::string display = Display(level, row);
  if (!display.empty()) out += " (" + display + ")";
  return out;
}

const Column* FindTyped(const Table& table, std::string_view name, TypeId type) {
  const int i = table.FindColumn(name);
  if (i < 0) return nullptr;
  const Column& c = table.columns[static_cast<size_t>(i)];
  return c.type.id == type ? &c : nullptr;
}

bool IsCoreOrInternal(std::string_view name) {
  return name == "id" || name == "type" || name.substr(0, 9) == "internal:";
}

const Column* RequireColumn(const Table& table, const std::string& where, std::string_view name, const DataType& type,
                            Reporter& rep) {
  const int i = table.FindColumn(name);
  if (i < 0) {
    rep.Add("required-column", where, "no column " + Quoted(name),
            "a column " + Quoted(name) + " (" + type.ToString() + ")");
    return nullptr;
  }
  const Column& c = table.columns[static_cast<size_t>(i)];
  if (!(c.type == type)) {
    rep.Add("required-column", where + " column " + Quoted(name), c.type.ToString(), type.ToString());
    return nullptr;
  }
  return &c;
}

void CheckInternalColumns(const Table& table, const std::string& where, const std::vector<std::string_view>& allowed,
                          const std::string& expected, Reporter& rep) {
  for (const Column& c : table.columns) {
    if (c.name.substr(0, 9) != "internal:") continue;
    bool ok = false;
    for (std::string_view a : allowed) ok = ok || a == c.name;
    if (!ok) rep.Add("internal-column", where, "column " + Quoted(c.name), expected);
  }
}

Tree CheckLevels(const std::vector<Table>& levels, bool zip, Reporter& rep) {
  Tree tree;
  std::vector<LevelColumns> cols = CheckColumns(levels, zip, rep);
  std::vector<std::vector<char>> implied;
  BuildTree(levels, cols, &tree, &implied);
  CheckRows(levels, cols, tree, implied, rep);
  for (size_t d = 0; d < levels.size(); ++d) {
    if (d == 0) {
      std::vector<size_t> all(levels[0].num_rows());
      for (size_t r = 0; r < all.size(); ++r) all[r] = r;
      CheckSiblings(levels[0], 0, all, tree, rep);
    } else {
      for (const auto& group : tree.children[d - 1]) CheckSiblings(levels[d], d, group, tree, rep);
    }
  }
  CheckPit(levels, tree, rep);
  return tree;
}

}  // namespace taco::validate
