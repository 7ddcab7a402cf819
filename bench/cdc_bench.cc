// Content-defined chunking of the consolidated levels (issue 28): how much of a level file
// written after a metadata edit a deduplicating store finds again in the file before it.
//
// A level0-like table of TACO_BENCH_CDC_ROWS rows (default 100,000: id, type, label, a WKB
// centroid, a timestamp, a cloud cover, internal:offset/size/current_id/parent_id) and four
// edits of it: the label of 1% of the rows (chosen at random) changed, the label of row 0
// changed (where its old value first appears), 1% rows appended, one column added. Each table pair is written by our
// writer (table/parquet_writer.h, with the options the writers use for consolidated levels: zstd 13, row groups of
// 65,536 rows, CDC) and by pyarrow (the peers venv's, 26.0.1) from the same tables (read back from our files), with
// use_content_defined_chunking=True and the options upstream tacotoolbox uses for levels
// (zstd 13, row_group_size 65,536; FORMAT §3.1). Each file is cut into FastCDC chunks as
// Xet does (gear hash, 64 KiB target, 8 KiB min, 128 KiB max); the figure is the share of
// the new file's bytes that lie in chunks also found in the old file. Ours should be ≥
// pyarrow+CDC on every edit; file sizes, the new bytes (what an upload sends) and the share
// and new bytes averaged over 64 chunker gear tables are printed too: where FastCDC cuts is
// luck of the bytes, and a region lost around an edit has a heavy tail (a chunker that loses
// its synchronisation at 128 KiB forced cuts can lose several hundred KB), so 16 tables
// left the mean a few percent from its expectation.
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "table/parquet_writer.h"

