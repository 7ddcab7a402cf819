// A Table (taco/value.h) as an Arrow C stream (taco/arrow_c.h) without the SQL engine: what
// `.data` of a whole level hands to pyarrow when no SQL or filter is involved (issue 28).
//
// Contract:
//  * The stream has the layout Engine::QueryArrow gives for the same rows (engine.h's type
//    mapping, then DuckDB's Arrow types): one struct batch per kTableArrowBatchRows rows,
//    columns nullable, bool → "b", int32 → "i", int64 → "l", float → "f", double → "g",
//    string → "u", binary → "z", timestamp[us] → "tsu:", list → "+l" with a child named "l".
//  * Columns of another type (null, struct) or values that do not match their column's type
//    give NotSupported and leave `out` untouched: the caller asks the engine instead.
//  * The stream owns copies of everything; any thread may consume it, after `table` is gone.
#ifndef TACO_TABLE_TABLE_ARROW_H_
#define TACO_TABLE_TABLE_ARROW_H_

#include <cstdint>

#include "taco/arrow_c.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco::table {

// DuckDB's batch size for Arrow results (arrow_stream.h kArrowBatchRows).
inline constexpr uint64_t kTableArrowBatchRows = 1000000;

bool CanExportTableArrow(const Table& table);
Status TableToArrowStream(const Table& table, ArrowArrayStream* out);

}  // namespace taco::table

#endif  // TACO_TABLE_TABLE_ARROW_H_
