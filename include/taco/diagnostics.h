// Process-wide counters for tests and benchmarks of what the library does lazily.
//
// Contract: thread-safe; the values only grow.
#ifndef TACO_DIAGNOSTICS_H_
#define TACO_DIAGNOSTICS_H_

#include <cstdint>

namespace taco {

// How many SQL engines (in-memory DuckDB databases) this process has started. Opening a ZIP
// or FOLDER dataset starts none; its engine starts with the first statement that needs it
// (SQL, filters, navigation, a level's rows), not for num_levels(), collection(), RowCount()
// of an unfiltered dataset or DescribeLevel().
uint64_t EnginesStarted();

}  // namespace taco

#endif  // TACO_DIAGNOSTICS_H_
