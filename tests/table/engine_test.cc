// Tests of src/table/engine.h: mounting readers, typed results, Parquet write/read, errors.
#include "table/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <mutex>

#include "support/paths.h"
#include "taco/io.h"

namespace taco::table {
namespace {

constexpr uint64_t kLevel0Offset = 490;
constexpr uint64_t kLevel0Size = 5703;

std::string FlatZip() { return taco::testing::UpstreamFixtures() + "/zip/flat/flat.tacozip"; }

std::unique_ptr<Engine> OpenEngine() {
  auto engine = Engine::Open();
  EXPECT_TRUE(engine.ok()) << engine.status().ToString();
  return engine.ok() ? std::move(engine).value() : nullptr;
}

// Records the lowest and highest byte requested from `base`.
class RecordingReader final : public RangeReader {
 public:
  explicit RecordingReader(RangeReaderPtr base) : base_(std::move(base)) {}
  uint64_t size() const override { return base_->size(); }
  const std::string& name() const override { return base_->name(); }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      lowest_ = std::min(lowest_, offset);
      highest_end_ = std::max(highest_end_, offset + n);
    }
    return base_->ReadAt(offset, n, out);
  }
  uint64_t lowest() const {
    std::lock_guard<std::mutex> lock(mu_);
    return lowest_;
  }
  uint64_t highest_end() const {
    std::lock_guard<std::mutex> lock(mu_);
    return highest_end_;
  }

 private:
  RangeReaderPtr base_;
  mutable std::mutex mu_;
  mutable uint64_t lowest_ = std::numeric_limits<uint64_t>::max();
  mutable uint64_t highest_end_ = 0;
};

void ExpectFlatLevel0(const Table& t) {
  ASSERT_EQ(t.num_rows(), 5u);
  const Column& id = t.column("id");
  EXPECT_EQ(id.type, DataType::String());
  for (int i = 0; i < 5; ++i) EXPECT_EQ(id.values[i], Value("sample_" + std::to_string(i)));
  ASSERT_GE(t.FindColumn("istac:time_start"), 0);
  const Column& time = t.column("istac:time_start");
  EXPECT_EQ(time.type, DataType::TimestampUs());
  EXPECT_EQ(time.values[0], Value(TimestampUs{1672531200000000}));
  EXPECT_EQ(time.values[1].ToString(), "2023-01-31T00:00:00");
  ASSERT_GE(t.FindColumn("stac:tensor_shape"), 0);
  EXPECT_EQ(t.column("stac:tensor_shape").type, DataType::List(DataType::Int64()));
  EXPECT_EQ(t.column("stac:tensor_shape").values[0],
            Value(ValueList{Value(int64_t{3}), Value(int64_t{256}), Value(int64_t{256})}));
  ASSERT_GE(t.FindColumn("geotiff:stats"), 0);
  const Column& stats = t.column("geotiff:stats");
  EXPECT_EQ(stats.type, DataType::List(DataType::List(DataType::Float())));
  ASSERT_TRUE(stats.values[0].is<ValueList>());
  ASSERT_EQ(stats.values[0].get<ValueList>().size(), 3u);
  ASSERT_TRUE(stats.values[0].get<ValueList>()[0].is<ValueList>());
  EXPECT_EQ(stats.values[0].get<ValueList>()[0].get<ValueList>().size(), 9u);
  EXPECT_TRUE(stats.values[0].get<ValueList>()[0].get<ValueList>()[0].is<float>());
  ASSERT_GE(t.FindColumn("cloud_cover"), 0);
  EXPECT_EQ(t.column("cloud_cover").type, DataType::Double());
  EXPECT_EQ(t.column("cloud_cover").values[4], Value(60.0));
  EXPECT_EQ(t.column("istac:geometry").type, DataType::Binary());
  EXPECT_EQ(t.column("internal:current_id").type, DataType::Int64());
  EXPECT_EQ(t.column("internal:current_id").values[3], Value(int64_t{3}));
}

