// Tests of src/table/parquet_reader.h: whatever the engine-free reader decodes must equal what
// the engine reads from the same bytes, on files of our writer, DuckDB's writer (several
// options) and PyArrow's (the upstream fixtures), and on damaged copies of them.
#include "table/parquet_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "format/zip/zip_reader.h"
#include "support/flat_tables.h"
#include "support/paths.h"
#include "table/parquet_writer.h"
#include "taco/io.h"

namespace taco::table {
namespace {

using testing::ExpectSameTables;
using testing::FlatTable;
namespace fs = std::filesystem;

std::unique_ptr<Engine> OpenEngine() {
  auto engine = Engine::Open();
  EXPECT_TRUE(engine.ok()) << engine.status().ToString();
  return engine.ok() ? std::move(engine).value() : nullptr;
}

std::string ReadWhole(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every Parquet file of the upstream fixtures: files on disk and ZIP members.
std::vector<std::pair<std::string, std::string>> UpstreamParquetFiles() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : fs::recursive_directory_iterator(taco::testing::UpstreamFixtures())) {
    if (!e.is_regular_file()) continue;
    std::string bytes = ReadWhole(e.path());
    if (bytes.rfind("PAR1", 0) == 0) out.emplace_back(e.path().string(), std::move(bytes));
    if (e.path().extension() != ".tacozip") continue;
    auto reader = OpenRangeReader(e.path().string());
    EXPECT_TRUE(reader.ok());
    if (!reader.ok()) continue;
    auto entries = zip::ReadCentralDirectory(**reader, true);
    EXPECT_TRUE(entries.ok());
    if (!entries.ok()) continue;
    for (const auto& m : *entries) {
      std::string member = bytes.substr(m.data_offset, m.compressed_size);
      if (member.rfind("PAR1", 0) == 0) out.emplace_back(e.path().string() + "!" + m.name, std::move(member));
    }
  }
  return out;
}

// The engine's reading of `bytes`, or its error.
Result<Table> EngineRead(Engine& engine, const std::string& bytes) {
  return engine.ReadParquet(MemoryReader(bytes, "reference.parquet"));
}

TEST(FlatParquetReader, ReadsWhatTheNativeWriterWrote) {
  for (size_t rows : {1u, 8u, 9u, 300u}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    const Table table = FlatTable(rows, static_cast<uint32_t>(rows) + 100);
    for (uint64_t group : {uint64_t{65536}, uint64_t{7}}) {
      auto bytes = EncodeParquet(table, {3, group});
      ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
      std::optional<Table> back = DecodeParquet(*bytes);
      ASSERT_TRUE(back.has_value());
      ExpectSameTables(*back, table);
    }
  }
}

TEST(FlatParquetReader, AgreesWithTheEngineOnDuckDbFiles) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  const Table table = FlatTable(200, 5);
  ASSERT_TRUE(engine->CreateTable("flat", table).ok());
  const fs::path dir = fs::path(::testing::TempDir()) / "flat_parquet_reader";
  fs::create_directories(dir);
  struct Variant {
    std::string options;
    bool decoded;  // whether the native reader is expected to decode it
  };
  const std::vector<Variant> variants = {
      {"COMPRESSION zstd", true},
      {"COMPRESSION uncompressed", true},
      {"COMPRESSION zstd, ROW_GROUP_SIZE 7", true},
      {"COMPRESSION snappy", false},
      {"COMPRESSION zstd, PARQUET_VERSION V2", false},  // may use DELTA encodings: either way, agree
  };
  int decoded = 0;
  for (size_t i = 0; i < variants.size(); ++i) {
    SCOPED_TRACE(variants[i].options);
    const fs::path file = dir / ("v" + std::to_string(i) + ".parquet");
    ASSERT_TRUE(
        engine->Execute("COPY flat TO " + QuoteString(file.string()) + " (FORMAT parquet, " + variants[i].options + ")")
            .ok());
    const std::string bytes = ReadWhole(file);
    auto reference = EngineRead(*engine, bytes);
    ASSERT_TRUE(reference.ok()) << reference.status().ToString();
    std::optional<Table> native = DecodeParquet(bytes);
    if (variants[i].decoded) {
      EXPECT_TRUE(native.has_value());
    }
    if (native) {
      ++decoded;
      ExpectSameTables(*native, *reference);
    }
    auto small = ReadSmallParquet(*engine, bytes, "v.parquet");
    ASSERT_TRUE(small.ok()) << small.status().ToString();
    ExpectSameTables(*small, *reference);
  }
  EXPECT_GE(decoded, 3);
}

