// A DuckDB query result turned into a self-contained Arrow C stream (include/taco/arrow_c.h).
//
// Contract:
//  * Every batch is converted while the caller still holds the engine (the caller's lock):
//    the returned stream owns the Arrow schema and arrays and refers to no DuckDB object,
//    so it may be consumed on any thread, after the engine moved on to other queries, and
//    after the engine was destroyed.
//  * The stream yields the batches in result order and then end-of-stream; get_schema may be
//    called any number of times (each call returns a deep copy the consumer owns).
//  * Only src/table includes DuckDB headers; this header is internal to src/table.
#ifndef TACO_TABLE_ARROW_STREAM_H_
#define TACO_TABLE_ARROW_STREAM_H_

#include <string>

#include "duckdb.hpp"
#include "taco/arrow_c.h"
#include "taco/status.h"

namespace taco::table {

// Rows per Arrow batch (DuckDB's own default for fetch_arrow_table).
inline constexpr uint64_t kArrowBatchRows = 1000000;

// Converts `result` (all of it) into `out`. On error `out` is left untouched (release null)
// and the Status message is DuckDB's, without a prefix (the caller names the query).
Status MaterializedResultToArrowStream(duckdb::unique_ptr<duckdb::MaterializedQueryResult> result,
                                       ArrowArrayStream* out);

}  // namespace taco::table

#endif  // TACO_TABLE_ARROW_STREAM_H_
