// The memory budget (docs/reliability.md "Memory"): the most bytes of rows taco-cpp holds
// in memory for one query result it materializes (table::Engine::Query: a level read whole
// by `validate`, `convert`, `export`, `ls`/`sql` without a limit, navigation's `__meta__`).
// A result that would need more is refused with an error naming what was read and the
// budget, instead of running the process out of memory. Rows that are streamed (counts,
// aggregates, `LIMIT`, `--limit`, Arrow exports) are not held and do not count.
//
// Contract:
//  * MemoryBudget(): TACO_MEMORY_LIMIT when set to a size ("512M", "2G", "1073741824";
//    suffixes K, M, G, T = powers of 1024, optional "B"/"iB"), else the smaller of half of
//    physical memory or of the cgroup v2 `memory.max`, and a quarter of the address-space or
//    data-segment limit (RLIMIT_AS, RLIMIT_DATA: `ulimit -v`, `prlimit --as`; they also count
//    reserved, untouched memory). A held value is charged sizeof(Value) per slot its column
//    has reserved plus its heap bytes (strings, list and struct elements). The system
//    part is computed once per process; the variable is read at every call (cheap).
//    An unparsable TACO_MEMORY_LIMIT is ignored. Thread-safe.
//  * OverMemoryBudget(): the NotSupported Status of a refused result,
//    "<what>: the result needs more than the memory budget of <N> MiB (<rows> rows read
//    when it was reached; set TACO_MEMORY_LIMIT to change it, or ask for fewer rows)";
//    IsOverMemoryBudget() recognizes it, and DuckDB's own "Out of Memory Error" (which
//    table::Engine reports as NotSupported).
#ifndef TACO_UTIL_MEMORY_BUDGET_H_
#define TACO_UTIL_MEMORY_BUDGET_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "taco/status.h"

namespace taco::util {

uint64_t MemoryBudget();
// The size TACO_MEMORY_LIMIT's syntax gives `text`; nullopt when it is not one.
std::optional<uint64_t> ParseMemorySize(std::string_view text);

Status OverMemoryBudget(std::string_view what, uint64_t rows, uint64_t budget);
bool IsOverMemoryBudget(const Status& status);

}  // namespace taco::util

#endif  // TACO_UTIL_MEMORY_BUDGET_H_