namespace {

namespace fs = std::filesystem;
using taco::Binary;
using taco::Column;
using taco::DataType;
using taco::Table;
using taco::TimestampUs;
using taco::Value;

[[noreturn]] void Die(const std::string& what) {
  std::cerr << "cdc_bench: " << what << "\n";
  std::exit(1);
}

// ---- FastCDC as Xet chunks files: gear hash, mask of 16 bits, min 8 KiB, max 128 KiB.
constexpr size_t kTarget = 64u << 10, kMin = kTarget / 8, kMax = kTarget * 2;

using Gear = std::array<uint64_t, 256>;

// Table 0 is the one of the main figures; the others only move where the chunk boundaries
// fall (for the mean over tables, which takes the luck of the layout out).
Gear GearTable(uint64_t k) {
  Gear t{};
  std::mt19937_64 rng(0x5865744344430ull + k);  // any fixed table; not the writer's
  for (uint64_t& w : t) w = rng();
  return t;
}

std::vector<std::string> FastCdc(const std::string& data, const Gear& gear) {
  constexpr uint64_t kMask = 0xffff000000000000ull;
  std::vector<std::string> chunks;
  size_t start = 0;
  while (start < data.size()) {
    const size_t left = data.size() - start;
    size_t len = left;
    if (left > kMin) {
      uint64_t h = 0;
      len = std::min(left, kMax);
      for (size_t i = kMin; i < std::min(left, kMax); ++i) {
        h = (h << 1) + gear[static_cast<uint8_t>(data[start + i])];
        if ((h & kMask) == 0) {
          len = i + 1;
          break;
        }
      }
    }
    chunks.push_back(data.substr(start, len));
    start += len;
  }
  return chunks;
}

// The bytes of `after` in chunks that `before` also has.
size_t ReusedBytes(const std::string& before, const std::string& after, const Gear& gear) {
  std::unordered_set<std::string> old_chunks;
  for (std::string& c : FastCdc(before, gear)) old_chunks.insert(std::move(c));
  size_t reused = 0;
  for (const std::string& c : FastCdc(after, gear)) {
    if (old_chunks.count(c)) reused += c.size();
  }
  return reused;
}

double Share(size_t part, const std::string& whole) {
  return whole.empty() ? 0 : static_cast<double>(part) / static_cast<double>(whole.size());
}

constexpr int kGearTables = 64;

// ---- The tables.
constexpr int kClasses = 10;

std::string Label(uint64_t r) { return "class_" + std::to_string(r % kClasses); }

Value Centroid(std::mt19937_64& rng) {
  std::string wkb(21, '\0');
  wkb[0] = 1;
  wkb[1] = 1;
  const double lon = std::uniform_real_distribution<double>(-180, 180)(rng);
  const double lat = std::uniform_real_distribution<double>(-60, 70)(rng);
  std::memcpy(&wkb[5], &lon, 8);
  std::memcpy(&wkb[13], &lat, 8);
  return Value(Binary{wkb});
}

Table Empty() {
  Table t;
  for (auto [name, type] : std::vector<std::pair<std::string, DataType>>{{"id", DataType::String()},
                                                                         {"type", DataType::String()},
                                                                         {"label", DataType::String()},
                                                                         {"stac:centroid", DataType::Binary()},
                                                                         {"stac:time_start", DataType::TimestampUs()},
                                                                         {"eo:cloud_cover", DataType::Double()},
                                                                         {"internal:offset", DataType::Int64()},
                                                                         {"internal:size", DataType::Int64()},
                                                                         {"internal:current_id", DataType::Int64()},
                                                                         {"internal:parent_id", DataType::Int64()}}) {
    t.columns.push_back(Column{name, type, {}});
  }
  return t;
}

void AppendRows(Table& t, size_t from, size_t to, std::mt19937_64& rng) {
  int64_t offset = 0;
  for (size_t i = from; i < to; ++i) {
    const uint64_t r = rng();
    const int64_t size = 200'000 + static_cast<int64_t>(r % 100'000);
    offset = 1'000'000 + static_cast<int64_t>(i) * 300'000;
    char id[32];
    std::snprintf(id, sizeof id, "S2_%06zu", i);
    t.columns[0].values.emplace_back(std::string(id));
    t.columns[1].values.emplace_back(std::string("FILE"));
    t.columns[2].values.emplace_back(Label(r));
    t.columns[3].values.push_back(Centroid(rng));
    t.columns[4].values.emplace_back(
        TimestampUs{1'672'531'200'000'000 + static_cast<int64_t>(i % 365) * 86'400'000'000});
    t.columns[5].values.emplace_back(static_cast<double>(r % 10'000) / 100.0);
    t.columns[6].values.emplace_back(offset);
    t.columns[7].values.emplace_back(size);
    t.columns[8].values.emplace_back(static_cast<int64_t>(i));
    t.columns[9].values.emplace_back(static_cast<int64_t>(i));
  }
}

std::string Encode(const Table& t) {
  auto bytes = taco::table::EncodeParquet(t, {13, 65536});  // src/write/outputs.h kLevelZstd
  if (!bytes.ok()) Die(bytes.status().ToString());
  return std::move(*bytes);
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
  if (!f) Die("cannot write " + path);
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  if (!f) Die("cannot read " + path);
  return s.str();
}

// pyarrow ≥ 21 has use_content_defined_chunking: the project venv pins 17, the peers venv
// (`make peers-venv`, bench/peers/requirements.txt) 26.0.1.
std::string Python() {
  if (const char* p = std::getenv("TACO_BENCH_PYTHON")) return p;
  return std::string(TACO_SOURCE_DIR) + "/.venv-peers/bin/python";
}

}  // namespace

int main() {
  const char* rows_env = std::getenv("TACO_BENCH_CDC_ROWS");
  const size_t rows = rows_env != nullptr ? static_cast<size_t>(std::atoll(rows_env)) : 100'000;
  const std::string dir = (fs::temp_directory_path() / ("taco-cdc-bench-" + std::to_string(::getpid()))).string();
  fs::create_directories(dir);

  std::mt19937_64 rng(28);
  Table base = Empty();
  AppendRows(base, 0, rows, rng);

  struct Edit {
    std::string name;
    Table after;
  };
  std::vector<Edit> edits;
  {
    Table t = base;
    std::mt19937_64 pick(1);
    for (size_t k = 0; k < rows / 100; ++k) {
      const size_t row = pick() % rows;
      const std::string old = t.columns[2].values[row].get<std::string>();
      t.columns[2].values[row] = Value(Label(old.back() - '0' + 1));
    }
    edits.push_back({"1% of rows' label changed", std::move(t)});
  }
  {
    // A label fixed in the first row, where its old value first appears: with dictionary
    // indices numbered by first appearance every later page of the column would change.
    Table t = base;
    const std::string old = t.columns[2].values[0].get<std::string>();
    t.columns[2].values[0] = Value(Label(old.back() - '0' + 1));
    edits.push_back({"label of row 0 changed", std::move(t)});
  }
  {
    Table t = base;
    AppendRows(t, rows, rows + rows / 100, rng);
    edits.push_back({"1% rows appended", std::move(t)});
  }
  {
    Table t = base;
    Column quality{"quality", DataType::Double(), {}};
    for (size_t i = 0; i < rows; ++i) quality.values.emplace_back(static_cast<double>(rng() % 1000) / 10.0);
    t.columns.insert(t.columns.begin() + 6, std::move(quality));  // extension columns come before internal:*
    edits.push_back({"one column added", std::move(t)});
  }

  // Our files, then pyarrow's from the same tables.
  WriteFile(dir + "/base.ours.parquet", Encode(base));
  for (size_t e = 0; e < edits.size(); ++e)
    WriteFile(dir + "/edit" + std::to_string(e) + ".ours.parquet", Encode(edits[e].after));
  const std::string script = dir + "/pyarrow_cdc.py";
  WriteFile(script,
            "import sys, pyarrow.parquet as pq\n"
            "for src in sys.argv[1:]:\n"
            "    t = pq.read_table(src)\n"
            "    pq.write_table(t, src.replace('.ours.', '.pyarrow.'), compression='zstd', compression_level=13,\n"
            "                   row_group_size=65536, use_content_defined_chunking=True)\n");
  std::string cmd = Python() + " " + script + " " + dir + "/base.ours.parquet";
  for (size_t e = 0; e < edits.size(); ++e) cmd += " " + dir + "/edit" + std::to_string(e) + ".ours.parquet";
  if (std::system(cmd.c_str()) != 0) Die("pyarrow failed: " + cmd);

  const std::string ours_base = ReadFile(dir + "/base.ours.parquet");
  const std::string py_base = ReadFile(dir + "/base.pyarrow.parquet");
  std::printf(
      "CDC of consolidated levels: %zu rows; reused share of the new file in FastCDC 64 KiB chunks "
      "(Xet); ours vs pyarrow use_content_defined_chunking=True (zstd 13, row groups 65,536)\n",
      rows);
  std::printf("  base file size: ours %zu B, pyarrow %zu B (%.2fx)\n", ours_base.size(), py_base.size(),
              static_cast<double>(ours_base.size()) / static_cast<double>(py_base.size()));
  std::printf("  %-28s %10s %10s %7s %12s %12s %11s %11s %9s %9s %11s %11s\n", "edit", "ours", "pyarrow", "ratio",
              "ours B", "pyarrow B", "ours new B", "pyar. new B", "ours avg", "pyar. avg", "ours avg nB",
              "pyar. avg nB");
  bool all = true;
  const Gear main_gear = GearTable(0);
  for (size_t e = 0; e < edits.size(); ++e) {
    const std::string ours = ReadFile(dir + "/edit" + std::to_string(e) + ".ours.parquet");
    const std::string py = ReadFile(dir + "/edit" + std::to_string(e) + ".pyarrow.parquet");
    const size_t ours_reused = ReusedBytes(ours_base, ours, main_gear), py_reused = ReusedBytes(py_base, py, main_gear);
    const double a = Share(ours_reused, ours), b = Share(py_reused, py);
    // The same share averaged over kGearTables chunker tables (where FastCDC cuts is luck).
    // The new bytes too (what an upload sends): equal new bytes are a smaller share of a larger file.
    double mean_a = 0, mean_b = 0, new_a = 0, new_b = 0;
    for (int k = 0; k < kGearTables; ++k) {
      const Gear gear = GearTable(static_cast<uint64_t>(k));
      const size_t ra = ReusedBytes(ours_base, ours, gear), rb = ReusedBytes(py_base, py, gear);
      mean_a += Share(ra, ours) / kGearTables;
      mean_b += Share(rb, py) / kGearTables;
      new_a += static_cast<double>(ours.size() - ra) / kGearTables;
      new_b += static_cast<double>(py.size() - rb) / kGearTables;
    }
    all = all && a >= b;
    std::printf("  %-28s %10.3f %10.3f %7.2f %12zu %12zu %11zu %11zu %9.3f %9.3f %11.0f %11.0f\n",
                edits[e].name.c_str(), a, b, b > 0 ? a / b : 0.0, ours.size(), py.size(), ours.size() - ours_reused,
                py.size() - py_reused, mean_a, mean_b, new_a, new_b);
  }
  std::printf("  goal (ours >= pyarrow+CDC on every edit): %s\n", all ? "met" : "NOT met");
  if (std::getenv("TACO_BENCH_KEEP") == nullptr)
    fs::remove_all(dir);
  else
    std::printf("  files kept in %s\n", dir.c_str());
  return 0;
}
