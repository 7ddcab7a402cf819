// Metadata files for `taco create --metadata`: CSV parsing, cell typing, type unions,
// ISO-8601 datetimes, JSON Lines, and the errors that name file and line.
#include <gtest/gtest.h>

#include "support/paths.h"
#include "table/engine.h"
#include "write/metadata_files.h"

namespace taco::testing {
namespace {

using write::CastCell;
using write::CellFromJson;
using write::CellFromText;
using write::MetadataSet;
using write::ParseIsoDatetime;
using write::UnifyTypes;

int64_t Micros(std::string_view text) {
  int64_t v = -1;
  EXPECT_TRUE(ParseIsoDatetime(text, &v)) << text;
  return v;
}

TEST(CellTyping, CsvScalars) {
  EXPECT_EQ(CellFromText("42").type, DataType::Int64());
  EXPECT_EQ(CellFromText("42").value, Value(int64_t{42}));
  EXPECT_EQ(CellFromText("-7").value, Value(int64_t{-7}));
  EXPECT_EQ(CellFromText("2.5").type, DataType::Double());
  EXPECT_EQ(CellFromText("1e3").value, Value(1000.0));
  EXPECT_EQ(CellFromText(".5").value, Value(0.5));
  EXPECT_EQ(CellFromText("true").value, Value(true));
  EXPECT_EQ(CellFromText("FALSE").value, Value(false));
  EXPECT_EQ(CellFromText("2023-01-02T03:04:05").type, DataType::TimestampUs());
  EXPECT_EQ(CellFromText("hello").type, DataType::String());
  EXPECT_EQ(CellFromText("1.2.3").type, DataType::String());
  EXPECT_EQ(CellFromText("nan").type, DataType::String());
  EXPECT_EQ(CellFromText("12abc").type, DataType::String());
  // Larger than int64: a double.
  EXPECT_EQ(CellFromText("99999999999999999999").type, DataType::Double());
}

TEST(CellTyping, IsoDatetimes) {
  EXPECT_EQ(Micros("1970-01-01"), 0);
  EXPECT_EQ(Micros("1970-01-02T00:00:01"), 86401000000);
  EXPECT_EQ(Micros("2023-01-01T00:00:00Z"), 1672531200000000);
  EXPECT_EQ(Micros("2023-01-01 00:00:00.5"), 1672531200500000);
  EXPECT_EQ(Micros("2023-01-01T01:30:00+01:30"), 1672531200000000);
  EXPECT_EQ(Micros("2022-12-31T23:00:00-01:00"), 1672531200000000);
  EXPECT_EQ(Micros("2024-02-29T12:00"), 1709208000000000);
  EXPECT_EQ(Micros("2023-01-01T00:00:00.1234567"), 1672531200123456);
  int64_t v;
  EXPECT_FALSE(ParseIsoDatetime("2023-02-29", &v));  // not a leap year
  EXPECT_FALSE(ParseIsoDatetime("2023-13-01", &v));
  EXPECT_FALSE(ParseIsoDatetime("2023-01-01T25:00:00", &v));
  EXPECT_FALSE(ParseIsoDatetime("2023-1-1", &v));
  EXPECT_FALSE(ParseIsoDatetime("2023-01-01T00:00:00 UTC", &v));
  EXPECT_FALSE(ParseIsoDatetime("20230101", &v));
}

TEST(CellTyping, JsonValues) {
  using J = nlohmann::ordered_json;
  EXPECT_EQ(CellFromJson(J(5)).type, DataType::Int64());
  EXPECT_EQ(CellFromJson(J(5.5)).type, DataType::Double());
  EXPECT_EQ(CellFromJson(J(true)).type, DataType::Bool());
  EXPECT_EQ(CellFromJson(J("x")).type, DataType::String());
  EXPECT_EQ(CellFromJson(J("5")).type, DataType::String());  // a JSON string stays a string
  EXPECT_EQ(CellFromJson(J("2023-05-01T00:00:00")).type, DataType::TimestampUs());

  write::MetadataCell list = CellFromJson(J::parse("[1, 2.5, null]"));
  EXPECT_EQ(list.type, DataType::List(DataType::Double()));
  EXPECT_EQ(list.value, Value(ValueList{Value(1.0), Value(2.5), Value()}));

  write::MetadataCell nested = CellFromJson(J::parse("[[1], [2, 3]]"));
  EXPECT_EQ(nested.type.ToString(), "list<item: list<item: int64>>");

  write::MetadataCell mixed = CellFromJson(J::parse("[1, \"a\"]"));
  EXPECT_EQ(mixed.type, DataType::List(DataType::String()));
  EXPECT_EQ(mixed.value, Value(ValueList{Value("1"), Value("a")}));

  write::MetadataCell object = CellFromJson(J::parse(R"({"a": 1, "b": "x"})"));
  EXPECT_EQ(object.type.ToString(), "struct<a: int64, b: string>");
}

TEST(CellTyping, Unions) {
  EXPECT_EQ(UnifyTypes(DataType::Int64(), DataType::Double()), DataType::Double());
  EXPECT_EQ(UnifyTypes(DataType::Int32(), DataType::Int64()), DataType::Int64());
  EXPECT_EQ(UnifyTypes(DataType::Null(), DataType::Bool()), DataType::Bool());
  EXPECT_EQ(UnifyTypes(DataType::Bool(), DataType::Int64()), DataType::String());
  EXPECT_EQ(UnifyTypes(DataType::TimestampUs(), DataType::String()), DataType::String());
  EXPECT_EQ(UnifyTypes(DataType::List(DataType::Int64()), DataType::List(DataType::Double())),
            DataType::List(DataType::Double()));
  EXPECT_EQ(UnifyTypes(DataType::List(DataType::Int64()), DataType::Int64()), DataType::String());
  // Casting keeps the text as written when a column falls back to string.
  EXPECT_EQ(CastCell(CellFromText("007"), DataType::String()), Value("007"));
  EXPECT_EQ(CastCell(CellFromText("3"), DataType::Double()), Value(3.0));
  EXPECT_EQ(CastCell(CellFromText("2023-01-01"), DataType::String()), Value("2023-01-01"));
}

TEST(CsvParsing, QuotesNewlinesAndLines) {
  auto records = write::ParseCsv("\xEF\xBB\xBFpath,a\r\n\"x,1\",\"say \"\"hi\"\"\"\n\ny,\"two\nlines\"\nz,", "f.csv");
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 4u);
  EXPECT_EQ((*records)[0].fields, (std::vector<std::string>{"path", "a"}));
  EXPECT_EQ((*records)[1].fields, (std::vector<std::string>{"x,1", "say \"hi\""}));
  EXPECT_EQ((*records)[2].fields, (std::vector<std::string>{"y", "two\nlines"}));
  EXPECT_EQ((*records)[2].line, 4u);
  EXPECT_EQ((*records)[3].fields, (std::vector<std::string>{"z", ""}));
  EXPECT_EQ((*records)[3].line, 6u);

