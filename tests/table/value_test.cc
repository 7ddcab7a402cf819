// Tests of include/taco/value.h (src/util/value.cc).
#include "taco/value.h"

#include <gtest/gtest.h>

namespace taco {
namespace {

TEST(DataTypeTest, ToStringUsesPyArrowSpelling) {
  EXPECT_EQ(DataType::String().ToString(), "string");
  EXPECT_EQ(DataType::Int64().ToString(), "int64");
  EXPECT_EQ(DataType::Int32().ToString(), "int32");
  EXPECT_EQ(DataType::Float().ToString(), "float");
  EXPECT_EQ(DataType::Double().ToString(), "double");
  EXPECT_EQ(DataType::Bool().ToString(), "bool");
  EXPECT_EQ(DataType::Binary().ToString(), "binary");
  EXPECT_EQ(DataType::TimestampUs().ToString(), "timestamp[us]");
  EXPECT_EQ(DataType::List(DataType::Int64()).ToString(), "list<item: int64>");
  EXPECT_EQ(DataType::List(DataType::List(DataType::Float())).ToString(), "list<item: list<item: float>>");
  EXPECT_EQ(DataType::Struct({{"name", DataType::String()}, {"index", DataType::Int32()}}).ToString(),
            "struct<name: string, index: int32>");
}

TEST(DataTypeTest, ParseIsTheInverseOfToString) {
  std::vector<DataType> types = {
      DataType::Null(),
      DataType::Bool(),
      DataType::Int32(),
      DataType::Int64(),
      DataType::Float(),
      DataType::Double(),
      DataType::String(),
      DataType::Binary(),
      DataType::TimestampUs(),
      DataType::List(DataType::List(DataType::Float())),
      DataType::Struct({{"istac:name", DataType::String()}, {"ids", DataType::List(DataType::Int64())}}),
      DataType::List(DataType::Struct({{"a", DataType::Struct({{"b", DataType::Double()}})}, {"c", DataType::Bool()}})),
  };
  for (const DataType& type : types) {
    auto parsed = ParseDataType(type.ToString());
    ASSERT_TRUE(parsed.ok()) << type.ToString() << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, type) << type.ToString() << " → " << parsed->ToString();
  }
}

TEST(DataTypeTest, ParseRejectsUnknownTypes) {
  for (const char* text : {"", "int", "list<item: nope>", "struct<a>", "timestamp[us, tz=utc]", "list<int64"}) {
    auto parsed = ParseDataType(text);
    EXPECT_FALSE(parsed.ok()) << text;
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    }
  }
}

TEST(DataTypeTest, EqualityComparesStructure) {
  EXPECT_EQ(DataType::List(DataType::Int64()), DataType::List(DataType::Int64()));
  EXPECT_FALSE(DataType::List(DataType::Int64()) == DataType::List(DataType::Int32()));
  EXPECT_FALSE(DataType::Struct({{"a", DataType::Int64()}}) == DataType::Struct({{"b", DataType::Int64()}}));
  EXPECT_FALSE(DataType::Int64() == DataType::Double());
}

TEST(ValueTest, ToStringForPeople) {
  EXPECT_EQ(Value().ToString(), "null");
  EXPECT_EQ(Value(true).ToString(), "true");
  EXPECT_EQ(Value(int32_t{-3}).ToString(), "-3");
  EXPECT_EQ(Value(int64_t{1} << 40).ToString(), "1099511627776");
  EXPECT_EQ(Value(0.5).ToString(), "0.5");
  EXPECT_EQ(Value(0.1f).ToString(), "0.1");
  EXPECT_EQ(Value("it's").ToString(), "it's");
  EXPECT_EQ(Value(Binary{std::string("\x01\xff", 2)}).ToString(), "01ff");
  EXPECT_EQ(Value(TimestampUs{1672531200000000}).ToString(), "2023-01-01T00:00:00");
  EXPECT_EQ(Value(ValueList{Value(int64_t{3}), Value(), Value("a")}).ToString(), "[3, null, a]");
  EXPECT_EQ(Value(ValueStruct{{"name", Value("x")}, {"index", Value(int32_t{1})}}).ToString(), "{name: x, index: 1}");
}

TEST(ValueTest, FormatTimestamp) {
  EXPECT_EQ(FormatTimestampUs(0), "1970-01-01T00:00:00");
  EXPECT_EQ(FormatTimestampUs(1677715200000000), "2023-03-02T00:00:00");
  EXPECT_EQ(FormatTimestampUs(951782400000000 + 1), "2000-02-29T00:00:00.000001");
  EXPECT_EQ(FormatTimestampUs(-1), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(FormatTimestampUs(1672531200000000 + 3723500000), "2023-01-01T01:02:03.500000");
}

TEST(TableTest, FindColumn) {
  Table t;
  t.columns.push_back(Column{"id", DataType::String(), {Value("a")}});
  t.columns.push_back(Column{"istac:time_start", DataType::TimestampUs(), {Value(TimestampUs{5})}});
  EXPECT_EQ(t.FindColumn("id"), 0);
  EXPECT_EQ(t.FindColumn("istac:time_start"), 1);
  EXPECT_EQ(t.FindColumn("missing"), -1);
  EXPECT_EQ(t.column("istac:time_start").values[0], Value(TimestampUs{5}));
  EXPECT_EQ(t.num_rows(), 1u);
}

}  // namespace
}  // namespace taco
