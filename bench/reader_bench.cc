// The reader on a 100,000-sample ZIP written by our writer (issue: reader benchmark):
//   * open + count(*) of level 0, against DuckDB counting the same level0.parquet extracted
//     to a plain file (both with a fresh engine per iteration);
//   * a bbox + datetime filter over the 100k rows;
//   * navigation to one FILE sample's GDAL path by id (median per call).
// TACO_BENCH_SAMPLES overrides the sample count.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "format/zip/taco_header.h"
#include "table/engine.h"
#include "taco/dataset.h"
#include "taco/io.h"
#include "taco/model.h"
#include "taco/writer.h"

namespace {

namespace fs = std::filesystem;

void Check(const taco::Status& st) {
  if (!st.ok()) {
    std::cerr << "reader_bench: " << st.ToString() << "\n";
    std::exit(1);
  }
}

std::string WkbPoint(double lon, double lat) {
  std::string wkb(21, '\0');
  wkb[0] = 1;
  wkb[1] = 1;
  std::memcpy(&wkb[5], &lon, 8);
  std::memcpy(&wkb[13], &lat, 8);
  return wkb;
}

// Built with += (GCC 12 warns falsely on "literal" + std::string).
std::string SampleId(int i) {
  std::string id = "s";
  id += std::to_string(i);
  return id;
}

struct Fixture {
  fs::path dir;
  std::string zip;
  std::string level0;  // extracted copy
  int samples = 0;

  Fixture() {
    const char* env = std::getenv("TACO_BENCH_SAMPLES");
    samples = env ? std::atoi(env) : 100000;
    dir = fs::temp_directory_path() / ("taco-reader-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    zip = (dir / "big.tacozip").string();
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> lon(-180, 180), lat(-60, 70);
    std::vector<taco::Sample> roots;
    roots.reserve(static_cast<size_t>(samples));
    const int64_t t0 = 1672531200000000;  // 2023-01-01
    for (int i = 0; i < samples; ++i) {
      std::string bytes = "sample-bytes-";
      bytes += std::to_string(i);
      auto s = taco::Sample::FromBytes(SampleId(i), bytes);
      Check(s.status());
      Check(s->Extend({taco::Field{"stac:centroid", taco::DataType::Binary(),
                                   taco::Value(taco::Binary{WkbPoint(lon(rng), lat(rng))}), ""},
                       taco::Field{"stac:time_start", taco::DataType::TimestampUs(),
                                   taco::Value(taco::TimestampUs{t0 + (i % 365) * 86400000000LL}), ""}}));
      roots.push_back(std::move(*s));
    }
    nlohmann::ordered_json collection = {{"id", "bench"},
                                         {"dataset_version", "1"},
                                         {"description", "bench"},
                                         {"licenses", {"CC0-1.0"}},
                                         {"providers", {{{"name", "bench"}}}},
                                         {"tasks", {"other"}}};
    auto root = taco::Tortilla::Make(std::move(roots));
    Check(root.status());
    auto taco = taco::Taco::Make(std::move(*root), collection);
    Check(taco.status());
    Check(taco::Create(*taco, zip).status());

    auto file = taco::OpenLocalFile(zip);
    Check(file.status());
    auto header = taco::zip::ReadTacoHeader(**file);
    Check(header.status());
    auto bytes = (*file)->Read(header->entries[0].offset, header->entries[0].length);
    Check(bytes.status());
    level0 = (dir / "level0.parquet").string();
    std::ofstream(level0, std::ios::binary).write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  }
  ~Fixture() { fs::remove_all(dir); }
};

Fixture& Data() {
  static Fixture f;
  return f;
}

void BM_PlainParquetCount(benchmark::State& state) {
  const std::string path = Data().level0;
  for (auto _ : state) {
    auto engine = taco::table::Engine::Open();
    Check(engine.status());
    auto t = (*engine)->Query("SELECT count(*) FROM read_parquet(" + taco::table::QuoteString(path) + ")");
    Check(t.status());
    benchmark::DoNotOptimize(t->num_rows());
  }
}

void BM_TacoOpenCount(benchmark::State& state) {
  const std::string path = Data().zip;
  for (auto _ : state) {
    auto ds = taco::Dataset::Open(path);
    Check(ds.status());
    auto n = (*ds)->RowCount();
    Check(n.status());
    if (*n != Data().samples) Check(taco::Status::Internal("wrong row count"));
  }
}

// Open alone (what BM_TacoOpenCount adds to the count).
void BM_TacoOpenOnly(benchmark::State& state) {
  for (auto _ : state) {
    auto ds = taco::Dataset::Open(Data().zip);
    Check(ds.status());
  }
}

void BM_BboxDatetimeFilter(benchmark::State& state) {
  auto ds = taco::Dataset::Open(Data().zip);
  Check(ds.status());
  int64_t rows = 0;
  for (auto _ : state) {
    auto a = (*ds)->FilterBbox(-10, 35, 30, 60);
    Check(a.status());
    auto b = (*a)->FilterDatetime("2023-03-01/2023-05-31");
    Check(b.status());
    auto n = (*b)->RowCount();
    Check(n.status());
    rows = *n;
  }
  state.counters["rows"] = static_cast<double>(rows);
}

void BM_NavigateToFile(benchmark::State& state) {
  auto ds = taco::Dataset::Open(Data().zip);
  Check(ds.status());
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> pick(0, Data().samples - 1);
  // Steady state: the first two reads (one query, then the in-memory rows) are not timed.
  for (int i = 0; i < 2; ++i) Check((*ds)->Read(taco::SampleKey(SampleId(pick(rng)))).status());
  for (auto _ : state) {
    auto node = (*ds)->Read(taco::SampleKey(SampleId(pick(rng))));
    Check(node.status());
    benchmark::DoNotOptimize(node->gdal_path.size());
  }
}

// What the steady state costs once: open, then the two reads that load the rows.
void BM_NavigateFirstTwoReads(benchmark::State& state) {
  for (auto _ : state) {
    auto ds = taco::Dataset::Open(Data().zip);
    Check(ds.status());
    for (int i = 0; i < 2; ++i) Check((*ds)->Read(taco::SampleKey(SampleId(i * 7))).status());
  }
}

BENCHMARK(BM_PlainParquetCount)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_TacoOpenCount)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_TacoOpenOnly)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_BboxDatetimeFilter)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_NavigateToFile)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_NavigateFirstTwoReads)->Unit(benchmark::kMillisecond)->MinTime(1.0);

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      if (r.benchmark_name().rfind("BM_PlainParquetCount", 0) == 0) plain_ = r.GetAdjustedRealTime();
      if (r.benchmark_name().rfind("BM_TacoOpenCount", 0) == 0) {
        ours_ = r.GetAdjustedRealTime();
        unit_ = benchmark::GetTimeUnitString(r.time_unit);
      }
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    if (plain_ > 0 && ours_ > 0) {
      std::printf("ratio taco open+count / plain-parquet count (%d samples): %.3f\n", Data().samples, ours_ / plain_);
      // Issue 28's table (bench/speed_table.py collects these lines).
      std::printf("speed-row: count|%.3f %s|DuckDB count(*) of the bare level0.parquet|%.3f %s|%.2f|<= 1.0|%d rows\n",
                  ours_, unit_.c_str(), plain_, unit_.c_str(), ours_ / plain_, Data().samples);
    }
  }

 private:
  double plain_ = 0, ours_ = 0;
  std::string unit_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  Data();  // build the dataset before timing anything
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
