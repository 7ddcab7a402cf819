// Content-defined data pages of the engine-free Parquet writer (table/page_chunker.h): the
// output is deterministic, reads back as written (DuckDB here; pyarrow in
// tests/python/test_cdc_levels.py), and an edit of a few rows leaves most pages' bytes as
// they were, which is the point of CDC.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "support/flat_tables.h"
#include "table/parquet_crc.h"
#include "table/parquet_levels.h"
#include "table/parquet_reader.h"
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

// The types of the pages of a file we wrote, in file order (PageHeader field 1).
std::vector<int32_t> PageTypes(const std::string& file) {
  std::vector<int32_t> types;
  uint32_t footer_len = 0;
  std::memcpy(&footer_len, file.data() + file.size() - 8, 4);
  const size_t data_end = file.size() - 8 - footer_len;
  size_t at = 4;
  while (at < data_end) {
    thrift::CompactReader r(std::string_view(file).substr(at, data_end - at));
    int32_t type = -1, compressed = -1;
    int16_t id = 0;
    uint8_t t = 0;
    while (r.NextField(&id, &t)) {
      if (id == 1) {
        type = r.I32(t);
      } else if (id == 3) {
        compressed = r.I32(t);
      } else {
        r.Skip(t);
      }
    }
    if (r.failed() || compressed < 0) {
      ADD_FAILURE() << "page header at byte " << at;
      break;
    }
    types.push_back(type);
    at += r.position() + static_cast<size_t>(compressed);
  }
  return types;
}

size_t DictionaryPages(const std::string& file) {
  const std::vector<int32_t> types = PageTypes(file);
  return static_cast<size_t>(std::count(types.begin(), types.end(), parquet::kDictionaryPage));
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
  // Two values changed in two dictionary-encoded columns, both values new to their
  // dictionaries: the two dictionary pages, and a few data pages around each edit (the
  // values' hash moves a boundary; measured 5 data pages, 7 pages in all, of 75).
  EXPECT_GE(kept + 7, new_pages.size()) << kept << " of " << new_pages.size() << " pages kept";

  ParquetWriteOptions off{13, 65536};
  off.content_defined_chunking = false;
  auto single = EncodeParquet(table, off);
  ASSERT_TRUE(single.ok());
  // One data page per column, after the dictionary page of each low-cardinality column.
  EXPECT_EQ(Pages(*single).size(), table.columns.size() + DictionaryPages(*single));
  EXPECT_GT(DictionaryPages(*single), 0u);
}

// Columns of few distinct values get a dictionary page and RLE_DICTIONARY data pages;
// columns of many (or a dictionary past 1 MiB) stay PLAIN; all read back as written.
TEST(DictionaryParquet, LowCardinalityColumnsAndFallbacks) {
  constexpr size_t kRows = 1200;
  Table t;
  t.columns.push_back({"label", DataType::String(), {}});                 // 7 values and nulls
  t.columns.push_back({"nothing", DataType::String(), {}});               // all null
  t.columns.push_back({"one", DataType::Int64(), {}});                    // one distinct value
  t.columns.push_back({"cloud", DataType::Double(), {}});                 // 50 values
  t.columns.push_back({"day", DataType::TimestampUs(), {}});              // 30 values
  t.columns.push_back({"small", DataType::Int32(), {}});                  // 3 values
  t.columns.push_back({"id", DataType::String(), {}});                    // all distinct
  t.columns.push_back({"big", DataType::String(), {}});                   // 600 x 2 KB distinct, each twice
  t.columns.push_back({"flag", DataType::Bool(), {}});                    // never a dictionary
  t.columns.push_back({"bands", DataType::List(DataType::Int64()), {}});  // 4 values in lists
  for (size_t i = 0; i < kRows; ++i) {
    t.columns[0].values.push_back(i % 5 == 0 ? Value() : Value("class_" + std::to_string(i * 7 % 7)));
    t.columns[1].values.emplace_back();
    t.columns[2].values.emplace_back(int64_t{42});
    t.columns[3].values.emplace_back(static_cast<double>(i % 50) / 4.0);
    t.columns[4].values.emplace_back(
        TimestampUs{static_cast<int64_t>(1'600'000'000'000'000 + (i % 30) * 86'400'000'000)});
    t.columns[5].values.push_back(i % 11 == 0 ? Value() : Value(static_cast<int32_t>(i % 3) - 1));
    t.columns[6].values.emplace_back("sample_" + std::to_string(i));
    t.columns[7].values.emplace_back(std::string(2000, static_cast<char>('a' + (i / 2) % 26)) + std::to_string(i / 2));
    t.columns[8].values.emplace_back(i % 2 == 0);
    ValueList bands;
    for (size_t b = 0; b < i % 3; ++b) bands.emplace_back(static_cast<int64_t>(b % 4));
    t.columns[9].values.emplace_back(std::move(bands));
  }
  for (size_t i = 0; i < kRows; i += 7) t.columns[0].values[i] = Value("class_" + std::to_string(i % 7));

  auto engine = Engine::Open();
  ASSERT_TRUE(engine.ok());
  // One row group: label, one, cloud, day, small, bands (big is 1.2 MB of distinct values:
  // past the limit). Row groups of 500 rows: big's 250 distinct values fit, so it too.
  for (auto [group, dictionaries] : {std::pair<uint64_t, size_t>{65536, 6}, {500, 3 * 7}}) {
    auto a = EncodeParquet(t, {13, group});
    auto b = EncodeParquet(t, {13, group});
    ASSERT_TRUE(a.ok() && b.ok()) << a.status().ToString();
    EXPECT_EQ(*a, *b) << "not deterministic";
    EXPECT_EQ(DictionaryPages(*a), dictionaries) << "row groups of " << group;
    auto crcs = VerifyParquetPageCrcs(*a, "dict.parquet");
    ASSERT_TRUE(crcs.ok()) << crcs.status().ToString();
    EXPECT_TRUE(crcs->unwalkable.empty()) << crcs->unwalkable;
    EXPECT_EQ(crcs->checked, crcs->pages);
    auto back = (*engine)->ReadParquet(MemoryReader(*a, "dict.parquet"));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ExpectSameTables(*back, t);
  }
}

