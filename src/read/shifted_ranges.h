// Which stored byte ranges of a level >= 1 may belong to another row: tacotoolbox's positional
// attach (FORMAT §1.5 step 5), so that a remote dataset looks up by archive path only the
// levels and parts that need it (views.cc; concat.cc per ZIP source, local or remote;
// read/member_resolver.h does the lookup).
//
// The rule, from the writer: level 0 and every `__meta__` get their ranges by archive path;
// level d >= 1 gets them by position. Its rows, in the writer's order (internal:current_id =
// 0, 1, …: children grouped by parent, parents in the order of level d-1), take the ranges of
// the concatenated `__meta__` tables of the level-(d-1) FOLDERs in sorted archive-path order.
// Every FOLDER has at least one child, so each row gets its own range exactly when the
// parents, in that row order, come in strictly increasing archive-path order: the parent path
// (internal:relative_path without its last part, "a/b/" of "a/b/c" and of "a/b/c/") is the
// same within one internal:parent_id and increases from one parent to the next. Python sorts
// str by code point, which is the byte order of UTF-8; the paths end with '/', so "a.b/" comes
// before "a/" although "a" < "a.b". tests/remote/shifted_ranges_remote_test.cc checks the rule
// on the tacotoolbox-written ZIPs of scripts/upstream_fixtures.py (shifted/): it holds on the
// levels whose ranges are right and fails on every shifted one. A TACOCAT keeps each part's
// rows and ids as the part's ZIP stores them, so the rule is checked per part (navigation
// applies the same rule to one part's rows in memory: RangesInPathOrder, navigation.cc).
//
// Contract:
//  * ShiftedRanges(engine, table, part_column): the parts of `table` (a levelN_table with N >=
//    1) whose rows break the rule or cannot be checked (a missing column, a null
//    internal:current_id, internal:parent_id or internal:relative_path, a path without a
//    parent part), each with the stored ranges of its rows: the ranges the writer
//    handed out, one of which is each member's own (read/member_resolver.h uses them to find
//    a member's data without reading its local header). `part_column`: the column naming the
//    part ("internal:source_file" in a TACOCAT), empty for a ZIP (then the one part is "").
//    Empty when every part keeps the rule, or when the level has no internal:offset or
//    internal:size (no range to correct). Costs two queries over the level (the second only
//    when some part breaks the rule); errors are the engine's.
//  * A crafted file can keep the rule and still store wrong ranges: the rule says what the
//    writer's own bug can do, not that the metadata is right (local datasets look every range
//    up; reads through taco check the member's name, read/sample_bytes.h).
#ifndef TACO_READ_SHIFTED_RANGES_H_
#define TACO_READ_SHIFTED_RANGES_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "table/engine.h"
#include "taco/status.h"

namespace taco::read {

// Part ("" for a ZIP) → the stored (internal:offset, internal:size) of its rows (nulls left out).
using ShiftedParts = std::map<std::string, std::vector<std::pair<int64_t, int64_t>>>;

Result<ShiftedParts> ShiftedRanges(table::Engine& engine, const std::string& table, const std::string& part_column);

}  // namespace taco::read

#endif  // TACO_READ_SHIFTED_RANGES_H_
