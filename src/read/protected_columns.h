// Views returned by Dataset::Sql() keep the protected columns as the dataset computed them
// (issue 16 B): a query may select or drop `internal:*` columns, never change them or pair
// them with another sample's `id`/`type`. Navigation, export, concat and every consumer of
// a view's `internal:gdal_vsi` can then trust the view's values.
//
// Contract (ProtectedQuery, used by Dataset::Sql on the query after the table rewrite):
//  * Trusted relations: the stored level views `levelN`/`levelN_table`, `data`, `data_raw`,
//    and every view a Dataset returned (State::trusted, with the stored levels its rows
//    come from). Only their internal:* values are genuine.
//  * Protected columns: the query's output columns named `internal:*` (any case). None:
//    the query is used as it is.
//  * Provably unchanged (checked on DuckDB's own parse tree, json_serialize_sql): one
//    SELECT without CTEs, set operations, GROUP BY/HAVING, reading ONE trusted relation,
//    whose select list holds only `*` (no REPLACE/RENAME/COLUMNS of a protected column,
//    `id` or `type`), plain column references keeping their names for protected columns,
//    `id` and `type`, and other expressions with a name that is none of those. Filters,
//    ORDER BY, LIMIT, DISTINCT are fine. Such a query is used as it is (no cost).
//  * Anything else (joins, subqueries, REPLACE, computed values, ...) is wrapped: reading a
//    protected column of a row checks that the row's protected columns, with its `id` and
//    `type` when present, equal those of one stored row of a level the query reads (all
//    compared as text, NULL equal to NULL); a row that fails makes the query fail with
//    "<dataset>: refused: ..." naming the row's id. When no level the query reads has all
//    those columns, Sql() itself is refused. To keep a changed value, name it differently
//    (`... AS gdal_path`): only `internal:*` names are protected. The wrapped rows keep the
//    order the query gives them (read/source_order.h).
//  * `levels` receives the stored levels the result's rows may come from.
#ifndef TACO_READ_PROTECTED_COLUMNS_H_
#define TACO_READ_PROTECTED_COLUMNS_H_

#include <set>
#include <string>

#include "read/dataset_state.h"
#include "taco/status.h"

namespace taco::read {

// The SELECT that gives the rows of `query` (already rewritten) with protected columns that
// can be trusted. Creates helper views in the engine.
Result<std::string> ProtectedQuery(Dataset::State& s, const std::string& query, std::set<int>* levels);

// Registers `name` (case-insensitively) as a trusted relation whose rows come from `levels`.
void TrustRelation(Dataset::State& s, const std::string& name, std::set<int> levels);

}  // namespace taco::read

#endif  // TACO_READ_PROTECTED_COLUMNS_H_
