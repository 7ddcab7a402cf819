// Content-defined data pages of the engine-free Parquet writer (table/page_chunker.h): the
// output is deterministic, reads back as written (DuckDB here; pyarrow in
// tests/python/test_cdc_levels.py), and an edit of a few rows leaves most pages' bytes as
// they were, which is the point of CDC.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "support/flat_tables.h"
#include "table/parquet_crc.h"
#include "table/parquet_writer.h"
#include "table/thrift_compact.h"
#include "taco/io.h"

namespace taco::table {
namespace {

using testing::ExpectSameTables;

// Rows like a consolidated level: ids, a label, numbers, a timestamp, a small WKB, a list.
Table LevelLike(size_t rows) {
  Table t;
  t.columns.push_back({"id", DataType::String(), {}});
  t.columns.push_back({"label", DataType::String(), {}});
  t.columns.push_back({"internal:offset", DataType::Int64(), {}});
  t.columns.push_back({"cloud", DataType::Double(), {}});
  t.columns.push_back({"time", DataType::TimestampUs(), {}});
  t.columns.push_back({"wkb", DataType::Binary(), {}});
  t.columns.push_back({"flag", DataType::Bool(), {}});
  t.columns.push_back({"bands", DataType::List(DataType::Int64()), {}});
  uint64_t x = 88172645463325252ull;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (size_t i = 0; i < rows; ++i) {
    const uint64_t r = next();
    t.columns[0].values.emplace_back("sample_" + std::to_string(i));
    t.columns[1].values.push_back(r % 17 == 0 ? Value() : Value("class_" + std::to_string(r % 11)));
    t.columns[2].values.emplace_back(static_cast<int64_t>(i * 4096 + r % 4096));
    t.columns[3].values.emplace_back(static_cast<double>(r % 10000) / 100.0);
    t.columns[4].values.emplace_back(TimestampUs{static_cast<int64_t>(1'600'000'000'000'000 + i * 1'000'000)});
    t.columns[5].values.emplace_back(Binary{std::string(21, static_cast<char>(r & 0xff))});
    t.columns[6].values.emplace_back(r % 3 == 0);
    ValueList bands;
    for (uint64_t b = 0; b < r % 4; ++b) bands.emplace_back(static_cast<int64_t>(b + i));
    t.columns[7].values.emplace_back(std::move(bands));
  }
  return t;
}

// The stored bytes of every page (header included) of a file we wrote.
std::multiset<std::string> Pages(const std::string& file) {
  std::multiset<std::string> pages;
  // Page headers are walked from byte 4 to the footer: our writer puts pages back to back.
  uint32_t footer_len = 0;
  std::memcpy(&footer_len, file.data() + file.size() - 8, 4);
  const size_t data_end = file.size() - 8 - footer_len;
  size_t at = 4;
  while (at < data_end) {
    thrift::CompactReader r(std::string_view(file).substr(at, data_end - at));
    int32_t compressed = -1;
    int16_t id = 0;
    uint8_t type = 0;
    while (r.NextField(&id, &type)) {  // PageHeader field 3: compressed_page_size
      if (id == 3) {
        compressed = r.I32(type);
      } else {
        r.Skip(type);
      }
    }
    if (r.failed()) compressed = -1;
    EXPECT_GE(compressed, 0) << "page header at byte " << at;
    if (compressed < 0) break;
    const size_t end = at + r.position() + static_cast<size_t>(compressed);
    pages.insert(file.substr(at, end - at));
    at = end;
  }
  return pages;
}

TEST(CdcParquet, SameTableSameBytesAndManyPages) {
  const Table table = LevelLike(30000);
  auto a = EncodeParquet(table, {13, 65536});
  auto b = EncodeParquet(table, {13, 65536});
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().ToString();
  EXPECT_EQ(*a, *b);
  auto pages = VerifyParquetPageCrcs(*a, "cdc.parquet");
  ASSERT_TRUE(pages.ok()) << pages.status().ToString();
  EXPECT_TRUE(pages->unwalkable.empty()) << pages->unwalkable;
  // 8 columns in one row group; the id column alone is ~400 KB of values.
  EXPECT_GT(pages->pages, 16u);
  EXPECT_EQ(pages->checked, pages->pages);
}

TEST(CdcParquet, ReadsBackAsWrittenByTheEngine) {
  auto engine = Engine::Open();
  ASSERT_TRUE(engine.ok());
  for (uint64_t group : {65536u, 7000u}) {
    const Table table = LevelLike(30000);
    auto bytes = EncodeParquet(table, {13, group});
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    auto back = (*engine)->ReadParquet(MemoryReader(*bytes, "cdc.parquet"));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ExpectSameTables(*back, table);
  }
}

TEST(CdcParquet, AnEditKeepsMostPages) {
  const Table table = LevelLike(30000);
  Table edited = table;
  edited.columns[1].values[15000] = Value("relabelled");
  edited.columns[3].values[15001] = Value(-1.0);
  auto before = EncodeParquet(table, {13, 65536});
  auto after = EncodeParquet(edited, {13, 65536});
  ASSERT_TRUE(before.ok() && after.ok());
  const auto old_pages = Pages(*before);
  const auto new_pages = Pages(*after);
  size_t kept = 0;
  for (const std::string& p : new_pages) kept += old_pages.count(p) > 0;
  ASSERT_GT(new_pages.size(), 16u);
  // Two values changed in two columns: at most two pages each side of a moved boundary.
  EXPECT_GE(kept + 4, new_pages.size()) << kept << " of " << new_pages.size() << " pages kept";

  ParquetWriteOptions off{13, 65536};
  off.content_defined_chunking = false;
  auto single = EncodeParquet(table, off);
  ASSERT_TRUE(single.ok());
  EXPECT_EQ(Pages(*single).size(), table.columns.size());
}

}  // namespace
}  // namespace taco::table
