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
struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;
ZSTD_CCtx_s* ZSTD_createCCtx();
size_t ZSTD_freeCCtx(ZSTD_CCtx_s* cctx);
size_t ZSTD_compressCCtx(ZSTD_CCtx_s* cctx, void* dst, size_t dst_capacity, const void* src, size_t src_size,
                         int level);
ZSTD_DCtx_s* ZSTD_createDCtx();
size_t ZSTD_freeDCtx(ZSTD_DCtx_s* dctx);
size_t ZSTD_decompressDCtx(ZSTD_DCtx_s* dctx, void* dst, size_t dst_capacity, const void* src, size_t src_size);
size_t ZSTD_compress(void* dst, size_t dst_capacity, const void* src, size_t src_size, int level);
size_t ZSTD_decompress(void* dst, size_t dst_capacity, const void* src, size_t compressed_size);
size_t ZSTD_compressBound(size_t src_size);
unsigned ZSTD_isError(size_t code);
const char* ZSTD_getErrorName(size_t code);
}  // namespace duckdb_zstd

namespace taco::table {

// One compression / decompression context per thread, reused: creating a context per page
// costs more than compressing a page of a small table.
duckdb_zstd::ZSTD_CCtx_s* ThreadCompressionContext();
duckdb_zstd::ZSTD_DCtx_s* ThreadDecompressionContext();

}  // namespace taco::table

#endif  // TACO_TABLE_ENGINE_ZSTD_H_