TEST(EngineTest, ReadsParquetMemberInsideZip) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto file = OpenLocalFile(FlatZip());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto member = SubRange(*file, kLevel0Offset, kLevel0Size);
  ASSERT_TRUE(member.ok()) << member.status().ToString();
  std::string path = engine->Mount(*member, "level0.parquet");
  EXPECT_EQ(path.rfind("tacofs://", 0), 0u) << path;
  auto table = engine->Query("SELECT * FROM read_parquet(" + QuoteString(path) + ")");
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ExpectFlatLevel0(*table);

  auto counted = engine->Query("SELECT count(*) AS n, max(\"cloud_cover\") AS m FROM read_parquet(" +
                               QuoteString(path) + ") WHERE id <> 'sample_0'");
  ASSERT_TRUE(counted.ok()) << counted.status().ToString();
  EXPECT_EQ(counted->column("n").type, DataType::Int64());
  EXPECT_EQ(counted->column("n").values[0], Value(int64_t{4}));
  EXPECT_EQ(counted->column("m").values[0], Value(60.0));

  engine->Unmount(path);
  auto after = engine->Query("SELECT * FROM read_parquet(" + QuoteString(path) + ")");
  EXPECT_FALSE(after.ok());
}

TEST(EngineTest, ReadsOnlyTheMemberBytesThroughCountingReader) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto file = OpenLocalFile(FlatZip());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const uint64_t file_size = (*file)->size();
  auto recording = std::make_shared<RecordingReader>(*file);
  auto member = SubRange(recording, kLevel0Offset, kLevel0Size);
  ASSERT_TRUE(member.ok()) << member.status().ToString();
  auto counting = std::make_shared<CountingReader>(*member);
  auto table = engine->ReadParquet(counting);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ExpectFlatLevel0(*table);
  EXPECT_GT(counting->bytes(), 0u);
  EXPECT_GT(counting->requests(), 0u);
  EXPECT_LT(counting->bytes(), file_size);
  EXPECT_GE(recording->lowest(), kLevel0Offset);
  EXPECT_LE(recording->highest_end(), kLevel0Offset + kLevel0Size);
}

TEST(EngineTest, MountsWithTheSameNameAreIndependent) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto first = engine->ToParquet(Table{{Column{"x", DataType::Int64(), {Value(int64_t{1})}}}});
  auto second = engine->ToParquet(Table{{Column{"x", DataType::Int64(), {Value(int64_t{2})}}}});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  std::string p1 = engine->Mount(MemoryReader(*first), "same.parquet");
  auto r1 = engine->Query("SELECT x FROM read_parquet(" + QuoteString(p1) + ")");
  engine->Unmount(p1);
  std::string p2 = engine->Mount(MemoryReader(*second), "same.parquet");
  EXPECT_NE(p1, p2);
  auto r2 = engine->Query("SELECT x FROM read_parquet(" + QuoteString(p2) + ")");
  ASSERT_TRUE(r1.ok()) << r1.status().ToString();
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  EXPECT_EQ(r1->columns[0].values[0], Value(int64_t{1}));
  EXPECT_EQ(r2->columns[0].values[0], Value(int64_t{2}));
}

Table EveryTypeTable() {
  DataType item_struct = DataType::Struct({{"name", DataType::String()}, {"index", DataType::Int32()}});
  auto s = [](const char* name, int32_t index) { return Value(ValueStruct{{"name", Value(name)}, {"index", index}}); };
  Table t;
  t.columns = {
      {"id", DataType::String(), {Value("a"), Value(), Value("c'\"é")}},
      {"count", DataType::Int64(), {Value(int64_t{-5}), Value(int64_t{1} << 50), Value()}},
      {"small", DataType::Int32(), {Value(), Value(int32_t{7}), Value(int32_t{-2147483647})}},
      {"cloud_cover", DataType::Double(), {Value(0.25), Value(), Value(-1e300)}},
      {"ratio", DataType::Float(), {Value(1.5f), Value(-0.125f), Value()}},
      {"flag", DataType::Bool(), {Value(true), Value(false), Value()}},
      {"istac:geometry", DataType::Binary(), {Value(Binary{std::string("\x01\x00\xff", 3)}), Value(), Value(Binary{})}},
      {"istac:time_start",
       DataType::TimestampUs(),
       {Value(TimestampUs{1672531200000000}), Value(TimestampUs{-1}), Value()}},
      {"stac:tensor_shape",
       DataType::List(DataType::Int64()),
       {Value(ValueList{Value(int64_t{3}), Value(int64_t{256})}), Value(),
        Value(ValueList{Value(), Value(int64_t{1})})}},
      {"geotiff:stats",
       DataType::List(DataType::List(DataType::Float())),
       {Value(ValueList{Value(ValueList{Value(1.0f), Value(2.5f)}), Value(), Value(ValueList{})}), Value(ValueList{}),
        Value()}},
      {"band",
       item_struct,
       {s("red", 0), Value(), Value(ValueStruct{{"name", Value()}, {"index", Value(int32_t{9})}})}},
      {"bands",
       DataType::List(item_struct),
       {Value(ValueList{s("red", 0), s("nir", 3)}), Value(), Value(ValueList{Value()})}},
  };
  return t;
}

