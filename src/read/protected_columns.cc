// Implementation of protected_columns.h.
#include "read/protected_columns.h"

#include <cctype>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "read/source_order.h"
#include "read/sql_rewrite.h"
#include "table/engine.h"

namespace taco::read {
namespace {

using nlohmann::json;
using table::QuoteIdentifier;
using table::QuoteString;

constexpr const char* kGenuine = "__taco_genuine_row";

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsProtected(std::string_view name) { return Lower(name.substr(0, kInternalPrefix.size())) == kInternalPrefix; }
// Protected, or a core field whose pairing with protected values matters.
bool IsKeyColumn(std::string_view name) {
  const std::string lower = Lower(name);
  return IsProtected(name) || lower == "id" || lower == "type";
}

const json* Member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

bool EmptyArray(const json* j) { return j == nullptr || j->is_null() || (j->is_array() && j->empty()); }

std::string StringOf(const json* j) { return j != nullptr && j->is_string() ? j->get<std::string>() : ""; }

// One select-list entry keeps every protected column, id and type it outputs unchanged.
bool EntryPassesThrough(const json& e) {
  const std::string cls = StringOf(Member(e, "class"));
  const std::string alias = StringOf(Member(e, "alias"));
  if (cls == "STAR") {
    const json* columns = Member(e, "columns");
    if (columns != nullptr && columns->is_boolean() && columns->get<bool>()) return false;  // COLUMNS(...)
    const json* expr = Member(e, "expr");
    if (expr != nullptr && !expr->is_null()) return false;
    if (!EmptyArray(Member(e, "rename_list"))) return false;
    if (const json* replace = Member(e, "replace_list"); replace != nullptr && replace->is_array()) {
      for (const json& r : *replace) {
        if (IsKeyColumn(StringOf(Member(r, "key")))) return false;
      }
    }
    return true;
  }
  if (cls == "COLUMN_REF") {
    const json* names = Member(e, "column_names");
    if (names == nullptr || !names->is_array() || names->empty()) return false;
    const std::string column = StringOf(&names->back());
    const std::string out = alias.empty() ? column : alias;
    return !IsKeyColumn(out) || Lower(out) == Lower(column);
  }
  return !alias.empty() && !IsKeyColumn(alias);
}

// The trusted relation a provably pass-through query reads, or "" (see the header).
std::string PassThroughBase(Dataset::State& s, const std::string& query) {
  auto parsed = s.engine->Query("SELECT json_serialize_sql(" + QuoteString(query) + ")");
  if (!parsed.ok() || parsed->num_rows() != 1 || !parsed->columns[0].values[0].is<std::string>()) return "";
  const json ast = json::parse(parsed->columns[0].values[0].get<std::string>(), nullptr, /*allow_exceptions=*/false);
  if (ast.is_discarded()) return "";
  const json* error = Member(ast, "error");
  if (error == nullptr || !error->is_boolean() || error->get<bool>()) return "";
  const json* statements = Member(ast, "statements");
  if (statements == nullptr || !statements->is_array() || statements->size() != 1) return "";
  const json* node = Member((*statements)[0], "node");
  if (node == nullptr || StringOf(Member(*node, "type")) != "SELECT_NODE") return "";
  const json* ctes = Member(*node, "cte_map");
  if (ctes != nullptr && !EmptyArray(Member(*ctes, "map"))) return "";
  if (!EmptyArray(Member(*node, "group_expressions")) || !EmptyArray(Member(*node, "group_sets"))) return "";
  const json* having = Member(*node, "having");
  if (having != nullptr && !having->is_null()) return "";
  if (StringOf(Member(*node, "aggregate_handling")) != "STANDARD_HANDLING") return "";
  const json* from = Member(*node, "from_table");
  if (from == nullptr || StringOf(Member(*from, "type")) != "BASE_TABLE") return "";
  const std::string schema = Lower(StringOf(Member(*from, "schema_name")));
  const std::string catalog = Lower(StringOf(Member(*from, "catalog_name")));
  if (!(schema.empty() || schema == "main") || !(catalog.empty() || catalog == "temp" || catalog == "memory"))
    return "";
  const std::string table = Lower(StringOf(Member(*from, "table_name")));
  if (!s.trusted.Find(table)) return "";
  const json* list = Member(*node, "select_list");
  if (list == nullptr || !list->is_array()) return "";
  for (const json& e : *list) {
    if (!EntryPassesThrough(e)) return "";
  }
  return table;
}

}  // namespace

void TrustRelation(Dataset::State& s, const std::string& name, std::set<int> levels) {
  s.trusted.Add(Lower(name), std::move(levels));
}

Result<std::string> ProtectedQuery(Dataset::State& s, const std::string& query, std::set<int>* levels) {
  const std::string inner = s.NewName("query");
  Status st = s.engine->Execute("CREATE TEMP VIEW " + inner + " AS " + query);
  if (!st.ok()) return s.Prefixed(st);
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, s.ColumnsOf(inner));

