// `taco sql`: output formats and the `data` rewrite (exact stdout, stderr, exit codes).
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco::testing {
namespace {

std::string Nested() { return ShellQuote(UpstreamFixtures() + "/zip/nested/nested.tacozip"); }
std::string Flat() { return ShellQuote(UpstreamFixtures() + "/zip/flat/flat.tacozip"); }

TEST(SqlCommand, CsvWithAnyCaseData) {
  CommandResult r = RunTaco("sql " + Nested() + " \"select ID from DATA order by 1\" --format csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id\namericas\nasia\neurope\n");
  EXPECT_EQ(r.err, "");
}

TEST(SqlCommand, QuotedDataAndStringLiterals) {
  CommandResult quoted = RunTaco("sql " + Nested() + " 'select id from \"data\" order by id desc' --format csv");
  EXPECT_EQ(quoted.exit_code, 0) << quoted.err;
  EXPECT_EQ(quoted.out, "id\neurope\nasia\namericas\n");
  CommandResult literal =
      RunTaco("sql " + Nested() + " \"select 'from data' as t, count(*) as n from data\" --format csv");
  EXPECT_EQ(literal.exit_code, 0) << literal.err;
  EXPECT_EQ(literal.out, "t,n\nfrom data,3\n");
}

TEST(SqlCommand, TablesDataRawAndLevels) {
  CommandResult raw =
      RunTaco("sql " + Flat() +
              " 'select \"internal:offset\" as o, \"internal:size\" as s from data_raw order by 1 limit 2'"
              " --format csv");
  EXPECT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_EQ(raw.out, "o,s\n200,16\n259,13\n");
  CommandResult level = RunTaco("sql " + Nested() + " 'select count(*) as n from level1' --format csv");
  EXPECT_EQ(level.out, "n\n9\n");
  CommandResult hidden = RunTaco("sql " + Flat() + " 'select * from data limit 1' --format csv");
  EXPECT_EQ(hidden.out.find("internal:offset"), std::string::npos);
  EXPECT_NE(hidden.out.find("internal:gdal_vsi"), std::string::npos);
}

TEST(SqlCommand, CsvQuotingBinaryListsTimestamps) {
  CommandResult r = RunTaco("sql " + Flat() +
                            " \"select 'a,b' as q, 'say \\\"hi\\\"' as w, \\\"stac:tensor_shape\\\" as s, "
                            "\\\"istac:time_start\\\" as t, \\\"istac:centroid\\\" as g, NULL as z "
                            "from data where id = 'sample_0'\" --format csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "q,w,s,t,g,z\n\"a,b\",\"say \"\"hi\"\"\",\"[3,256,256]\",2023-01-01T00:00:00,"
            "0x0101000000666666666666d6bf9a99999999b94340,\n");
}

TEST(SqlCommand, JsonIsAListOfRowObjects) {
  CommandResult r =
      RunTaco("sql " + Flat() +
              " 'select id, cloud_cover, \"stac:tensor_shape\" as shape from data order by id limit 2' --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["id"], "sample_0");
  EXPECT_EQ(j[1]["cloud_cover"], 15.0);
  EXPECT_EQ(j[0]["shape"], nlohmann::json::parse("[3,256,256]"));
  CommandResult same = RunTaco("sql " + Flat() +
                               " 'select id, cloud_cover, \"stac:tensor_shape\" as shape from data order by id limit 2'"
                               " --format json");
  EXPECT_EQ(same.out, r.out);
}

TEST(SqlCommand, TableFormatForPeople) {
  CommandResult r = RunTaco("sql " + Nested() + " 'select id, region from data order by id'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "id        region\n"
            "--------  --------\n"
            "americas  americas\n"
            "asia      asia\n"
            "europe    europe\n");
  // Geometries (WKB) are shown as WKT, cut to 40 characters without a terminal.
  CommandResult bin = RunTaco("sql " + Flat() + " 'select \"istac:geometry\" as g from data limit 1'");
  EXPECT_NE(bin.out.find("POLYGON (("), std::string::npos) << bin.out;
  EXPECT_NE(bin.out.find("..."), std::string::npos) << bin.out;
}

TEST(SqlCommand, Errors) {
  CommandResult bad = RunTaco("sql " + Flat() + " 'select nope from data'");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err.rfind("taco: ", 0), 0u) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1);
  CommandResult missing = RunTaco("sql /nonexistent/x.tacozip 'select 1'");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/x.tacozip"), std::string::npos);
  CommandResult format = RunTaco("sql " + Flat() + " 'select 1' --format xml");
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_EQ(format.err, "taco: --format: unknown format 'xml' (expected table, csv or json)\n");
}

}  // namespace
}  // namespace taco::testing
