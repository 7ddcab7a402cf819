// Rewriting the user's table names in Dataset::Sql() queries (FORMAT §6.3, fixing §10.3).
//
// Contract: a small SQL tokenizer (string literals '...' with '' escapes, dollar-quoted
// strings $tag$...$tag$, quoted identifiers "..." with "" escapes, -- and /* */ comments,
// words, numbers, punctuation). An identifier is replaced when
//   * its name, compared case-insensitively (quoted or not: data, DATA, "data", "Data"),
//     is a key of `tables` (keys are lower-case), and
//   * it stands where a table name does: right after FROM or JOIN (any spacing, comments in
//     between), or after a comma inside a FROM list, and it is not part of a qualified name
//     (neither preceded nor followed by '.').
// The replacement is `<new name> AS <original text>` (so `data.id` and `"DATA".id` keep
// working), or just `<new name>` when the reference already has an alias (`FROM data d`,
// `FROM data AS d`). Text inside literals, comments and other identifiers (data_raw when
// only data is mapped, mydata, t.data) is never touched. Unterminated literals/comments are
// copied as they are (DuckDB reports them). Known limit: a CTE named like a mapped table
// (`WITH data AS (...)`) is still rewritten where it is referenced.
#ifndef TACO_READ_SQL_REWRITE_H_
#define TACO_READ_SQL_REWRITE_H_

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace taco::read {

std::string RewriteTableNames(std::string_view sql, const std::map<std::string, std::string>& tables);

// Every identifier of `sql` (words and quoted identifiers outside literals and comments),
// unquoted and lower-cased: a superset of the relations the query can read.
std::set<std::string> Identifiers(std::string_view sql);

}  // namespace taco::read

#endif  // TACO_READ_SQL_REWRITE_H_
