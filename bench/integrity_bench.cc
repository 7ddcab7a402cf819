// The cost of the CRC-32 check on read (issue 14): ReadBytes of every FILE sample of a ZIP
// written by our writer (TACO_BENCH_MB total, default 256, in samples of 1 MiB) with
// OpenOptions::verify_crc on and off, and StreamBytes with the check; reports bytes/s and
// the ratio checked / unchecked measured in the same run. The file is read once before
// timing so that both runs read from the page cache (the check, not the disk, is measured).
// Also (issue 29.5) the cost of the metadata checks on open: Dataset::Open + RowCount of a
// ZIP of 10,000 FILE samples (TACO_BENCH_OPEN_SAMPLES) with OpenOptions::verify_crc on
// (TACO_HEADER, level and COLLECTION.json member CRCs and names) and off (names only).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>

#include "taco/dataset.h"
#include "taco/model.h"
#include "taco/writer.h"

namespace {

namespace fs = std::filesystem;

std::string g_zip;
std::string g_many;  // many small samples: the open cost
double g_unchecked_bps = 0;
double g_open_unchecked = 0;

void Die(const taco::Status& st) {
  std::cerr << "integrity_bench: " << st.ToString() << "\n";
  std::exit(1);
}

void MakeZip() {
  const char* mb_env = std::getenv("TACO_BENCH_MB");
  const int mb = mb_env != nullptr ? std::atoi(mb_env) : 256;
  std::string leaf = "taco-integrity-bench-";
  leaf += std::to_string(::getpid());
  const std::string dir = (fs::temp_directory_path() / leaf).string();
  fs::create_directories(dir);
  std::mt19937_64 rng(14);
  std::vector<taco::Sample> samples;
  for (int i = 0; i < mb; ++i) {
    std::string bytes(1 << 20, '\0');
    for (size_t k = 0; k < bytes.size(); k += 8) {
      const uint64_t v = rng();
      std::memcpy(&bytes[k], &v, 8);
    }
    std::string id = "s";  // built with += (GCC 12 warns falsely on "literal" + std::string)
    id += std::to_string(i);
    auto s = taco::Sample::FromBytes(id, std::move(bytes));
    if (!s.ok()) Die(s.status());
    samples.push_back(std::move(*s));
  }
  auto tortilla = taco::Tortilla::Make(std::move(samples));
  if (!tortilla.ok()) Die(tortilla.status());
  nlohmann::ordered_json c = {{"id", "bench"},           {"dataset_version", "1"},         {"description", "crc bench"},
                              {"licenses", {"CC0-1.0"}}, {"providers", {{{"name", "x"}}}}, {"tasks", {"other"}}};
  auto taco = taco::Taco::Make(std::move(*tortilla), c);
  if (!taco.ok()) Die(taco.status());
  g_zip = dir + "/bench.tacozip";
  auto written = taco::Create(*taco, g_zip);
  if (!written.ok()) Die(written.status());
}

void MakeManySamples() {
  const char* n_env = std::getenv("TACO_BENCH_OPEN_SAMPLES");
  const int n = n_env != nullptr ? std::atoi(n_env) : 10000;
  std::vector<taco::Sample> samples;
  for (int i = 0; i < n; ++i) {
    std::string id = "tile_";
    id += std::to_string(i);
    auto s = taco::Sample::FromBytes(id, std::string(100, static_cast<char>('a' + i % 26)));
    if (!s.ok()) Die(s.status());
    samples.push_back(std::move(*s));
  }
  auto tortilla = taco::Tortilla::Make(std::move(samples));
  if (!tortilla.ok()) Die(tortilla.status());
  nlohmann::ordered_json c = {
      {"id", "bench"},           {"dataset_version", "1"},         {"description", "open bench"},
      {"licenses", {"CC0-1.0"}}, {"providers", {{{"name", "x"}}}}, {"tasks", {"other"}}};
  auto taco = taco::Taco::Make(std::move(*tortilla), c);
  if (!taco.ok()) Die(taco.status());
  g_many = fs::path(g_zip).parent_path().string() + "/many.tacozip";
  auto written = taco::Create(*taco, g_many);
  if (!written.ok()) Die(written.status());
}

void OpenCount(benchmark::State& state, bool verify) {
  taco::OpenOptions options;
  options.verify_crc = verify;
  for (auto _ : state) {
    auto ds = taco::Dataset::Open(g_many, options);
    if (!ds.ok()) Die(ds.status());
    auto count = (*ds)->RowCount();
    if (!count.ok()) Die(count.status());
    benchmark::DoNotOptimize(*count);
  }
}

void BM_OpenUnchecked(benchmark::State& state) { OpenCount(state, false); }
void BM_OpenChecked(benchmark::State& state) { OpenCount(state, true); }

void ReadAll(benchmark::State& state, bool verify, bool stream) {
  taco::OpenOptions options;
  options.verify_crc = verify;
  auto ds = taco::Dataset::Open(g_zip, options);
  if (!ds.ok()) Die(ds.status());
  auto count = (*ds)->RowCount();
  std::vector<taco::Node> nodes;
  for (int64_t i = 0; i < *count; ++i) nodes.push_back(*(*ds)->Read(i));
  uint64_t bytes = 0;
  for (auto _ : state) {
    for (const taco::Node& n : nodes) {
      if (stream) {
        taco::Status st = (*ds)->StreamBytes(n, [&](std::string_view p) {
          bytes += p.size();
          return taco::Status::OK();
        });
        if (!st.ok()) Die(st);
      } else {
        auto b = (*ds)->ReadBytes(n);
        if (!b.ok()) Die(b.status());
        bytes += b->size();
        benchmark::DoNotOptimize(b->data());
      }
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}

void BM_ReadBytesUnchecked(benchmark::State& state) { ReadAll(state, false, false); }
void BM_ReadBytesChecked(benchmark::State& state) { ReadAll(state, true, false); }
void BM_StreamBytesChecked(benchmark::State& state) { ReadAll(state, true, true); }

BENCHMARK(BM_ReadBytesUnchecked)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ReadBytesChecked)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_StreamBytesChecked)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_OpenUnchecked)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_OpenChecked)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// Prints checked / unchecked throughput after the run.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      const double t = r.GetAdjustedCPUTime();
      if (r.benchmark_name().rfind("BM_OpenUnchecked", 0) == 0) g_open_unchecked = t;
      if (r.benchmark_name().rfind("BM_OpenChecked", 0) == 0 && g_open_unchecked > 0) {
        std::cout << "  BM_OpenChecked: " << t << " ms CPU, " << t / g_open_unchecked
                  << "x the open without CRC checks\n";
      }
      const auto it = r.counters.find("bytes_per_second");
      if (it == r.counters.end()) continue;
      const double bps = it->second.value;
      if (r.benchmark_name().find("Unchecked") != std::string::npos)
        g_unchecked_bps = bps;
      else if (g_unchecked_bps > 0) {
        std::cout << "  " << r.benchmark_name() << ": " << bps / 1e9 << " GB/s, " << bps / g_unchecked_bps
                  << "x the unchecked read\n";
      }
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  MakeZip();
  MakeManySamples();
  benchmark::Initialize(&argc, argv);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  fs::remove_all(fs::path(g_zip).parent_path());
  return 0;
}
