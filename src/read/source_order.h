// Views the library builds keep their source's row order.
//
// DuckDB keeps the input order only through single-table FROM, WHERE, SELECT, LIMIT and
// UNION ALL; a join or a semi-join (EXISTS, IN (SELECT ...)) may give its rows in another
// order, and a different one from run to run (the hash table is built on either side, on
// several threads). Every view whose rows are chosen by such a condition (cascaded filters,
// concat levels >= 1, the protected-column check of Dataset::Sql) is built with
// KeepSourceOrder: each row of the source carries its position (row_number() OVER (), which
// DuckDB numbers in input order) and the result is sorted by it, then the column is dropped.
//
// Contract: KeepSourceOrder(source, alias, condition) is a SELECT with exactly the columns of
// `source` (a relation name or a parenthesised subquery), the rows for which `condition`
// holds (it may name the source's columns as `alias.column`), in the order `source` gives
// them. The source must not have a column named kSourceRow.
#ifndef TACO_READ_SOURCE_ORDER_H_
#define TACO_READ_SOURCE_ORDER_H_

#include <string>

namespace taco::read {

inline constexpr const char* kSourceRow = "__taco_source_row";

// `(SELECT *, row_number() OVER () AS __taco_source_row FROM source) alias`.
inline std::string NumberedSource(const std::string& source, const std::string& alias) {
  return "(SELECT *, row_number() OVER () AS " + std::string(kSourceRow) + " FROM " + source + ") " + alias;
}

inline std::string KeepSourceOrder(const std::string& source, const std::string& alias, const std::string& condition) {
  return "SELECT * EXCLUDE (" + std::string(kSourceRow) + ") FROM " + NumberedSource(source, alias) + " WHERE " +
         condition + " ORDER BY " + alias + "." + kSourceRow;
}

}  // namespace taco::read

#endif  // TACO_READ_SOURCE_ORDER_H_