TEST(EngineTest, ParquetRoundTripKeepsTypesAndValues) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  Table original = EveryTypeTable();
  auto bytes = engine->ToParquet(original);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  ASSERT_GT(bytes->size(), 8u);
  EXPECT_EQ(bytes->substr(0, 4), "PAR1");
  EXPECT_EQ(bytes->substr(bytes->size() - 4), "PAR1");

  auto back = engine->ReadParquet(MemoryReader(*bytes, "roundtrip.parquet"));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->num_columns(), original.num_columns());
  ASSERT_EQ(back->num_rows(), original.num_rows());
  for (size_t c = 0; c < original.num_columns(); ++c) {
    const Column& want = original.columns[c];
    const Column& got = back->columns[c];
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.type, want.type) << want.name << ": " << got.type.ToString();
    for (size_t r = 0; r < want.values.size(); ++r) {
      EXPECT_EQ(got.values[r], want.values[r])
          << want.name << "[" << r << "]: " << got.values[r].ToString() << " vs " << want.values[r].ToString();
    }
  }
}

TEST(EngineTest, ParquetPhysicalSchema) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto bytes = engine->ToParquet(EveryTypeTable(), ParquetWriteOptions{9, 65536});
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::string path = engine->Mount(MemoryReader(*bytes), "schema.parquet");
  auto schema = engine->Query(
      "SELECT name, type, repetition_type, converted_type, logical_type::VARCHAR AS logical "
      "FROM parquet_schema(" +
      QuoteString(path) + ")");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto row_of = [&](const std::string& name) -> int {
    const auto& names = schema->column("name").values;
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == Value(name)) return static_cast<int>(i);
    }
    return -1;
  };
  auto cell = [&](int row, const char* column) { return schema->column(column).values.at(static_cast<size_t>(row)); };
  for (const char* name : {"id", "count", "small", "cloud_cover", "ratio", "flag", "istac:geometry", "istac:time_start",
                           "stac:tensor_shape", "band"}) {
    int row = row_of(name);
    ASSERT_GE(row, 0) << name;
    EXPECT_EQ(cell(row, "repetition_type"), Value("OPTIONAL")) << name;
  }
  EXPECT_EQ(cell(row_of("id"), "type"), Value("BYTE_ARRAY"));
  EXPECT_EQ(cell(row_of("id"), "converted_type"), Value("UTF8"));
  EXPECT_EQ(cell(row_of("istac:geometry"), "type"), Value("BYTE_ARRAY"));
  EXPECT_TRUE(cell(row_of("istac:geometry"), "converted_type").is_null());
  EXPECT_TRUE(cell(row_of("istac:geometry"), "logical").is_null());
  EXPECT_EQ(cell(row_of("small"), "type"), Value("INT32"));
  EXPECT_EQ(cell(row_of("count"), "type"), Value("INT64"));
  EXPECT_EQ(cell(row_of("ratio"), "type"), Value("FLOAT"));
  EXPECT_EQ(cell(row_of("cloud_cover"), "type"), Value("DOUBLE"));
  int ts = row_of("istac:time_start");
  EXPECT_EQ(cell(ts, "type"), Value("INT64"));
  std::string logical = cell(ts, "logical").ToString();
  EXPECT_NE(logical.find("isAdjustedToUTC=0"), std::string::npos) << logical;
  EXPECT_NE(logical.find("MICROS"), std::string::npos) << logical;
  // 3-level list: <name> (LIST) / repeated "list" / optional "element".
  int list = row_of("stac:tensor_shape");
  EXPECT_EQ(cell(list, "converted_type"), Value("LIST"));
  EXPECT_EQ(cell(list + 1, "name"), Value("list"));
  EXPECT_EQ(cell(list + 1, "repetition_type"), Value("REPEATED"));
  EXPECT_EQ(cell(list + 2, "name"), Value("element"));
  EXPECT_EQ(cell(list + 2, "repetition_type"), Value("OPTIONAL"));

  auto meta = engine->Query("SELECT DISTINCT compression FROM parquet_metadata(" + QuoteString(path) + ")");
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  EXPECT_EQ(meta->column("compression").values, std::vector<Value>{Value("ZSTD")});
}

