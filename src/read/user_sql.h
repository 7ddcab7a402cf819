// What Dataset::Sql() makes of the user's SQL text before it becomes a view.
//
// Contract:
//  * Exactly one statement (a trailing ';' is fine): a second one is an InvalidArgument
//    naming it, never run or dropped silently.
//  * `DESCRIBE x`, `SHOW x` (= DESCRIBE) and `SUMMARIZE x` work on the names `sql` knows:
//    `data` and `data_raw` (this view) or a levelN, and on a query (`DESCRIBE SELECT ...`):
//    they become `SELECT * FROM (<statement>)`, so that the result is a view like any other.
//  * `SHOW TABLES` / `SHOW ALL TABLES` list the names a query can use (name, description):
//    data, data_raw, level0..level<N-1>, not the engine's internal views.
//  * Only statements that read (Engine::CheckReadOnly): COPY, ATTACH, INSTALL, CREATE, SET,
//    PRAGMA, ... are an InvalidArgument naming the statement, never run.
//  * Any other statement is passed on; `data`/`data_raw` are rewritten by
//    read::RewriteTableNames with `tables` (sql_rewrite.h).
//
// SandboxUserSql(): the sandbox of every engine that runs user SQL (Dataset::Open, Concat;
// issue 29, item 8): Engine::Sandbox with files outside the mounts refused unless
// `allow_external_sql` (OpenOptions::allow_external_sql), the refusal naming that opt-in.
#ifndef TACO_READ_USER_SQL_H_
#define TACO_READ_USER_SQL_H_

#include <map>
#include <string>

#include "table/engine.h"
#include "taco/status.h"

namespace taco::read {

// The SELECT to wrap in a view for `query` (already without trailing ';').
Result<std::string> PrepareUserSql(table::Engine& engine, const std::string& query,
                                   const std::map<std::string, std::string>& tables, int num_levels);

Status SandboxUserSql(table::Engine& engine, bool allow_external_sql);

// The first construct of `query` whose result changes from one run to the next (random(),
// uuid(), gen_random_uuid(), setseed(), now(), current_timestamp, TABLESAMPLE, USING SAMPLE,
// ...) as written in the query, or "" when there is none. Words inside string literals and
// quoted identifiers do not count. Dataset::Sql() evaluates such a query once (issue 24).
std::string NonDeterministicPart(const std::string& query);

}  // namespace taco::read

#endif  // TACO_READ_USER_SQL_H_
