// A whole TACO ZIP from a stranger, read as a training job would: Dataset::Open (the
// TACO_HEADER, COLLECTION.json and the level Parquet members through DuckDB), the level
// descriptions and rows, SQL over `data`, the bbox and datetime filters, navigation into
// every FOLDER (each `__meta__` Parquet member), the bytes of FILE samples and the pooled
// band statistics. The ZIP is
// served from memory (OpenOptions::wrap_container) under a placeholder file name.
// Errors are fine; crashes, sanitizer reports and escaping exceptions are bugs. The memory
// budget (util/memory_budget.h) is 64 MiB here, so that a seed whose small level claims
// millions of rows (corpus/dataset_zip/huge_row_claim.tacozip) is refused quickly.
#include <cstdlib>

#include "fuzz_support.h"
#include "taco/dataset.h"
#include "taco/stats.h"

namespace {

using namespace taco;

constexpr int kMaxNodes = 16;  // keeps one input fast

void Walk(const Frame& frame, int* budget) {
  for (size_t i = 0; i < frame.num_rows() && *budget > 0; ++i, --*budget) {
    auto node = frame.Read(static_cast<int64_t>(i));
    if (!node.ok()) continue;
    if (node->children) {
      Walk(*node->children, budget);
    } else {
      (void)frame.ReadBytes(static_cast<int64_t>(i));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool budget_set = ::setenv("TACO_MEMORY_LIMIT", "64M", /*overwrite=*/0) == 0;
  (void)budget_set;
  static const std::string placeholder = fuzz::WriteScratchFile("fuzz.tacozip", "placeholder");
  auto bytes = MemoryReader(std::string(fuzz::AsView(data, size)), placeholder);
  OpenOptions options;
  options.use_cache = false;
  options.wrap_container = [&](RangeReaderPtr) { return bytes; };
  auto ds = Dataset::Open(placeholder, options);
  if (!ds.ok()) return 0;
  Dataset& d = **ds;
  for (int level = 0; level < d.num_levels(); ++level) (void)d.DescribeLevel(level);
  (void)d.collection();
  auto rows = d.Data();
  auto count = d.RowCount();
  if (rows.ok() && count.ok()) FUZZ_CHECK(static_cast<int64_t>(rows->num_rows()) == *count);
  (void)d.Sql("SELECT id, type FROM data WHERE id <> '' ORDER BY 1");
  (void)d.FilterBbox(-10, -10, 10, 10);
  (void)d.FilterDatetime("2020-01-01/2030-01-01");
  // Stored band statistics (a NaN in them once made this loop forever).
  StatsQuery stats;
  stats.bands = {0};
  (void)ComputeStats(d, StatsMeasure::kP50, stats);
  int budget = kMaxNodes;
  for (int64_t i = 0; count.ok() && i < *count && budget > 0; ++i, --budget) {
    auto node = d.Read(i);
    if (!node.ok()) continue;
    if (node->children) {
      Walk(*node->children, &budget);
    } else {
      (void)d.ReadBytes(*node);
    }
  }
  return 0;
}