TEST(EngineTest, QueryToParquet) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto bytes = engine->QueryToParquet("SELECT range AS n, 'x' || range::VARCHAR AS s FROM range(10000);",
                                      ParquetWriteOptions{1, 4096});
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto back = engine->ReadParquet(MemoryReader(*bytes));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->num_rows(), 10000u);
  for (size_t i = 0; i < back->num_rows(); ++i) {
    ASSERT_EQ(back->column("n").values[i], Value(static_cast<int64_t>(i)));  // insertion order kept
  }
  EXPECT_EQ(back->column("s").values[12], Value("x12"));
  std::string path = engine->Mount(MemoryReader(*bytes), "rows.parquet");
  auto groups = engine->Query(
      "SELECT count(DISTINCT row_group_id) AS g, max(row_group_num_rows) AS m "
      "FROM parquet_metadata(" +
      QuoteString(path) + ")");
  ASSERT_TRUE(groups.ok()) << groups.status().ToString();
  EXPECT_GT(groups->column("g").values[0].get<int64_t>(), 1);
  EXPECT_LE(groups->column("m").values[0].get<int64_t>(), 4096);
}

TEST(EngineTest, ConvertsOtherDuckDbTypes) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto t = engine->Query(
      "SELECT 1::TINYINT AS a, 2::UINTEGER AS b, 3.25::DECIMAL(10,2) AS c, DATE '2023-01-31' AS d, "
      "sum(x) AS e, TIMESTAMPTZ '2023-01-01 00:00:00+00' AS f, INTERVAL 1 DAY AS g, [1, 2]::INTEGER[2] AS h, "
      "NULL AS i, TIMESTAMP_NS '2023-01-01 00:00:00.000001' AS j, MAP {'k': 1} AS k "
      "FROM (VALUES (1::BIGINT), (2::BIGINT)) v(x)");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->column("a").type, DataType::Int32());
  EXPECT_EQ(t->column("a").values[0], Value(int32_t{1}));
  EXPECT_EQ(t->column("b").values[0], Value(int64_t{2}));
  EXPECT_EQ(t->column("c").values[0], Value(3.25));
  EXPECT_EQ(t->column("d").values[0], Value(TimestampUs{1675123200000000}));
  EXPECT_EQ(t->column("e").type, DataType::Int64());
  EXPECT_EQ(t->column("e").values[0], Value(int64_t{3}));
  EXPECT_EQ(t->column("f").values[0], Value(TimestampUs{1672531200000000}));
  EXPECT_EQ(t->column("g").type, DataType::String());
  EXPECT_EQ(t->column("h").type, DataType::List(DataType::Int32()));
  EXPECT_EQ(t->column("h").values[0], Value(ValueList{Value(int32_t{1}), Value(int32_t{2})}));
  EXPECT_TRUE(t->column("i").values[0].is_null());
  EXPECT_EQ(t->column("j").values[0], Value(TimestampUs{1672531200000001}));
  EXPECT_EQ(t->column("k").type, DataType::String());

  auto overflow = engine->Query("SELECT 18446744073709551615::UBIGINT AS u");
  EXPECT_FALSE(overflow.ok());
}

