// Parquet files from strangers through the engine-free reader (src/table/parquet_reader.h):
// the Thrift footer, the schema tree, page headers, levels, dictionaries and ZSTD pages.
// Differential: whatever DecodeParquet returns, the engine (DuckDB) must read from the same
// bytes with the same names, types and values; a decoded table our writer can encode must
// decode back to itself.
#include <memory>

#include "fuzz_support.h"
#include "table/engine.h"
#include "table/parquet_reader.h"
#include "table/parquet_writer.h"
#include "taco/io.h"

namespace {

bool SameTables(const taco::Table& a, const taco::Table& b) {
  if (a.num_columns() != b.num_columns()) return false;
  for (size_t c = 0; c < a.num_columns(); ++c) {
    if (a.columns[c].name != b.columns[c].name || !(a.columns[c].type == b.columns[c].type) ||
        a.columns[c].values != b.columns[c].values) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace taco;
  static std::unique_ptr<table::Engine> engine = [] {
    auto opened = table::Engine::Open();
    FUZZ_CHECK(opened.ok());
    return std::move(opened).value();
  }();
  const std::string bytes(fuzz::AsView(data, size));
  std::optional<Table> decoded = table::DecodeParquet(bytes);
  if (!decoded) return 0;
  FUZZ_CHECK(decoded->num_rows() <= table::kMaxDecodedParquetRows);
  for (const auto& c : decoded->columns) {
    if (!(c.values == c.values)) return 0;  // NaN is not equal to itself
  }
  auto reference = engine->ReadParquet(MemoryReader(bytes, "fuzz.parquet"));
  FUZZ_CHECK(reference.ok());
  FUZZ_CHECK(SameTables(*decoded, *reference));
  if (!decoded->columns.empty() && table::CanEncodeParquet(*decoded)) {
    auto encoded = table::EncodeParquet(*decoded);
    FUZZ_CHECK(encoded.ok());
    std::optional<Table> again = table::DecodeParquet(*encoded);
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(SameTables(*again, *decoded));
  }
  return 0;
}