TEST(FlatParquetReader, AgreesWithTheEngineOnPyArrowFiles) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  const auto files = UpstreamParquetFiles();
  ASSERT_GE(files.size(), 10u);  // 6 on disk, the levels and __meta__ of the two ZIPs
  int meta = 0;
  for (const auto& [name, bytes] : files) {
    SCOPED_TRACE(name);
    auto reference = EngineRead(*engine, bytes);
    ASSERT_TRUE(reference.ok()) << reference.status().ToString();
    std::optional<Table> native = DecodeParquet(bytes);
    const bool is_meta = name.size() >= 8 && name.substr(name.size() - 8) == "__meta__";
    // Every __meta__ (flat tables of strings and integers) is decoded; level tables with
    // list columns may not be.
    if (is_meta) {
      ++meta;
      EXPECT_TRUE(native.has_value());
    }
    if (native) ExpectSameTables(*native, *reference);
  }
  EXPECT_GE(meta, 6);
}

TEST(FlatParquetReader, TooManyRowsIsTheEnginesError) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto bytes = EncodeParquet(FlatTable(20, 1));
  ASSERT_TRUE(bytes.ok());
  auto limited = ReadSmallParquet(*engine, *bytes, "big/__meta__", 10);
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(limited.status().code(), StatusCode::kCorruption);
  EXPECT_NE(limited.status().message().find("big/__meta__"), std::string::npos) << limited.status().ToString();
  EXPECT_NE(limited.status().message().find("more than 10 rows"), std::string::npos) << limited.status().ToString();
}

// Damaged files: the reader never crashes, and a table it returns is the engine's reading
// of the same bytes (a damaged file it cannot vouch for goes to the engine, whose error
// names the file). Every byte of each footer and every third byte of the pages is flipped,
// incremented and deleted, in files of our writer (flat, lists), DuckDB's (dictionaries)
// and PyArrow's (an upstream __meta__ with lists and statistics).
TEST(FlatParquetReader, DamagedFilesDecodeAsTheEngineOrNotAtAll) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  std::vector<std::pair<std::string, std::string>> seeds;
  auto flat = EncodeParquet(FlatTable(9, 3));
  auto lists = EncodeParquet(testing::ListTable(6, 4));
  ASSERT_TRUE(flat.ok() && lists.ok());
  seeds.emplace_back("ours, flat", *flat);
  seeds.emplace_back("ours, lists", *lists);
  if (getenv("DUMP")) std::ofstream("/tmp/lists.parquet", std::ios::binary) << *lists;
  ASSERT_TRUE(engine->CreateTable("damaged_seed", FlatTable(20, 8)).ok());
  auto duck = engine->QueryToParquet("SELECT * FROM damaged_seed");
  ASSERT_TRUE(duck.ok()) << duck.status().ToString();
  seeds.emplace_back("duckdb", *duck);
  if (getenv("DUMP")) std::ofstream("/tmp/duck.parquet", std::ios::binary) << *duck;
  for (auto& [name, bytes] : UpstreamParquetFiles()) {
    if (name.size() >= 13 && name.substr(name.size() - 13) == "asia/__meta__") {
      seeds.emplace_back(name, bytes);
      break;
    }
  }
  ASSERT_EQ(seeds.size(), 4u);
  int decoded = 0, disagreements = 0;
  for (const auto& [name, original] : seeds) {
    ASSERT_TRUE(DecodeParquet(original).has_value()) << name;
    uint32_t footer = 0;
    std::memcpy(&footer, original.data() + original.size() - 8, 4);
    const size_t footer_start = original.size() - 8 - footer;
    for (size_t pos = 0; pos < original.size(); pos += pos >= footer_start ? 1 : 3) {
      for (int variant = 0; variant < 3; ++variant) {
        std::string bytes = original;
        if (variant == 0) bytes[pos] = static_cast<char>(bytes[pos] ^ 0xFF);
        if (variant == 1) bytes[pos] = static_cast<char>(bytes[pos] + 1);
        if (variant == 2) bytes.erase(pos, 1);
        std::optional<Table> native = DecodeParquet(bytes);
        if (!native) continue;
        ++decoded;
        auto reference = EngineRead(*engine, bytes);
        bool same = reference.ok() && reference->num_columns() == native->num_columns();
        for (size_t c = 0; same && c < native->num_columns(); ++c) {
          same = native->columns[c].name == reference->columns[c].name &&
                 native->columns[c].type == reference->columns[c].type &&
                 native->columns[c].values == reference->columns[c].values;
        }
        if (!same) {
          ++disagreements;
          ADD_FAILURE() << name << ": byte " << pos << " variant " << variant << ": native decoded, engine "
                        << (reference.ok() ? "read other values" : reference.status().ToString());
        }
        if (disagreements > 5) return;
      }
    }
  }
  EXPECT_GT(decoded, 100);
}

}  // namespace
}  // namespace taco::table