TEST(EngineTest, GarbageBytesAreAnErrorNamingTheFile) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  std::string path = engine->Mount(MemoryReader(std::string(100, 'x')), "level0.parquet");
  auto t = engine->Query("SELECT * FROM read_parquet(" + QuoteString(path) + ")");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message().rfind("level0.parquet: ", 0), 0u) << t.status().message();
  EXPECT_EQ(t.status().message().find("tacofs://"), std::string::npos) << t.status().message();
  EXPECT_NE(t.status().message().find("magic bytes"), std::string::npos) << t.status().message();
  EXPECT_EQ(t.status().code(), StatusCode::kCorruption);

  auto read = engine->ReadParquet(MemoryReader("tiny", "/data/bad.parquet"));
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message().rfind("/data/bad.parquet: ", 0), 0u) << read.status().message();
}

TEST(EngineTest, SqlErrorsCarryDuckDbMessages) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto bad = engine->Query("SELEC 1");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Parser Error"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("SELEC 1"), std::string::npos) << bad.status().message();

  auto missing = engine->Query("SELECT * FROM no_such_table");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("no_such_table"), std::string::npos) << missing.status().message();

  Status st = engine->Execute("CREATE VIEW v AS SELECT 1 AS x; SELECT * FROM nope");
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(engine->Execute("SET threads = 2").ok());
}

TEST(EngineTest, CreateTableWithManyRows) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  constexpr size_t kRows = 100000;
  Table t;
  t.columns.push_back({"id", DataType::String(), {}});
  t.columns.push_back({"n", DataType::Int64(), {}});
  t.columns.push_back({"shape", DataType::List(DataType::Int64()), {}});
  for (size_t i = 0; i < kRows; ++i) {
    t.columns[0].values.emplace_back("sample_" + std::to_string(i));
    t.columns[1].values.emplace_back(static_cast<int64_t>(i));
    t.columns[2].values.emplace_back(ValueList{Value(static_cast<int64_t>(i % 7))});
  }
  ASSERT_TRUE(engine->CreateTable("big \"one\"", t).ok());
  auto count =
      engine->Query("SELECT count(*) AS c, sum(n) AS s, sum(shape[1]) AS z FROM " + QuoteIdentifier("big \"one\""));
  ASSERT_TRUE(count.ok()) << count.status().ToString();
  EXPECT_EQ(count->column("c").values[0], Value(int64_t{kRows}));
  EXPECT_EQ(count->column("s").values[0], Value(static_cast<int64_t>(kRows * (kRows - 1) / 2)));
  int64_t z = 0;
  for (size_t i = 0; i < kRows; ++i) z += static_cast<int64_t>(i % 7);
  EXPECT_EQ(count->column("z").values[0], Value(z));
  auto row = engine->Query("SELECT id FROM " + QuoteIdentifier("big \"one\"") + " WHERE n = 54321");
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(row->column("id").values, std::vector<Value>{Value("sample_54321")});
}

TEST(EngineTest, CreateTableRejectsMismatchedValues) {
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  Table t{{Column{"n", DataType::Int64(), {Value(int64_t{1}), Value("two")}}}};
  Status st = engine->CreateTable("t", t);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("\"n\""), std::string::npos) << st.message();
  Table ragged{{Column{"a", DataType::Int64(), {Value(int64_t{1})}}, Column{"b", DataType::Int64(), {}}}};
  EXPECT_FALSE(engine->CreateTable("r", ragged).ok());
}

TEST(QuoteTest, IdentifiersAndStrings) {
  EXPECT_EQ(QuoteIdentifier("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(QuoteIdentifier("istac:time_start"), "\"istac:time_start\"");
  EXPECT_EQ(QuoteString("it's"), "'it''s'");
  EXPECT_EQ(QuoteString(""), "''");
  auto engine = OpenEngine();
  ASSERT_NE(engine, nullptr);
  auto t = engine->Query("SELECT " + QuoteString("it's \"x\"") + " AS " + QuoteIdentifier("we\"ird:name"));
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->columns[0].name, "we\"ird:name");
  EXPECT_EQ(t->columns[0].values[0], Value("it's \"x\""));
}

}  // namespace
}  // namespace taco::table
