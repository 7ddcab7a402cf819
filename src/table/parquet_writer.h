// A Parquet writer for small tables, without the SQL engine: the `__meta__` table of every
// FOLDER sample (one per sample, so a per-file engine round trip would dominate the
// writer's time on datasets of many small samples; issue 17).
//
// Contract:
//  * Columns: the primitive types, and lists of them nested up to parquet::kMaxListDepth
//    deep (list<int64>, list<list<float>>); every node OPTIONAL, lists as 3-level LISTs
//    (`<name>` LIST / repeated `list` / optional `element`). Data pages v1 (RLE/bit-packed
//    levels; values RLE_DICTIONARY after a PLAIN dictionary page when the column chunk's
//    distinct values are at most half its values and their PLAIN bytes at most 1 MiB, as
//    Parquet writers do for low-cardinality columns, else PLAIN; the dictionary's values in
//    ascending order when at most one value in 1,024 is one seen once, so that an edit within
//    the set of values renumbers nothing, else in order of first appearance): one per column and row
//    group, or with
//    opts.content_defined_chunking (the default) the pages page_chunker.h cuts at row
//    boundaries from the values' bytes; ZSTD-compressed at opts.zstd_level, row
//    groups of at most opts.row_group_size rows, opts.kv_metadata as file key/value metadata,
//    null counts and min/max statistics of the columns that are not lists (int32, int64,
//    timestamp; string and binary when no value is longer than 64 bytes).
//    Physical and logical types as the engine's writer (engine.h ToParquet): string →
//    BYTE_ARRAY + STRING/UTF8, binary → BYTE_ARRAY, bool → BOOLEAN, int32 → INT32, int64 →
//    INT64, float → FLOAT, double → DOUBLE, timestamp[us] → INT64 + TIMESTAMP(
//    isAdjustedToUTC=false, MICROS), null-typed columns → INT32 of nulls. A reader (DuckDB,
//    PyArrow) returns the values written.
//  * Deterministic: the same table and options give the same bytes (no time, no random).
//  * Pure function: no shared state, callable from any thread.
//  * NotSupported for struct columns (and a value whose alternative disagrees with its
//    column's type): TableToParquet then falls back to Engine::ToParquet.
#ifndef TACO_TABLE_PARQUET_WRITER_H_
#define TACO_TABLE_PARQUET_WRITER_H_

#include <string>

#include "table/engine.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco::table {

// True when EncodeParquet accepts every column type of `table`.
bool CanEncodeParquet(const Table& table);

Result<std::string> EncodeParquet(const Table& table, const ParquetWriteOptions& opts = {});

// EncodeParquet when it accepts the table, else engine.ToParquet (same options). The writers
// use it for every table of a dataset: the `__meta__` tables and the consolidated levels
// (no copy of the table into the engine: memory stays near the table's own size).
Result<std::string> TableToParquet(Engine& engine, const Table& table, const ParquetWriteOptions& opts = {});

}  // namespace taco::table

#endif  // TACO_TABLE_PARQUET_WRITER_H_
