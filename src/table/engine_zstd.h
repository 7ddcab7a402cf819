// The zstd library bundled in DuckDB (namespace duckdb_zstd, exported by libduckdb.so), for
// the engine-free Parquet writer and reader of src/table. Decompressing pages with the very
// decoder the engine uses keeps both readers in agreement on damaged pages too: zstd
// versions differ in which damaged frames they still decode (tests/table/
// parquet_reader_test.cc, DamagedFilesDecodeAsTheEngineOrNotAtAll). The declarations are
// zstd's public API (zstd.h) inside DuckDB's namespace; only src/table may use them.
#ifndef TACO_TABLE_ENGINE_ZSTD_H_
#define TACO_TABLE_ENGINE_ZSTD_H_

#include <cstddef>

namespace duckdb_zstd {
size_t ZSTD_compress(void* dst, size_t dst_capacity, const void* src, size_t src_size, int level);
size_t ZSTD_decompress(void* dst, size_t dst_capacity, const void* src, size_t compressed_size);
size_t ZSTD_compressBound(size_t src_size);
unsigned ZSTD_isError(size_t code);
const char* ZSTD_getErrorName(size_t code);
}  // namespace duckdb_zstd

#endif  // TACO_TABLE_ENGINE_ZSTD_H_