  auto bad = write::ParseCsv("path\n\"open", "f.csv");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "f.csv:2: unterminated quoted field");
}

TEST(MetadataSetTest, CsvColumnsAreTypedOverAllCells) {
  TempDir dir;
  const std::string csv = dir / "m.csv";
  WriteFile(csv,
            "path,ints,nums,flags,when,text,mixed,empty\n"
            "a,1,1,true,2023-01-01,x,1,\n"
            "./b/,2,2.5,false,2023-01-02T10:00:00Z,y,true,\n"
            "c/d,,,,,,,\n");
  MetadataSet set;
  ASSERT_TRUE(set.AddFile(csv).ok());
  std::vector<std::string> widened;
  ASSERT_TRUE(set.Finish(/*strict=*/false, &widened).ok());
  ASSERT_EQ(widened.size(), 1u);
  EXPECT_EQ(widened[0], "metadata column 'mixed' mixes types: int64 (first at " + csv + ":2: 1), bool (first at " +
                            csv + ":3: true); stored as string");
  EXPECT_EQ(set.columns(), (std::vector<std::string>{"ints", "nums", "flags", "when", "text", "mixed"}));
  std::vector<std::string> types;
  for (const DataType& t : set.types()) types.push_back(t.ToString());
  EXPECT_EQ(types, (std::vector<std::string>{"int64", "double", "bool", "timestamp[us]", "string", "string"}));
  ASSERT_EQ(set.rows().size(), 3u);
  EXPECT_EQ(set.rows()[1].path, "b");
  EXPECT_EQ(set.rows()[2].path, "c/d");
  EXPECT_TRUE(set.rows()[2].cells.empty());
  EXPECT_EQ(set.rows()[1].where, csv + ":3");
  // nums: the int cell becomes a double; mixed: the text as written.
  const auto& a = set.rows()[0].cells;
  EXPECT_EQ(set.CellValue(a[1].first, a[1].second), Value(1.0));
  EXPECT_EQ(set.CellValue(a[5].first, a[5].second), Value("1"));
}

