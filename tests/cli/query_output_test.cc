// Table output for people (fits the terminal, never cuts ids or GDAL paths, --no-trunc,
// --limit, --columns, WKB as WKT), the SQL WKB functions, SQL statements (errors show the
// user's query, DESCRIBE/SHOW TABLES/SUMMARIZE, one statement only), `info` fields, and
// sql/filter/export over several datasets.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

std::string Flat() { return ShellQuote(UpstreamFixtures() + "/zip/flat/flat.tacozip"); }

TEST(SqlFunctions, WkbAsTextAndBbox) {
  CommandResult r = RunTaco("sql " + Flat() +
                            " \"select taco_wkb_as_text(\\\"istac:centroid\\\") as t, ST_AsText(\\\"istac:centroid\\\") "
                            "as s, taco_wkb_bbox(\\\"istac:centroid\\\").xmin as x, taco_wkb_bbox(\\\"istac:geometry\\\")"
                            ".ymax > taco_wkb_bbox(\\\"istac:geometry\\\").ymin as tall from data where id = 'sample_0'\""
                            " --format csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "t,s,x,tall\nPOINT (-0.35 39.45),POINT (-0.35 39.45),-0.35,true\n");
  CommandResult bad = RunTaco("sql " + Flat() + " \"select taco_wkb_as_text('\\\\x01'::BLOB)\"");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("taco_wkb_as_text: WKB: truncated"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace taco::testing
