// create() throughput against copying the same files, measured in the same run (DESIGN §5):
//   * `cp -r SRC DST`            (reference: plain copy)
//   * `zip -0 -r -q OUT.zip SRC` (reference: a generic STORE zip)
//   * Create(taco, OUT.tacozip)  and Create(taco, OUT folder)
// on a generated tree of ~2 GB (TACO_BENCH_BYTES overrides) of 32 tiles × 8 files.
// Each measurement is the median of TACO_BENCH_REPS runs (default 3); outputs are removed
// between runs and every run reads a page-cached source, so all sides see the same cache.
// Budget: create ≥ 0.8× the throughput of cp -r, and faster than zip -0 -r.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <vector>

#include "taco/model.h"
#include "taco/writer.h"

namespace fs = std::filesystem;

namespace {

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 10) : fallback;
}

void Die(const std::string& what) {
  std::cerr << "create_bench: " << what << "\n";
  std::exit(1);
}

// Writes tiles × files_per_tile files of pseudo-random bytes; returns total bytes.
uint64_t MakeTree(const fs::path& root, int tiles, int files_per_tile, uint64_t file_size) {
  std::mt19937_64 rng(42);
  std::vector<uint64_t> block(1 << 17);  // 1 MiB
  uint64_t total = 0;
  for (int t = 0; t < tiles; ++t) {
    fs::path dir = root / ("tile_" + std::to_string(1000 + t));
    fs::create_directories(dir);
    for (int f = 0; f < files_per_tile; ++f) {
      std::ofstream out(dir / ("band_" + std::to_string(f) + ".bin"), std::ios::binary);
      for (uint64_t written = 0; written < file_size;) {
        for (auto& w : block) w = rng();
        uint64_t n = std::min<uint64_t>(file_size - written, block.size() * 8);
        out.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(n));
        written += n;
      }
      total += file_size;
    }
  }
  return total;
}

taco::Taco BuildTaco(const fs::path& root) {
  std::vector<fs::path> tiles;
  for (const auto& e : fs::directory_iterator(root)) tiles.push_back(e.path());
  std::sort(tiles.begin(), tiles.end());
  std::vector<taco::Sample> roots;
  for (const auto& tile : tiles) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(tile)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<taco::Sample> children;
    for (const auto& f : files) children.push_back(*taco::Sample::FromFile(f.filename().string(), f.string()));
    roots.push_back(*taco::Sample::FromTortilla(tile.filename().string(), *taco::Tortilla::Make(std::move(children))));
  }
  nlohmann::ordered_json collection = {{"id", "bench"},
                                       {"dataset_version", "1"},
                                       {"description", "benchmark"},
                                       {"licenses", {"CC0-1.0"}},
                                       {"providers", {{{"name", "bench"}}}},
                                       {"tasks", {"other"}}};
  auto taco = taco::Taco::Make(*taco::Tortilla::Make(std::move(roots)), collection);
  if (!taco.ok()) Die(taco.status().ToString());
  return *taco;
}

double MedianSeconds(int reps, const std::function<void()>& run, const std::function<void()>& cleanup) {
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    cleanup();
    ::sync();
    auto start = std::chrono::steady_clock::now();
    run();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  cleanup();
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void Shell(const std::string& cmd) {
  if (std::system(cmd.c_str()) != 0) Die("command failed: " + cmd);
}

}  // namespace

int main() {
  const uint64_t target = EnvOr("TACO_BENCH_BYTES", 2ull << 30);
  const int reps = static_cast<int>(EnvOr("TACO_BENCH_REPS", 3));
  const int tiles = 32, files_per_tile = 8;
  const uint64_t file_size = std::max<uint64_t>(1, target / (tiles * files_per_tile));

  fs::path work = fs::temp_directory_path() / ("taco-create-bench-" + std::to_string(::getpid()));
  fs::path src = work / "src";
  fs::create_directories(src);
  const uint64_t bytes = MakeTree(src, tiles, files_per_tile, file_size);
  Shell("cat $(find '" + src.string() + "' -type f) > /dev/null");  // warm the page cache
  taco::Taco taco = BuildTaco(src);

  const fs::path cp_out = work / "cp", zip_out = work / "plain.zip", taco_zip = work / "out.tacozip",
                 taco_dir = work / "out";
  auto rm = [&](const fs::path& p) { return [p] { fs::remove_all(p); }; };

  double t_cp = MedianSeconds(
      reps, [&] { Shell("cp -r '" + src.string() + "' '" + cp_out.string() + "'"); }, rm(cp_out));
  double t_zip = MedianSeconds(
      reps, [&] { Shell("cd '" + src.string() + "' && zip -0 -r -q '" + zip_out.string() + "' ."); }, rm(zip_out));
  double t_taco_zip = MedianSeconds(
      reps,
      [&] {
        if (auto r = taco::Create(taco, taco_zip.string()); !r.ok()) Die(r.status().ToString());
      },
      rm(taco_zip));
  double t_taco_dir = MedianSeconds(
      reps,
      [&] {
        if (auto r = taco::Create(taco, taco_dir.string()); !r.ok()) Die(r.status().ToString());
      },
      rm(taco_dir));
  fs::remove_all(work);

  auto mbps = [&](double s) { return static_cast<double>(bytes) / s / (1 << 20); };
  std::printf("create_bench: %d files, %.2f GiB, median of %d runs\n", tiles * files_per_tile,
              static_cast<double>(bytes) / (1 << 30), reps);
  std::printf("  cp -r             %7.3f s  %8.1f MiB/s\n", t_cp, mbps(t_cp));
  std::printf("  zip -0 -r         %7.3f s  %8.1f MiB/s\n", t_zip, mbps(t_zip));
  std::printf("  taco create ZIP   %7.3f s  %8.1f MiB/s\n", t_taco_zip, mbps(t_taco_zip));
  std::printf("  taco create FOLDER%7.3f s  %8.1f MiB/s\n", t_taco_dir, mbps(t_taco_dir));
  std::printf("ratio create-zip throughput / cp -r:     %.2f (budget >= 0.8)\n", t_cp / t_taco_zip);
  std::printf("ratio create-zip throughput / zip -0 -r: %.2f (budget > 1)\n", t_zip / t_taco_zip);
  std::printf("ratio create-folder throughput / cp -r:  %.2f\n", t_cp / t_taco_dir);
  return 0;
}
