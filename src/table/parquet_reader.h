// A reader of small Parquet files without the SQL engine: the `__meta__` table of every
// FOLDER sample is read once per sample by navigation, convert, export and validate, so a
// per-file engine round trip would dominate on datasets of many small samples (issue 17).
//
// Contract:
//  * DecodeParquet decodes the common case: columns of a primitive leaf, possibly under
//    3-level LISTs (list<int64>, list<list<float>>, ...; parquet_levels.h); physical types
//    BOOLEAN, INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY; PLAIN or dictionary (PLAIN_DICTIONARY /
//    RLE_DICTIONARY) encoded data pages v1 and v2; UNCOMPRESSED or ZSTD pages; at most
//    kMaxDecodedParquetRows rows. The values and types it returns are exactly what
//    Engine::ReadParquet returns for the same file (engine.h's type mapping): string for
//    UTF8/STRING, binary for un-annotated BYTE_ARRAY, int32 for INT32 (signed 8/16/32-bit),
//    int64 for INT64 (signed), timestamp[us] for TIMESTAMP MILLIS/MICROS, float, double,
//    bool, list<…> for LIST.
//  * Anything else — another codec or encoding, another logical type, structs and maps,
//    legacy 2-level lists, and any malformed or inconsistent byte (a Thrift field of the
//    wrong type, a missing required field, levels or sizes that disagree) — gives nullopt:
//    the caller then reads the file with the engine, whose errors name the file. So this
//    reader never invents an error message, and aims never to return a table the engine
//    would refuse or read differently (tests/table/parquet_reader_test.cc compares both on
//    files of several writers and on every one-byte change of them; fuzz target
//    parquet_decode is differential; each difference it found is fixed and kept in
//    fuzz/regressions/parquet_decode). Known limit: the engine may check more of a damaged
//    file than this reader mirrors; on such bytes this reader returns the values the bytes
//    encode.
//  * Pure function on the bytes: bounded allocations (sizes are checked against the file
//    before anything is allocated), no shared state, callable from any thread.
#ifndef TACO_TABLE_PARQUET_READER_H_
#define TACO_TABLE_PARQUET_READER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "table/engine.h"
#include "taco/io.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco::table {

inline constexpr uint64_t kMaxDecodedParquetRows = 1u << 20;
inline constexpr uint64_t kMaxDecodedParquetBytes = 64u << 20;

std::optional<Table> DecodeParquet(std::string_view file);

// The columns of a Parquet file's FileMetaData bytes `meta` (names and the types DecodeParquet
// gives them, no values), read without the engine; nullopt when the schema is outside what
// DecodeParquet reads (the engine then answers). Only the schema is judged: the row groups
// and pages are not looked at.
std::optional<std::vector<Column>> ParquetSchemaColumns(std::string_view meta);

// DecodeParquet of `bytes`, else engine.ReadParquet(MemoryReader(bytes, name), max_rows).
// Both overloads first check the page CRC-32s the file stores (table/parquet_crc.h): a
// mismatch is a Corruption error naming the file.
// More than `max_rows` rows is the engine's Corruption error either way.
Result<Table> ReadSmallParquet(Engine& engine, std::string bytes, const std::string& name,
                               uint64_t max_rows = 1'000'000'000);
// The same with the engine asked for only when the bytes need it (a lazily started engine:
// read/lazy_engine.h).
Result<Table> ReadSmallParquet(const std::function<Engine&()>& engine, std::string bytes, const std::string& name,
                               uint64_t max_rows = 1'000'000'000);
// The same for the whole of `reader`: files up to kMaxDecodedParquetBytes are read in one
// ReadAt and decoded here; larger ones, and files this reader leaves, go to the engine.
Result<Table> ReadSmallParquet(Engine& engine, RangeReaderPtr reader, uint64_t max_rows = 1'000'000'000);
// The same with the engine asked for only when the bytes need it.
Result<Table> ReadSmallParquet(const std::function<Engine&()>& engine, RangeReaderPtr reader,
                               uint64_t max_rows = 1'000'000'000);

}  // namespace taco::table

#endif  // TACO_TABLE_PARQUET_READER_H_