// A value seen once per page is not worth a dictionary: a column whose distinct values are
// more than half its values stays PLAIN, and a one-row table has no dictionary at all.
TEST(DictionaryParquet, HighCardinalityStaysPlain) {
  Table t;
  t.columns.push_back({"x", DataType::Int64(), {}});
  for (int64_t i = 0; i < 1000; ++i) t.columns[0].values.emplace_back(i < 499 ? i : int64_t{0});
  auto half = EncodeParquet(t, {13, 65536});
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(DictionaryPages(*half), 1u);  // 499 distinct of 1000
  t.columns[0].values[999] = Value(int64_t{-5});
  t.columns[0].values[998] = Value(int64_t{-6});
  auto more = EncodeParquet(t, {13, 65536});
  ASSERT_TRUE(more.ok());
  EXPECT_EQ(DictionaryPages(*more), 0u);  // 501 distinct
  Table one;
  one.columns.push_back({"x", DataType::String(), {Value("FILE")}});
  auto single = EncodeParquet(one, {13, 65536});
  ASSERT_TRUE(single.ok());
  EXPECT_EQ(DictionaryPages(*single), 0u);
}

// The stored bytes of the dictionary pages of a file we wrote, in file order.
std::vector<std::string> DictionaryPageBytes(const std::string& file) {
  std::vector<std::string> out;
  const std::vector<int32_t> types = PageTypes(file);
  uint32_t footer_len = 0;
  std::memcpy(&footer_len, file.data() + file.size() - 8, 4);
  const size_t data_end = file.size() - 8 - footer_len;
  size_t at = 4;
  for (size_t i = 0; i < types.size() && at < data_end; ++i) {
    thrift::CompactReader r(std::string_view(file).substr(at, data_end - at));
    int32_t compressed = 0;
    int16_t id = 0;
    uint8_t t = 0;
    while (r.NextField(&id, &t)) {
      if (id == 3) {
        compressed = r.I32(t);
      } else {
        r.Skip(t);
      }
    }
    const size_t end = at + r.position() + static_cast<size_t>(compressed);
    if (types[i] == parquet::kDictionaryPage) out.push_back(file.substr(at, end - at));
    at = end;
  }
  return out;
}

