// Dataset::Files(): one row per FILE sample below a view's level-0 rows (see taco/dataset.h),
// built as SQL joins of the stored levels, so that it costs one query whatever the format.
#include <set>
#include <string>
#include <vector>

#include "read/dataset_state.h"
#include "read/protected_columns.h"
#include "table/engine.h"
#include "taco/dataset.h"

namespace taco {

using table::QuoteIdentifier;
using table::QuoteString;

namespace {

std::string Ordinal(int level) { return "__taco_o" + std::to_string(level); }
std::string RowOf(int level) { return "__taco_row" + std::to_string(level); }
// The alias of level `level`'s row in the joins: a0, a1, ...
std::string Alias(int level) {
  std::string out = "a";
  out += std::to_string(level);
  return out;
}

bool IsReservedName(const std::string& name, int num_levels) {
  if (name == "path" || name == "level") return true;
  for (int k = 0; k < num_levels; ++k) {
    if (name == "level" + std::to_string(k)) return true;
  }
  return false;
}

bool IsInternal(const std::string& name) { return name.rfind(kInternalPrefix, 0) == 0; }

// struct_pack of the non-internal columns of `alias` (a row of `columns`).
std::string RowStruct(const std::vector<Column>& columns, const std::string& alias) {
  std::string fields;
  for (const Column& c : columns) {
    if (IsInternal(c.name) || c.name.rfind("__taco_", 0) == 0) continue;
    fields += (fields.empty() ? "" : ", ") + QuoteIdentifier(c.name) + " := " + alias + "." + QuoteIdentifier(c.name);
  }
  return fields.empty() ? "NULL" : "struct_pack(" + fields + ")";
}

// child.parent_id = parent.current_id, within one TACOCAT part / one concat part.
std::string JoinKeys(const Dataset::State& s, const std::string& child, const std::string& parent) {
  std::string on = child + "." + QuoteIdentifier(kParentId) + " = " + parent + "." + QuoteIdentifier(kCurrentId);
  if (s.layout->ids_local_to_source_file()) {
    on += " AND " + child + "." + QuoteIdentifier(kSourceFile) + " = " + parent + "." + QuoteIdentifier(kSourceFile);
  }
  if (s.concatenated) {
    on += " AND " + child + "." + QuoteIdentifier(kSourcePart) + " = " + parent + "." + QuoteIdentifier(kSourcePart);
  }
  return on;
}

std::vector<std::string> KeyColumns(const Dataset::State& s) {
  std::vector<std::string> keys = {std::string(kCurrentId)};
  if (s.layout->ids_local_to_source_file()) keys.emplace_back(kSourceFile);
  if (s.concatenated) keys.emplace_back(kSourcePart);
  return keys;
}

}  // namespace

Result<std::string> Dataset::FilesQuery() const {
  State& s = *state_;
  const int levels = s.num_levels;
  TACO_ASSIGN_OR_RETURN(std::vector<Column> view_columns, s.ColumnsOf(view_));
  const std::vector<std::string> keys = KeyColumns(s);
  bool has_keys = true;
  for (const std::string& k : keys) has_keys = has_keys && HasColumn(view_columns, k);
  for (const char* needed : {"id", "type"}) {
    if (!HasColumn(view_columns, needed)) {
      return s.Error(std::string("files: the view has no '") + needed + "' column (select * to keep it)");
    }
  }

  // Level 0: the view's rows in their order (numbered before the key lookup below, which is
  // a join: read/source_order.h), with the stored join keys when the view dropped them
  // (matched through internal:gdal_vsi, unique per sample).
  std::string sql = "WITH " + RowOf(0) + " AS (SELECT v.*";
  if (levels > 1 && !has_keys) {
    if (!HasColumn(view_columns, kGdalVsi)) {
      return s.Error("files: the view has neither internal:current_id nor internal:gdal_vsi (select from data_raw)");
    }
    for (const std::string& k : keys) {
      if (!HasColumn(view_columns, k))
        sql += ", (SELECT l." + QuoteIdentifier(k) + " FROM level0 l WHERE l." + QuoteIdentifier(kGdalVsi) + " = v." +
               QuoteIdentifier(kGdalVsi) + " LIMIT 1) AS " + QuoteIdentifier(k);
    }
  }
  sql += " FROM (SELECT row_number() OVER () AS " + Ordinal(0) + ", * FROM " + view_ + ") v)";
  std::vector<std::vector<Column>> level_columns(static_cast<size_t>(levels));
  level_columns[0] = view_columns;
  for (int k = 1; k < levels; ++k) {
    auto it = context_->filtered.find(k);
    const std::string base = it != context_->filtered.end() ? it->second : "level" + std::to_string(k);
    TACO_ASSIGN_OR_RETURN(level_columns[static_cast<size_t>(k)], s.ColumnsOf(base));
    sql += ", " + RowOf(k) + " AS (SELECT row_number() OVER () AS " + Ordinal(k) + ", * FROM " + base + ")";
  }

  // One SELECT per level: its FILE rows with their ancestors joined.
  std::vector<std::string> selects;
  for (int k = 0; k < levels; ++k) {
    std::string from = RowOf(0) + " a0";
    for (int j = 1; j <= k; ++j) {
      const std::string a = Alias(j);
      from += " JOIN " + RowOf(j) + " " + a + " ON " + JoinKeys(s, a, Alias(j - 1));
    }
    const std::string self = Alias(k);
    std::string list;
    for (int j = 0; j <= k; ++j) list += Alias(j) + "." + Ordinal(j) + " AS " + Ordinal(j) + ", ";
    std::string path;
    for (int j = 0; j <= k; ++j) path += (j ? " || '/' || " : "") + Alias(j) + ".id";
    list += path + " AS path, " + std::to_string(k) + " AS level";
    for (const Column& c : level_columns[static_cast<size_t>(k)]) {
      if (IsReservedName(c.name, levels) || c.name.rfind("__taco_", 0) == 0) continue;
      list += ", " + self + "." + QuoteIdentifier(c.name);
    }
    for (int j = 0; j < k; ++j) {
      list += ", " + RowStruct(level_columns[static_cast<size_t>(j)], Alias(j)) + " AS level" + std::to_string(j);
    }
    std::string where = self + ".type = 'FILE'";
    for (int j = 0; j < k; ++j) where += " AND " + Alias(j) + ".type = 'FOLDER'";
    selects.push_back("SELECT " + list + " FROM " + from + " WHERE " + where);
  }
  std::string body;
  for (const std::string& select : selects) body += (body.empty() ? "" : " UNION ALL BY NAME ") + select;
  std::string order, exclude;
  for (int k = 0; k < levels; ++k) {
    order += (order.empty() ? "" : ", ") + Ordinal(k) + " NULLS FIRST";
    exclude += (exclude.empty() ? "" : ", ") + Ordinal(k);
  }
  return sql + " SELECT * EXCLUDE (" + exclude + ") FROM (" + body + ") ORDER BY " + order;
}

Result<std::unique_ptr<Dataset>> Dataset::Files() const {
  TACO_ASSIGN_OR_RETURN(std::string query, FilesQuery());
  TACO_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> files, Derive(query, context_));
  std::set<int> all;
  for (int k = 0; k < state_->num_levels; ++k) all.insert(k);
  read::TrustRelation(*state_, files->view_, all);
  read::TrustRelation(*state_, files->data_view_, all);
  return files;
}

}  // namespace taco
