// `taco stats`: JSON and table output on the upstream fixtures, and errors (exit 2, one line).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "support/cli_expect.h"
#include "support/paths.h"

namespace taco::testing {
namespace {

nlohmann::json Json(const CommandResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  if (r.exit_code != 0) return nullptr;
  return nlohmann::json::parse(r.out);
}

const std::string kFlat = "/zip/flat/flat.tacozip";

TEST(StatsCommand, OneBandGivesScalars) {
  nlohmann::json j =
      Json(RunTaco("stats " + ShellQuote(UpstreamFixtures() + kFlat) + " --band 0 --json --method upstream"));
  ASSERT_TRUE(j.is_object());
  for (const char* key : {"mean", "std", "min", "max", "p25", "p50", "p75", "p95"}) {
    ASSERT_TRUE(j.contains(key)) << key;
    EXPECT_TRUE(j[key].is_number()) << key;
  }
  // Added keys only: method, samples, approximate (no bounds for upstream).
  EXPECT_EQ(j.size(), 11u);
  EXPECT_EQ(j["method"], "upstream");
  EXPECT_EQ(j["samples"], 5);
  EXPECT_NEAR(j["mean"].get<double>(), 138.96, 138.96 * 1e-4);
  EXPECT_NEAR(j["std"].get<double>(), 47.3137, 47.3137 * 1e-4);
  EXPECT_NEAR(j["p75"].get<double>(), 181.0, 181.0 * 1e-4);
  EXPECT_EQ(j["max"].get<double>(), 255.0);
}

TEST(StatsCommand, SeveralBandsGiveLists) {
  nlohmann::json j = Json(
      RunTaco("stats " + ShellQuote(UpstreamFixtures() + "/folder/flat") + " --band 0,1,2 --json --method upstream"));
  ASSERT_TRUE(j.is_object());
  ASSERT_TRUE(j["mean"].is_array());
  ASSERT_EQ(j["mean"].size(), 3u);
  EXPECT_NEAR(j["mean"][1].get<double>(), 122.52, 122.52 * 1e-4);
  EXPECT_NEAR(j["std"][2].get<double>(), 45.4435, 45.4435 * 1e-4);
}

TEST(StatsCommand, CategoricalChildren) {
  const std::string p = ShellQuote(UpstreamFixtures() + "/folder/nested");
  nlohmann::json j = Json(RunTaco("stats " + p + " --band 0 --level 1 --id europe --json"));
  ASSERT_TRUE(j.is_object());
  ASSERT_EQ(j.count("mean"), 0u);
  ASSERT_TRUE(j["categorical"].is_array());
  ASSERT_EQ(j["categorical"].size(), 3u);
  EXPECT_NEAR(j["categorical"][0].get<double>(), 0.4, 1e-4);
  nlohmann::json two = Json(RunTaco("stats " + p + " --band 0,1 --level 1 --id europe --json"));
  ASSERT_TRUE(two.is_object());
  ASSERT_EQ(two["categorical"].size(), 2u);
  EXPECT_EQ(two["categorical"][0], j["categorical"]);
  nlohmann::json americas = Json(RunTaco("stats " + p + " --band 0 --level 1 --id americas --json --method upstream"));
  ASSERT_TRUE(americas.is_object());
  EXPECT_NEAR(americas["mean"].get<double>(), (98.5 + 0.25 + 145.8) / 3, 1e-3);
}

TEST(StatsCommand, TableOutput) {
  CommandResult r = RunTaco("stats " + ShellQuote(UpstreamFixtures() + kFlat) + " --band 0,2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The table (header and one line per band), then the method line and one bounds line per band.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 6);
  EXPECT_EQ(r.out.rfind("band", 0), 0u);
  EXPECT_NE(r.out.find("mean"), std::string::npos);
  EXPECT_NE(r.out.find("\n0 "), std::string::npos);
  EXPECT_NE(r.out.find("\n2 "), std::string::npos);
}

TEST(StatsCommand, Errors) {
  const std::string flat = ShellQuote(UpstreamFixtures() + kFlat);
  const std::string nested = ShellQuote(UpstreamFixtures() + "/folder/nested");
  ExpectOneLineError(RunTaco("stats " + flat + " --band 99"), "out of range");
  ExpectOneLineError(RunTaco("stats " + flat + " --band 0,1,99 --json"), "out of range");
  ExpectOneLineError(RunTaco("stats " + flat + " --band 0 --level 99"), "does not exist");
  ExpectOneLineError(RunTaco("stats " + flat + " --band x"), "--band");
  ExpectOneLineError(RunTaco("stats " + nested + " --band 0"), "does not contain statistics");
  ExpectOneLineError(RunTaco("stats " + nested + " --band 0 --level 1"), "id is required for level > 0");
  ExpectOneLineError(RunTaco("stats " + nested + " --band 0 --level 1 --id asia"), "ragged");
  ExpectOneLineError(RunTaco("stats " + ShellQuote(UpstreamFixtures() + "/nope.tacozip") + " --band 0"),
                     "nope.tacozip");
}

}  // namespace
}  // namespace taco::testing
