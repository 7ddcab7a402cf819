#include "read/shifted_ranges.h"

#include <utility>

namespace taco::read {

using table::QuoteIdentifier;
using table::QuoteString;

namespace {

// The text of a part value ("" for NULL: such rows cannot be told apart, nor resolved).
std::string PartText(const Value& v) { return v.is<std::string>() ? v.get<std::string>() : std::string(); }

}  // namespace

Result<ShiftedParts> ShiftedRanges(table::Engine& engine, const std::string& table, const std::string& part_column) {
  TACO_ASSIGN_OR_RETURN(Table shape, engine.Query("SELECT * FROM " + table + " LIMIT 0"));
  const std::string part = part_column.empty() ? "''" : QuoteIdentifier(part_column);
  std::vector<std::string> parts;
  bool every_part = false;
  for (const char* needed : {"internal:current_id", "internal:parent_id", "internal:relative_path"}) {
    if (shape.FindColumn(needed) < 0) every_part = true;
  }
  if (!part_column.empty() && shape.FindColumn(part_column) < 0) return ShiftedParts{};  // no part to resolve in
  if (shape.FindColumn("internal:offset") < 0 || shape.FindColumn("internal:size") < 0) {
    return ShiftedParts{};  // no range to correct
  }
  if (every_part) {
    TACO_ASSIGN_OR_RETURN(Table all, engine.Query("SELECT DISTINCT " + part + " FROM " + table));
    for (const Value& v : all.columns[0].values) parts.push_back(PartText(v));
  } else {
    // Row by row in internal:current_id order within a part: the parent path of each row
    // against the previous row's (same parent: equal; next parent: greater, byte order).
    const std::string rows = "SELECT " + part +
                             " AS part, \"internal:parent_id\" AS pid, \"internal:current_id\" AS cid, "
                             "regexp_extract(rtrim(\"internal:relative_path\", '/'), '^(.*/)', 1) AS ppath FROM " +
                             table;
    const std::string window = "OVER (PARTITION BY part ORDER BY cid)";
    const std::string steps = "SELECT part, pid, cid, ppath, lag(pid) " + window + " AS prev_pid, lag(ppath) " +
                              window + " AS prev_ppath, row_number() " + window + " AS n FROM (" + rows + ")";
    TACO_ASSIGN_OR_RETURN(
        Table broken,
        engine.Query("SELECT DISTINCT part FROM (" + steps +
                     ") WHERE pid IS NULL OR cid IS NULL OR ppath IS NULL OR ppath = '' OR (n > 1 AND "
                     "(prev_pid IS NULL OR prev_ppath IS NULL OR CASE WHEN pid = prev_pid THEN ppath <> prev_ppath "
                     "ELSE NOT (prev_ppath < ppath) END))"));
    for (const Value& v : broken.columns[0].values) parts.push_back(PartText(v));
  }
  ShiftedParts out;
  if (parts.empty()) return out;
  std::string list;
  for (const std::string& p : parts) {
    out[p];
    list += (list.empty() ? "" : ", ") + QuoteString(p);
  }
  TACO_ASSIGN_OR_RETURN(Table ranges, engine.Query("SELECT " + part +
                                                   ", CAST(\"internal:offset\" AS BIGINT), CAST(\"internal:size\" "
                                                   "AS BIGINT) FROM " +
                                                   table + " WHERE " + part + " IN (" + list + ")"));
  const std::vector<Value>& keys = ranges.columns[0].values;
  const std::vector<Value>& offsets = ranges.columns[1].values;
  const std::vector<Value>& sizes = ranges.columns[2].values;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (offsets[i].is<int64_t>() && sizes[i].is<int64_t>()) {
      out[PartText(keys[i])].emplace_back(offsets[i].get<int64_t>(), sizes[i].get<int64_t>());
    }
  }
  return out;
}

}  // namespace taco::read
