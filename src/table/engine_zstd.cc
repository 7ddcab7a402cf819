// Per-thread zstd contexts (engine_zstd.h).
#include "table/engine_zstd.h"

#include <memory>

namespace taco::table {
namespace {

struct FreeCCtx {
  void operator()(duckdb_zstd::ZSTD_CCtx_s* c) const { duckdb_zstd::ZSTD_freeCCtx(c); }
};
struct FreeDCtx {
  void operator()(duckdb_zstd::ZSTD_DCtx_s* d) const { duckdb_zstd::ZSTD_freeDCtx(d); }
};

}  // namespace

duckdb_zstd::ZSTD_CCtx_s* ThreadCompressionContext() {
  thread_local std::unique_ptr<duckdb_zstd::ZSTD_CCtx_s, FreeCCtx> context(duckdb_zstd::ZSTD_createCCtx());
  return context.get();
}

duckdb_zstd::ZSTD_DCtx_s* ThreadDecompressionContext() {
  thread_local std::unique_ptr<duckdb_zstd::ZSTD_DCtx_s, FreeDCtx> context(duckdb_zstd::ZSTD_createDCtx());
  return context.get();
}

}  // namespace taco::table
