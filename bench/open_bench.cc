// Opening a TACO ZIP and reading its level 0 through our stack (TACO_HEADER → sub-range →
// DuckDB FileSystem over RangeReader → read_parquet), against DuckDB reading the same level0
// bytes as a plain Parquet file. Both sides open a fresh engine per iteration, so the ratio
// isolates the cost of reading in place inside the ZIP.
//
// Reported: time per open+read for each side, their ratio (DESIGN §5 budget: ≤ 1.3×), and the
// bytes and requests our stack reads from the ZIP to do it.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "format/zip/taco_header.h"
#include "table/engine.h"
#include "taco/io.h"

namespace {

std::string FixtureZip() {
  if (const char* env = std::getenv("TACO_FIXTURES")) return std::string(env) + "/zip/flat/flat.tacozip";
  return TACO_UPSTREAM_FIXTURES "/zip/flat/flat.tacozip";  // `make fixtures` writes it
}

void Check(const taco::Status& st) {
  if (!st.ok()) {
    std::cerr << st.ToString() << "\n";
    std::exit(1);
  }
}

// Our stack: returns the number of rows read.
int64_t OpenZipAndReadLevel0(const std::string& zip, taco::CountingReader** counter_out) {
  auto file = taco::OpenLocalFile(zip);
  Check(file.status());
  auto counting = std::make_shared<taco::CountingReader>(*file);
  if (counter_out) *counter_out = counting.get();
  auto header = taco::zip::ReadTacoHeader(*counting);
  Check(header.status());
  const auto& e = header->entries.at(0);
  auto member = taco::SubRange(counting, e.offset, e.length);
  Check(member.status());
  auto engine = taco::table::Engine::Open();
  Check(engine.status());
  std::string path = (*engine)->Mount(*member, "level0.parquet");
  auto table = (*engine)->Query("SELECT * FROM read_parquet(" + taco::table::QuoteString(path) + ")");
  Check(table.status());
  if (counter_out) *counter_out = nullptr;
  return static_cast<int64_t>(table->num_rows());
}

int64_t PlainParquet(const std::string& parquet) {
  auto engine = taco::table::Engine::Open();
  Check(engine.status());
  auto table = (*engine)->Query("SELECT * FROM read_parquet(" + taco::table::QuoteString(parquet) + ")");
  Check(table.status());
  return static_cast<int64_t>(table->num_rows());
}

std::string ExtractLevel0() {
  auto file = taco::OpenLocalFile(FixtureZip());
  Check(file.status());
  auto header = taco::zip::ReadTacoHeader(**file);
  Check(header.status());
  auto bytes = (*file)->Read(header->entries[0].offset, header->entries[0].length);
  Check(bytes.status());
  std::string out = (std::filesystem::temp_directory_path() / "taco_bench_level0.parquet").string();
  std::ofstream(out, std::ios::binary).write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  return out;
}

void BM_PlainParquetLevel0(benchmark::State& state) {
  std::string parquet = ExtractLevel0();
  for (auto _ : state) benchmark::DoNotOptimize(PlainParquet(parquet));
  std::remove(parquet.c_str());
}

void BM_TacoZipOpenLevel0(benchmark::State& state) {
  std::string zip = FixtureZip();
  for (auto _ : state) benchmark::DoNotOptimize(OpenZipAndReadLevel0(zip, nullptr));
  // One instrumented run: what our stack reads from the ZIP.
  auto file = taco::OpenLocalFile(zip);
  Check(file.status());
  auto counting = std::make_shared<taco::CountingReader>(*file);
  auto header = taco::zip::ReadTacoHeader(*counting);
  Check(header.status());
  auto member = taco::SubRange(counting, header->entries[0].offset, header->entries[0].length);
  Check(member.status());
  auto engine = taco::table::Engine::Open();
  Check(engine.status());
  std::string path = (*engine)->Mount(*member, "level0.parquet");
  Check((*engine)->Query("SELECT * FROM read_parquet(" + taco::table::QuoteString(path) + ")").status());
  state.counters["zip_bytes_read"] = static_cast<double>(counting->bytes());
  state.counters["zip_reads"] = static_cast<double>(counting->requests());
  state.counters["zip_size"] = static_cast<double>((*file)->size());
}

BENCHMARK(BM_PlainParquetLevel0)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_TacoZipOpenLevel0)->Unit(benchmark::kMillisecond)->MinTime(1.0);

// Prints the ratio of the two means after the run.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      if (r.benchmark_name().find("Plain") != std::string::npos) plain_ = r.GetAdjustedRealTime();
      if (r.benchmark_name().find("TacoZip") != std::string::npos) ours_ = r.GetAdjustedRealTime();
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    if (plain_ > 0 && ours_ > 0) {
      std::printf("ratio taco-zip / plain-parquet (open + read level0): %.3f\n", ours_ / plain_);
    }
  }

 private:
  double plain_ = 0, ours_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