// Low-cardinality columns of every dictionary type, negative values included.
Table DictionaryTypes(size_t rows) {
  Table t;
  t.columns.push_back({"label", DataType::String(), {}});
  t.columns.push_back({"small", DataType::Int32(), {}});
  t.columns.push_back({"big", DataType::Int64(), {}});
  t.columns.push_back({"ratio", DataType::Float(), {}});
  t.columns.push_back({"cloud", DataType::Double(), {}});
  t.columns.push_back({"day", DataType::TimestampUs(), {}});
  t.columns.push_back({"raw", DataType::Binary(), {}});
  const double doubles[] = {-2.5, -0.0, 0.0, 1.5, -1e300, 7.25, -std::numeric_limits<double>::infinity()};
  for (size_t i = 0; i < rows; ++i) {
    const size_t k = (i * 7919 + i / 3) % 7;
    t.columns[0].values.emplace_back("class_" + std::to_string((k * 5) % 7));
    t.columns[1].values.push_back(i % 13 == 0 ? Value() : Value(static_cast<int32_t>(k) - 3));
    t.columns[2].values.emplace_back(static_cast<int64_t>(k) * -1'000'000'007);
    t.columns[3].values.emplace_back(static_cast<float>(k) / -4.0f + 0.5f);
    t.columns[4].values.emplace_back(doubles[k]);
    t.columns[5].values.emplace_back(TimestampUs{(static_cast<int64_t>(k) - 3) * 86'400'000'000});
    t.columns[6].values.emplace_back(Binary{std::string(1, static_cast<char>(0xfe + k % 3)) + "x"});
  }
  return t;
}

// The dictionary's values are ordered by value, not by where each first appears: the same
// rows in another order give the same dictionary pages, and they read back as written.
TEST(DictionaryParquet, SortedValuesWhateverTheRowOrder) {
  const Table table = DictionaryTypes(3000);
  Table reversed = table;
  for (Column& c : reversed.columns) std::reverse(c.values.begin(), c.values.end());
  auto a = EncodeParquet(table, {13, 65536});
  auto b = EncodeParquet(reversed, {13, 65536});
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().ToString();
  const std::vector<std::string> dict_a = DictionaryPageBytes(*a), dict_b = DictionaryPageBytes(*b);
  EXPECT_EQ(dict_a.size(), table.columns.size());
  EXPECT_TRUE(dict_a == dict_b) << "the dictionary pages depend on the row order";

  auto engine = Engine::Open();
  ASSERT_TRUE(engine.ok());
  for (const Table* t : std::vector<const Table*>{&table, &reversed}) {
    auto bytes = EncodeParquet(*t, {13, 700});  // several row groups, each its own dictionary
    ASSERT_TRUE(bytes.ok());
    auto back = (*engine)->ReadParquet(MemoryReader(*bytes, "sorted.parquet"));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ExpectSameTables(*back, *t);
    std::optional<Table> decoded = DecodeParquet(*bytes);
    ASSERT_TRUE(decoded.has_value());
    ExpectSameTables(*decoded, *t);
    // -0.0 and +0.0 are distinct dictionary entries and keep their sign.
    for (size_t r = 0; r < t->num_rows(); ++r) {
      const double want = t->columns[4].values[r].get<double>();
      ASSERT_EQ(std::signbit(back->columns[4].values[r].get<double>()), std::signbit(want)) << "row " << r;
      ASSERT_EQ(std::signbit(decoded->columns[4].values[r].get<double>()), std::signbit(want)) << "row " << r;
    }
  }
}

// A label fixed in the row where its old value first appears, the set of values unchanged:
// only the data page holding that row changes (numbered by first appearance, every index
// after it would move, and with it every page of the column and its dictionary page).
TEST(DictionaryParquet, AnEditOfAFirstAppearanceKeepsTheOtherPages) {
  const Table table = LevelLike(30000);
  Table edited = table;
  const std::string first = table.columns[1].values[0].get<std::string>();
  const std::string other = first == "class_3" ? "class_4" : "class_3";
  edited.columns[1].values[0] = Value(other);
  auto before = EncodeParquet(table, {13, 65536});
  auto after = EncodeParquet(edited, {13, 65536});
  ASSERT_TRUE(before.ok() && after.ok());
  const auto old_pages = Pages(*before);
  const auto new_pages = Pages(*after);
  size_t changed = 0;
  for (const std::string& p : new_pages) changed += old_pages.count(p) == 0;
  EXPECT_EQ(changed, 1u) << "of " << new_pages.size() << " pages";
  EXPECT_TRUE(DictionaryPageBytes(*before) == DictionaryPageBytes(*after)) << "a dictionary page changed";
}

}  // namespace
}  // namespace taco::table
