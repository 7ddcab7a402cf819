// SQL scalar functions that check values read from untrusted metadata before a path is built
// from them (issue 16 B), registered on an Engine's connection. The checks themselves are
// given by the caller (src/read/path_safety.cc), so that the rules live in one place.
//
// Contract:
//  * A string guard `name(value VARCHAR, flag BOOLEAN) → VARCHAR` returns `value` unchanged
//    when check(value, flag) returns "", and NULL for a NULL value; otherwise the query fails
//    with the message check() returned.
//  * A range guard `name(offset BIGINT, size BIGINT, limit BIGINT) → VARCHAR` returns
//    "<offset>_<size>" when check(offset, size, limit) returns "" (pass a negative limit when
//    it is unknown: a NULL argument makes the result NULL), NULL when offset or size is NULL;
//    otherwise the query fails with the message.
//  * A member guard `name(offset BIGINT, size BIGINT, archive_path VARCHAR, container VARCHAR,
//    id VARCHAR) → VARCHAR` returns the "<offset>_<size>" that check() put in `range` when it
//    returns "" (check may correct the stored range: read/member_resolver.h), NULL when offset
//    or size is NULL; otherwise the query fails with the message.
//  * A failure carries kRefusalMarker, so that the Engine reports it as the InvalidArgument
//    Status "<message>" alone (no SQL text before it). error('<kRefusalMarker>...') in SQL
//    gets the same treatment.
//  * Registration is per connection; call each once per Engine.
#ifndef TACO_TABLE_GUARD_FUNCTIONS_H_
#define TACO_TABLE_GUARD_FUNCTIONS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "table/engine.h"
#include "taco/status.h"

namespace taco::table {

using StringCheck = std::function<std::string(std::string_view value, bool flag)>;
using RangeCheck = std::function<std::string(int64_t offset, int64_t size, int64_t limit)>;
using MemberCheck = std::function<std::string(int64_t offset, int64_t size, std::string_view archive_path,
                                              std::string_view container, std::string_view id, std::string* range)>;

Status RegisterStringGuard(Engine& engine, const std::string& name, StringCheck check);
Status RegisterRangeGuard(Engine& engine, const std::string& name, RangeCheck check);
Status RegisterMemberGuard(Engine& engine, const std::string& name, MemberCheck check);

}  // namespace taco::table

#endif  // TACO_TABLE_GUARD_FUNCTIONS_H_