TEST(MetadataSetTest, JsonLinesKeepTypesAndListsAndMergeColumns) {
  TempDir dir;
  WriteFile(dir / "a.csv", "path,x\np,1\n");
  WriteFile(dir / "b.jsonl", "{\"path\": \"q\", \"y\": [1, 2], \"x\": 2.5}\n\n{\"path\": \"r\", \"z\": null}\n");
  MetadataSet set;
  ASSERT_TRUE(set.AddFile(dir / "a.csv").ok());
  ASSERT_TRUE(set.AddFile(dir / "b.jsonl").ok());
  ASSERT_TRUE(set.Finish().ok());
  EXPECT_EQ(set.columns(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(set.types()[0], DataType::Double());
  EXPECT_EQ(set.types()[1], DataType::List(DataType::Int64()));
  EXPECT_EQ(set.rows()[2].where, dir / "b.jsonl:3");
}

TEST(MetadataSetTest, ParquetColumnsKeepTheirTypes) {
  TempDir dir;
  Table table;
  table.columns.push_back({"path", DataType::String(), {Value("a"), Value("./b")}});
  table.columns.push_back({"k", DataType::Int32(), {Value(int32_t{5}), Value()}});
  table.columns.push_back({"l", DataType::List(DataType::Double()), {Value(ValueList{Value(1.5)}), Value()}});
  auto engine = table::Engine::Open();
  ASSERT_TRUE(engine.ok()) << engine.status().ToString();
  auto bytes = (*engine)->ToParquet(table);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  WriteFile(dir / "m.parquet", *bytes);
  MetadataSet set;
  Status status = set.AddFile(dir / "m.parquet");
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_TRUE(set.Finish().ok());
  EXPECT_EQ(set.columns(), (std::vector<std::string>{"k", "l"}));
  EXPECT_EQ(set.types()[0], DataType::Int32());
  EXPECT_EQ(set.types()[1], DataType::List(DataType::Double()));
  ASSERT_EQ(set.rows().size(), 2u);
  EXPECT_EQ(set.rows()[1].path, "b");
  EXPECT_TRUE(set.rows()[1].cells.empty());
  EXPECT_EQ(set.rows()[1].where, dir / "m.parquet:2");
}

TEST(MetadataSetTest, TypeConflictsAreRefusedWhenStrict) {
  TempDir dir;
  auto finish = [&](const std::string& name, const std::string& text, bool strict, std::vector<std::string>* widened) {
    WriteFile(dir / name, text);
    MetadataSet set;
    Status added = set.AddFile(dir / name);
    EXPECT_TRUE(added.ok()) << added.ToString();
    return set.Finish(strict, widened);
  };
  Status a = finish("a.jsonl", "{\"path\": \"p\", \"x\": 1}\n{\"path\": \"q\", \"x\": \"a\"}\n", true, nullptr);
  EXPECT_EQ(a.message(), "metadata column 'x' mixes types: int64 (first at " +
                             dir / "a.jsonl:1: 1), string (first at " +
                             dir /
                                 "a.jsonl:2: a); make the values agree, or use the non-strict mode (--non-strict) to "
                                 "store the column as text");
  Status b = finish("b.jsonl", "{\"path\": \"p\", \"x\": [1]}\n{\"path\": \"q\", \"x\": 1}\n", true, nullptr);
  EXPECT_NE(b.message().find("list<item: int64> (first at " + dir / "b.jsonl:1: [1]), int64 (first at"),
            std::string::npos)
      << b.message();
  Status c = finish("c.csv", "path,when\np,2023-01-01\nq,2023-01-02\nr,yesterday\n", true, nullptr);
  EXPECT_NE(c.message().find("timestamp[us] (first at " + dir / "c.csv:2: 2023-01-01), string (first at " +
                             dir / "c.csv:4: yesterday)"),
            std::string::npos)
      << c.message();
  Status d = finish("d.jsonl", "{\"path\": \"p\", \"x\": [1, \"a\"]}\n", true, nullptr);
  EXPECT_NE(d.message().find("list<item: string> of mixed items (first at"), std::string::npos) << d.message();
  // Compatible values are no conflict: ints and doubles, lists of them, structs with new fields.
  std::vector<std::string> widened;
  EXPECT_TRUE(finish("e.jsonl",
                     "{\"path\": \"p\", \"x\": 1, \"y\": [1], \"z\": {\"a\": 1}}\n"
                     "{\"path\": \"q\", \"x\": 2.5, \"y\": [2.5], \"z\": {\"b\": \"s\"}}\n",
                     true, &widened)
                  .ok());
  EXPECT_TRUE(widened.empty());
  // Non-strict: widened and reported.
  EXPECT_TRUE(finish("c.csv", "path,when\np,2023-01-01\nr,yesterday\n", false, &widened).ok());
  ASSERT_EQ(widened.size(), 1u);
  EXPECT_NE(widened[0].find("stored as string"), std::string::npos);
}

TEST(MetadataSetTest, ErrorsNameFileAndLine) {
  TempDir dir;
  auto error_of = [&](const std::string& name, const std::string& text) {
    WriteFile(dir / name, text);
    MetadataSet set;
    Status status = set.AddFile(dir / name);
    EXPECT_FALSE(status.ok()) << name;
    return status.message();
  };
  EXPECT_EQ(error_of("a.csv", "x,y\n1,2\n"),
            dir / "a.csv:1: no 'path' column (the sample's path relative to the source)");
  EXPECT_EQ(error_of("b.csv", "path,y\np,1,2\n"), dir / "b.csv:2: 3 fields, the header has 2");
  EXPECT_EQ(error_of("c.csv", "path,y\np,1\nq,2\n./p,3\n"),
            dir / "c.csv:4: column 'y' of 'p' is already given at " + dir / "c.csv:2");
  EXPECT_NE(error_of("d.csv", "path,bad key\np,1\n").find(dir / "d.csv:1: column 'bad key': extension key"),
            std::string::npos);
  EXPECT_NE(error_of("e.jsonl", "{\"path\": \"p\"}\n{oops}\n").find(dir / "e.jsonl:2: is not valid JSON"),
            std::string::npos);
  EXPECT_EQ(error_of("f.jsonl", "[1]\n"), dir / "f.jsonl: element 0: expected a JSON object, got number");
  EXPECT_EQ(error_of("g.txt", "path\n"),
            dir / "g.txt: unknown metadata format (use .csv, .jsonl/.ndjson/.json or .parquet)");
  EXPECT_EQ(error_of("h.csv", "path,y\np,\np,\n"), dir / "h.csv:3: path 'p' is already given at " + dir / "h.csv:2");
  EXPECT_EQ(error_of("i.csv", "path,id\np,1\n"),
            dir / "i.csv:1: column 'id': extension key 'id' is reserved (id, type and path are core fields)");
}

}  // namespace
}  // namespace taco::testing
