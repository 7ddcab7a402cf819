// `SELECT count(*) FROM data` without the SQL engine (issue 28): the row count of a dataset is
// known without DuckDB for ZIP and FOLDER datasets (Dataset::RowCount from the level-0 footer),
// while Dataset::Sql always returns a view that lives in the engine. `taco sql` answers exactly
// this one statement from the row count instead.
//
// Contract:
//  * IsCountOfData(query): true only for the statement `SELECT count(*) FROM data` — ASCII
//    letters in any case, any whitespace between the words and around `(`, `*` and `)`, and
//    trailing whitespace and `;` (as Dataset::Sql strips them); anything else (another
//    column, an alias, a clause, a comment, a quoted name) is false.
//  * CountOfData(ds): the table the engine returns for that statement on `ds`'s `data`: one
//    column `count_star()` of type int64 holding ds.RowCount(). Starts no engine where
//    RowCount() does not. Errors: those of RowCount().
//  * Thread safety: as the Dataset's.
#ifndef TACO_COUNT_QUERY_H_
#define TACO_COUNT_QUERY_H_

#include <string_view>

#include "taco/dataset.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco {

bool IsCountOfData(std::string_view query);
Result<Table> CountOfData(const Dataset& ds);

}  // namespace taco

#endif  // TACO_COUNT_QUERY_H_