  // The stored levels the rows can come from: those of every trusted relation named.
  levels->clear();
  for (const std::string& word : Identifiers(query)) {
    if (std::optional<std::set<int>> found = s.trusted.Find(word)) levels->insert(found->begin(), found->end());
  }
  const std::string select = "SELECT * FROM " + inner;
  std::vector<const Column*> guarded, keys;
  for (const Column& c : columns) {
    if (IsProtected(c.name)) guarded.push_back(&c);
    if (IsKeyColumn(c.name)) keys.push_back(&c);
  }
  if (guarded.empty()) return select;
  if (std::string base = PassThroughBase(s, query); !base.empty()) {
    *levels = s.trusted.Find(base).value_or(std::set<int>{});
    return select;
  }

  std::string names;
  for (const Column* k : keys) names += (names.empty() ? "" : ", ") + k->name;
  // Levels holding every key column (as they are named in the level views).
  std::vector<int> candidates;
  for (int level : *levels) {
    if (level < 0 || level >= s.num_levels) continue;
    TACO_ASSIGN_OR_RETURN(std::vector<Column> level_columns, s.ColumnsOf("level" + std::to_string(level)));
    bool all = true;
    for (const Column* k : keys) {
      bool found = false;
      for (const Column& lc : level_columns) found = found || Lower(lc.name) == Lower(k->name);
      all = all && found;
    }
    if (all) candidates.push_back(level);
  }
  if (candidates.empty()) {
    return s.Error("refused: the query returns the protected column(s) " + names +
                   " but no level of the dataset it reads has them all: internal:* columns keep the values the "
                   "dataset computed (select or drop them; give a changed value another name, e.g. AS gdal_path)");
  }
  std::string genuine;
  for (int level : candidates) {
    std::string list;
    for (size_t i = 0; i < keys.size(); ++i) {
      list += (i ? ", " : "") + std::string("CAST(") + QuoteIdentifier(keys[i]->name) + " AS VARCHAR) AS k" +
              std::to_string(i);
    }
    genuine +=
        (genuine.empty() ? "" : " UNION ") + std::string("SELECT ") + list + " FROM level" + std::to_string(level);
  }
  std::string match;
  for (size_t i = 0; i < keys.size(); ++i) {
    match += (i ? " AND " : "") + std::string("g.k") + std::to_string(i) + " IS NOT DISTINCT FROM CAST(q." +
             QuoteIdentifier(keys[i]->name) + " AS VARCHAR)";
  }
  std::string id_text = "'?'";
  for (const Column& c : columns) {
    if (Lower(c.name) == "id") id_text = "coalesce(CAST(" + QuoteIdentifier(c.name) + " AS VARCHAR), 'null')";
  }
  const std::string message =
      QuoteString(std::string(table::kRefusalMarker) + "refused: the query changed the protected column(s) " + names +
                  " of the row with id '") +
      " || " + id_text + " || " +
      QuoteString(
          "' (internal:* columns keep the values the dataset computed for one sample: select or drop them, "
          "never change them or pair them with another sample's id; give a changed value another name, "
          "e.g. AS gdal_path)");
  std::string replace;
  for (const Column* g : guarded) {
    replace += (replace.empty() ? "" : ", ") + std::string("CASE WHEN ") + kGenuine + " THEN " +
               QuoteIdentifier(g->name) + " ELSE error(" + message + ") END AS " + QuoteIdentifier(g->name);
  }
  *levels = std::set<int>(candidates.begin(), candidates.end());
  // The query's rows in the query's order (the EXISTS is a join: read/source_order.h).
  return "SELECT * EXCLUDE (" + std::string(kGenuine) + ", " + kSourceRow + ") REPLACE (" + replace +
         ") FROM (SELECT q.*, EXISTS (SELECT 1 FROM (" + genuine + ") g WHERE " + match + ") AS " + kGenuine +
         " FROM " + NumberedSource(inner, "q") + ") ORDER BY " + kSourceRow;
}

}  // namespace taco::read
