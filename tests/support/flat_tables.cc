// Test tables for the engine-free Parquet writer and reader.
#include "support/flat_tables.h"

#include <limits>
#include <random>
#include <string>

namespace taco::table::testing {

Table FlatTable(size_t rows, uint32_t seed) {
  std::mt19937 rng(seed);
  auto coin = [&rng](int percent) { return static_cast<int>(rng() % 100) < percent; };
  Table t;
  t.columns = {
      {"id", DataType::String(), {}},   {"type", DataType::String(), {}}, {"internal:offset", DataType::Int64(), {}},
      {"small", DataType::Int32(), {}}, {"ratio", DataType::Float(), {}}, {"cloud", DataType::Double(), {}},
      {"flag", DataType::Bool(), {}},   {"wkb", DataType::Binary(), {}},  {"time", DataType::TimestampUs(), {}},
      {"never", DataType::String(), {}}};
  for (size_t r = 0; r < rows; ++r) {
    t.columns[0].values.emplace_back("sample_" + std::to_string(r) + (r % 3 == 0 ? "\xc3\xa9" : ""));
    t.columns[1].values.emplace_back(coin(50) ? "FILE" : "FOLDER");
    t.columns[2].values.emplace_back(static_cast<int64_t>(rng()) * (coin(50) ? -1 : 1) * 4096);
    t.columns[3].values.push_back(coin(30) ? Value() : Value(static_cast<int32_t>(rng())));
    t.columns[4].values.push_back(coin(20) ? Value() : Value(static_cast<float>(rng() % 1000) / 8.0f));
    t.columns[5].values.push_back(coin(20) ? Value() : Value(static_cast<double>(rng()) / 3.0));
    t.columns[6].values.push_back(coin(25) ? Value() : Value(coin(50)));
    t.columns[7].values.push_back(coin(10) ? Value() : Value(Binary{std::string(rng() % 40, '\x01') + '\0'}));
    t.columns[8].values.push_back(coin(10) ? Value() : Value(TimestampUs{static_cast<int64_t>(rng()) * 1000}));
    t.columns[9].values.emplace_back();
  }
  t.columns[3].values[0] = Value(std::numeric_limits<int32_t>::min());
  t.columns[2].values[0] = Value(std::numeric_limits<int64_t>::max());
  return t;
}

Table ListTable(size_t rows, uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  const DataType floats = DataType::List(DataType::Float());
  Table t;
  t.columns = {{"id", DataType::String(), {}},
               {"stac:tensor_shape", DataType::List(DataType::Int64()), {}},
               {"geotiff:stats", DataType::List(floats), {}},
               {"tags", DataType::List(DataType::String()), {}},
               {"cube", DataType::List(DataType::List(DataType::List(DataType::Int32()))), {}}};
  // A list of `n` items made by `item`, or null / empty now and then.
  auto list_of = [&](int n, auto item) -> Value {
    const int roll = pick(10);
    if (roll == 0) return Value();
    if (roll == 1) return Value(ValueList{});
    ValueList items;
    for (int i = 0; i < n; ++i) items.push_back(item());
    return Value(std::move(items));
  };
  for (size_t r = 0; r < rows; ++r) {
    t.columns[0].values.emplace_back("s" + std::to_string(r));
    t.columns[1].values.push_back(list_of(1 + pick(3), [&] { return Value(static_cast<int64_t>(pick(512))); }));
    t.columns[2].values.push_back(list_of(pick(4), [&] {
      return list_of(1 + pick(9), [&] { return pick(8) == 0 ? Value() : Value(static_cast<float>(pick(1000)) / 4); });
    }));
    t.columns[3].values.push_back(list_of(pick(3), [&] { return Value("tag" + std::to_string(pick(20))); }));
    t.columns[4].values.push_back(list_of(pick(3), [&] {
      return list_of(pick(3), [&] { return list_of(pick(3), [&] { return Value(static_cast<int32_t>(pick(9))); }); });
    }));
  }
  return t;
}

void ExpectSameTables(const Table& got, const Table& want) {
  ASSERT_EQ(got.num_columns(), want.num_columns());
  ASSERT_EQ(got.num_rows(), want.num_rows());
  for (size_t c = 0; c < want.num_columns(); ++c) {
    EXPECT_EQ(got.columns[c].name, want.columns[c].name);
    EXPECT_EQ(got.columns[c].type, want.columns[c].type)
        << want.columns[c].name << ": " << got.columns[c].type.ToString();
    for (size_t r = 0; r < want.num_rows(); ++r) {
      ASSERT_EQ(got.columns[c].values[r], want.columns[c].values[r])
          << want.columns[c].name << "[" << r << "]: " << got.columns[c].values[r].ToString() << " vs "
          << want.columns[c].values[r].ToString();
    }
  }
}

}  // namespace taco::table::testing
