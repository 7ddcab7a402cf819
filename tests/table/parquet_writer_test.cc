// Tests of src/table/parquet_writer.h: the engine-free writer of small flat tables must give
// back, through DuckDB's reader, exactly what the engine's own writer gives back.
#include "table/parquet_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "support/flat_tables.h"
#include "taco/io.h"

namespace taco::table {
namespace {

using testing::ExpectSameTables;
using testing::FlatTable;

std::unique_ptr<Engine> OpenEngine() {
  auto engine = Engine::Open();
  EXPECT_TRUE(engine.ok()) << engine.status().ToString();
  return engine.ok() ? std::move(engine).value() : nullptr;
}

TEST(FlatParquet, ReadsBackAsTheEngineWriterDoes) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  for (size_t rows : {1u, 7u, 8u, 9u, 300u}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    const Table table = FlatTable(rows, static_cast<uint32_t>(rows));
    auto native = EncodeParquet(table, {3, 65536});
    ASSERT_TRUE(native.ok()) << native.status().ToString();
    auto reference = engine->ToParquet(table, {3, 65536});
    ASSERT_TRUE(reference.ok()) << reference.status().ToString();
    auto from_native = engine->ReadParquet(MemoryReader(*native, "native.parquet"));
    ASSERT_TRUE(from_native.ok()) << from_native.status().ToString();
    auto from_reference = engine->ReadParquet(MemoryReader(*reference, "reference.parquet"));
    ASSERT_TRUE(from_reference.ok()) << from_reference.status().ToString();
    ExpectSameTables(*from_native, *from_reference);
    // The null-typed column reads back as the engine's (INTEGER of nulls); the rest as written.
    Table want = table;
    want.columns[9].type = from_reference->columns[9].type;
    ExpectSameTables(*from_native, want);
  }
}

TEST(FlatParquet, SeveralRowGroupsAndStatistics) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  const Table table = FlatTable(50, 7);
  auto bytes = EncodeParquet(table, {3, 16});
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto back = engine->ReadParquet(MemoryReader(*bytes, "groups.parquet"));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->num_rows(), 50u);
  EXPECT_EQ(back->columns[0].values, table.columns[0].values);

  const std::string path = engine->Mount(MemoryReader(*bytes), "groups.parquet");
  auto meta = engine->Query(
      "SELECT row_group_id, row_group_num_rows, compression, stats_min_value, stats_max_value, "
      "stats_null_count FROM parquet_metadata(" +
      QuoteString(path) + ") WHERE path_in_schema = 'small' ORDER BY row_group_id");
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  ASSERT_EQ(meta->num_rows(), 4u);  // 16 + 16 + 16 + 2
  EXPECT_EQ(meta->column("row_group_num_rows").values[3], Value(int64_t{2}));
  for (size_t g = 0; g < 4; ++g) {
    EXPECT_EQ(meta->column("compression").values[g], Value("ZSTD"));
    int64_t nulls = 0;
    std::optional<int32_t> lo, hi;
    for (size_t r = g * 16; r < std::min<size_t>(50, g * 16 + 16); ++r) {
      const Value& v = table.columns[3].values[r];
      if (v.is_null()) {
        ++nulls;
        continue;
      }
      lo = std::min(lo.value_or(v.get<int32_t>()), v.get<int32_t>());
      hi = std::max(hi.value_or(v.get<int32_t>()), v.get<int32_t>());
    }
    EXPECT_EQ(meta->column("stats_null_count").values[g], Value(nulls)) << g;
    ASSERT_TRUE(lo.has_value());
    EXPECT_EQ(meta->column("stats_min_value").values[g], Value(std::to_string(*lo)))
        << g << ": " << meta->column("stats_min_value").values[g].ToString();
    EXPECT_EQ(meta->column("stats_max_value").values[g], Value(std::to_string(*hi)))
        << g << ": " << meta->column("stats_max_value").values[g].ToString();
  }
  // DuckDB prunes row groups by those statistics: a filter outside every range reads nothing.
  auto none = engine->Query("SELECT count(*) AS n FROM read_parquet(" + QuoteString(path) + ") WHERE small > " +
                            std::to_string(std::numeric_limits<int32_t>::max() - 1) + "::BIGINT + 1");
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->columns[0].values[0], Value(int64_t{0}));
  // String statistics (byte-wise min/max) prune too, and never a row group holding a match:
  // every id, looked up alone, is found exactly once.
  for (size_t r = 0; r < 50; ++r) {
    const std::string id = table.columns[0].values[r].get<std::string>();
    auto one = engine->Query("SELECT count(*) AS n FROM read_parquet(" + QuoteString(path) +
                             ") WHERE id = " + QuoteString(id));
    ASSERT_TRUE(one.ok()) << one.status().ToString();
    EXPECT_EQ(one->columns[0].values[0], Value(int64_t{1})) << id;
  }
  auto strings = engine->Query("SELECT stats_min_value, stats_max_value FROM parquet_metadata(" + QuoteString(path) +
                               ") WHERE path_in_schema = 'id' ORDER BY row_group_id");
  ASSERT_TRUE(strings.ok()) << strings.status().ToString();
  ASSERT_EQ(strings->num_rows(), 4u);
  EXPECT_EQ(strings->columns[0].values[0], Value("sample_0\xc3\xa9"));  // "sample_0é" < "sample_1"
  EXPECT_EQ(strings->columns[1].values[0], Value("sample_9\xc3\xa9"));  // row 9 of rows 0..15
}

