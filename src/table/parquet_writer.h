// A Parquet writer for small flat tables, without the SQL engine: the `__meta__` table of
// every FOLDER sample (one per sample, so a per-file engine round trip would dominate the
// writer's time on datasets of many small samples; issue 17).
//
// Contract:
//  * Writes every column of `table` OPTIONAL, one data page (v1, PLAIN values, RLE/bit-packed
//    definition levels) per column and row group, ZSTD-compressed at opts.zstd_level, row
//    groups of at most opts.row_group_size rows, opts.kv_metadata as file key/value metadata,
//    min/max statistics for int32/int64/float/double/timestamp columns. Physical and logical
//    types as the engine's writer (engine.h ToParquet): string → BYTE_ARRAY + STRING/UTF8,
//    binary → BYTE_ARRAY, bool → BOOLEAN, int32 → INT32, int64 → INT64, float → FLOAT,
//    double → DOUBLE, timestamp[us] → INT64 + TIMESTAMP(isAdjustedToUTC=false, MICROS),
//    null-typed columns → INT32 of nulls. A reader (DuckDB, PyArrow) returns the same values.
//  * Deterministic: the same table and options give the same bytes (no time, no random).
//  * Pure function: no shared state, callable from any thread.
//  * NotSupported for list/struct columns (and for a value whose alternative disagrees with
//    its column's type): the caller falls back to Engine::ToParquet.
#ifndef TACO_TABLE_PARQUET_WRITER_H_
#define TACO_TABLE_PARQUET_WRITER_H_

#include <string>

#include "table/engine.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco::table {

// True when WriteFlatParquet accepts every column type of `table`.
bool IsFlatTable(const Table& table);

Result<std::string> WriteFlatParquet(const Table& table, const ParquetWriteOptions& opts = {});

// WriteFlatParquet when the table is flat, else engine.ToParquet (same options).
Result<std::string> SmallTableToParquet(Engine& engine, const Table& table, const ParquetWriteOptions& opts = {});

}  // namespace taco::table

#endif  // TACO_TABLE_PARQUET_WRITER_H_
