// `taco filter`: --bbox, --datetime, --level (cascade), --sql, chained; errors.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco::testing {
namespace {

std::vector<std::string> Column(const CommandResult& r, const std::string& name) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> out;
  if (r.exit_code != 0) return out;
  for (const auto& row : nlohmann::json::parse(r.out)) out.push_back(row[name]);
  return out;
}

const std::string kFlat = "/zip/flat/flat.tacozip";

TEST(FilterCommand, FlatZipAcceptanceChecks) {
  const std::string p = ShellQuote(UpstreamFixtures() + kFlat);
  EXPECT_EQ(Column(RunTaco("filter " + p + " --bbox=-0.5,39.3,-0.2,39.6 --json"), "location"),
            (std::vector<std::string>{"valencia"}));
  EXPECT_EQ(Column(RunTaco("filter " + p + " --bbox 50,50,51,51 --json"), "id").size(), 0u);
  EXPECT_EQ(Column(RunTaco("filter " + p + " --datetime 2023-01-01/2023-02-15 --json"), "id").size(), 2u);
  EXPECT_EQ(Column(RunTaco("filter " + p + " --datetime 2023-01-01 --json"), "id").size(), 1u);
  EXPECT_EQ(
      Column(RunTaco("filter " + p + " --bbox=-80,-15,-70,0 --datetime 2023-01-01/2023-06-01 --json"), "location"),
      (std::vector<std::string>{"lima"}));
  EXPECT_EQ(Column(RunTaco("filter " + p +
                           " --sql 'select * from data where cloud_cover > 20' "
                           "--datetime 2023-01-01/2023-03-31 --json"),
                   "location"),
            (std::vector<std::string>{"nyc"}));
}

TEST(FilterCommand, CsvOutputAndNoFilters) {
  const std::string p = ShellQuote(UpstreamFixtures() + kFlat);
  CommandResult r = RunTaco("filter " + p + " --bbox=-0.5,39.3,-0.2,39.6 --format csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2);
  EXPECT_NE(r.out.find("sample_0,FILE,"), std::string::npos);
  EXPECT_EQ(Column(RunTaco("filter " + p + " --json"), "id").size(), 5u);
}

TEST(FilterCommand, CascadeOnFolderNested) {
  const std::string p = ShellQuote(UpstreamFixtures() + "/folder/nested");
  EXPECT_EQ(Column(RunTaco("filter " + p + " --bbox=-0.5,39.3,13.6,52.7 --json"), "id"),
            (std::vector<std::string>{"europe"}));
  EXPECT_EQ(Column(RunTaco("filter " + p + " --bbox=-74.2,40.5,-73.8,40.9 --level 1 --json"), "id"),
            (std::vector<std::string>{"americas"}));
  EXPECT_EQ(Column(RunTaco("filter " + p + " --datetime 2023-01-01/2023-01-15 --level 1 --json"), "id").size(), 3u);
}

TEST(FilterCommand, Errors) {
  const std::string path = UpstreamFixtures() + "/folder/nested";
  CommandResult level = RunTaco("filter " + ShellQuote(path) + " --datetime 2023-01-01 --level 99");
  EXPECT_EQ(level.exit_code, 2);
  EXPECT_EQ(level.out, "");
  EXPECT_EQ(level.err, "taco: " + path + ": Level 99 does not exist (levels 0..1)\n");
  CommandResult column = RunTaco("filter " + ShellQuote(path) + " --bbox 0,0,1,1 --geometry-col nope");
  EXPECT_EQ(column.exit_code, 2);
  EXPECT_EQ(column.err.rfind("taco: " + path + ": Column 'nope' not found in level 0 (columns: id, type,", 0), 0u)
      << column.err;
  CommandResult bbox = RunTaco("filter " + ShellQuote(path) + " --bbox 1,2,3");
  EXPECT_EQ(bbox.exit_code, 2);
  EXPECT_EQ(bbox.err, "taco: --bbox '1,2,3': expected minx,miny,maxx,maxy (4 numbers)\n");
  CommandResult when = RunTaco("filter " + ShellQuote(path) + " --datetime 2023-02-01/2023-01-01");
  EXPECT_EQ(when.exit_code, 2);
  EXPECT_NE(when.err.find("start is after the end"), std::string::npos);
  CommandResult geometry = RunTaco("filter " + ShellQuote(path) + " --sql 'select id, type from data' --bbox 0,0,1,1");
  EXPECT_EQ(geometry.exit_code, 2);
  EXPECT_NE(geometry.err.find("No geometry column found"), std::string::npos) << geometry.err;
}

}  // namespace
}  // namespace taco::testing