TEST(FlatParquet, PhysicalSchemaMatchesTheEngineWriter) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  const Table table = FlatTable(5, 3);
  auto native = EncodeParquet(table, {3, 65536, {{"geo", "{\"version\":\"1.1.0\"}"}}});
  ASSERT_TRUE(native.ok()) << native.status().ToString();
  auto reference = engine->ToParquet(table, {3, 65536});
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  auto schema_of = [&](const std::string& bytes, const char* name) {
    const std::string path = engine->Mount(MemoryReader(bytes), name);
    return engine->Query(
        "SELECT name, type, repetition_type, converted_type, logical_type::VARCHAR AS logical "
        "FROM parquet_schema(" +
        QuoteString(path) + ") WHERE name <> 'never' AND type IS NOT NULL ORDER BY name");
  };
  auto got = schema_of(*native, "native.parquet");
  auto want = schema_of(*reference, "reference.parquet");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  // The root element's name differs (duckdb_schema / schema); every column agrees.
  ASSERT_EQ(got->num_rows(), want->num_rows());
  ASSERT_EQ(got->num_rows(), table.num_columns() - 1);
  for (size_t r = 0; r < got->num_rows(); ++r) {
    // Physical types and repetition as the engine's; annotations checked below (the engine
    // adds INT_32/INT_64 converted types and no STRING logical type; PyArrow does the reverse).
    for (const char* c : {"name", "type", "repetition_type"}) {
      EXPECT_EQ(got->column(c).values[r], want->column(c).values[r])
          << got->column("name").values[r].ToString() << "." << c << ": " << got->column(c).values[r].ToString()
          << " vs " << want->column(c).values[r].ToString();
    }
  }
  auto row_of = [&](const std::string& name) {
    for (size_t r = 0; r < got->num_rows(); ++r) {
      if (got->column("name").values[r] == Value(name)) return r;
    }
    ADD_FAILURE() << name;
    return size_t{0};
  };
  EXPECT_EQ(got->column("converted_type").values[row_of("id")], Value("UTF8"));
  EXPECT_EQ(got->column("logical").values[row_of("id")], Value("StringType()"));
  EXPECT_TRUE(got->column("converted_type").values[row_of("wkb")].is_null());
  EXPECT_EQ(got->column("converted_type").values[row_of("time")], Value("TIMESTAMP_MICROS"));
  const std::string logical = got->column("logical").values[row_of("time")].ToString();
  EXPECT_NE(logical.find("isAdjustedToUTC=0"), std::string::npos) << logical;
  EXPECT_NE(logical.find("MICROS"), std::string::npos) << logical;

  const std::string path = engine->Mount(MemoryReader(*native), "kv.parquet");
  auto kv =
      engine->Query("SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(" + QuoteString(path) + ")");
  ASSERT_TRUE(kv.ok()) << kv.status().ToString();
  ASSERT_EQ(kv->num_rows(), 1u);
  EXPECT_EQ(kv->column("k").values[0], Value("geo"));
  EXPECT_EQ(kv->column("v").values[0], Value("{\"version\":\"1.1.0\"}"));
}

TEST(FlatParquet, SameTableSameBytes) {
  const Table table = FlatTable(40, 11);
  auto a = EncodeParquet(table);
  auto b = EncodeParquet(table);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  Table changed = table;
  changed.columns[2].values[5] = Value(int64_t{12345});
  auto c = EncodeParquet(changed);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(*a, *c);
}

TEST(FlatParquet, ListColumnsReadBackAsWritten) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  for (size_t rows : {1u, 13u, 400u}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    const Table table = testing::ListTable(rows, static_cast<uint32_t>(rows));
    ASSERT_TRUE(CanEncodeParquet(table));
    auto bytes = EncodeParquet(table, {3, 100});
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    auto back = engine->ReadParquet(MemoryReader(*bytes, "lists.parquet"));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ExpectSameTables(*back, table);
  }
}

TEST(FlatParquet, StructColumnsAreLeftToTheEngine) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  const DataType band = DataType::Struct({{"name", DataType::String()}, {"index", DataType::Int32()}});
  Table table;
  table.columns = {{"id", DataType::String(), {Value("a"), Value("b")}},
                   {"band", band, {Value(ValueStruct{{"name", Value("red")}, {"index", Value(int32_t{3})}}), Value()}}};
  EXPECT_FALSE(CanEncodeParquet(table));
  auto refused = EncodeParquet(table);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(refused.status().message().find("band"), std::string::npos) << refused.status().ToString();

  auto bytes = TableToParquet(*engine, table);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto back = engine->ReadParquet(MemoryReader(*bytes, "nested.parquet"));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectSameTables(*back, table);

  // A value that disagrees with its column's type is not written as something else.
  for (const Column& bad : {Column{"n", DataType::Int64(), {Value(int64_t{1}), Value("two")}},
                            Column{"l", DataType::List(DataType::Int64()), {Value(int64_t{1})}},
                            Column{"l", DataType::List(DataType::Int64()), {Value(ValueList{Value(1.5)})}}}) {
    Table mixed;
    mixed.columns = {bad};
    auto wrong = EncodeParquet(mixed);
    ASSERT_FALSE(wrong.ok()) << bad.name;
    EXPECT_EQ(wrong.status().code(), StatusCode::kNotSupported);
  }
}

}  // namespace
}  // namespace taco::table
