// Issue 16 A: `--datetime` honours the time of day (UTC; a date alone is the whole day),
// open ranges (../B, A/..) and partial dates (2023, 2023-06), as STAC APIs do.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

class DatetimeFilter : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_ / "src");
    for (const char* id : {"a", "b", "c", "d", "e"}) WriteFile(dir_ / ("src/" + std::string(id)), id);
    // Times as written in STAC metadata; b has an offset (11:50+01:00 = 10:50Z).
    WriteFile(dir_ / "meta.csv",
              "path,stac:time_start\n"
              "a,2023-06-01T10:34:00Z\n"
              "b,2023-06-01T11:50:00+01:00\n"
              "c,2023-06-01T12:30:00Z\n"
              "d,2023-07-15T00:00:00Z\n"
              "e,2024-01-01T00:00:00Z\n");
    WriteFile(dir_ / "c.json",
              R"({"id": "times", "dataset_version": "1.0.0", "description": "datetime filter",
                  "licenses": ["CC-BY-4.0"], "providers": [{"name": "Test"}], "tasks": ["classification"]})");
    CommandResult r =
        RunTaco("create " + ShellQuote(dir_ / "src") + " " + ShellQuote(dir_ / "ds.tacozip") + " --collection " +
                ShellQuote(dir_ / "c.json") + " --metadata " + ShellQuote(dir_ / "meta.csv"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  std::vector<std::string> Ids(const std::string& range) {
    CommandResult r =
        RunTaco("filter " + ShellQuote(dir_ / "ds.tacozip") + " --datetime " + ShellQuote(range) + " --json");
    EXPECT_EQ(r.exit_code, 0) << range << ": " << r.err;
    std::vector<std::string> ids;
    auto rows = nlohmann::json::parse(r.out, nullptr, false);
    if (!rows.is_array()) return ids;
    for (const auto& row : rows) ids.push_back(row["id"]);
    return ids;
  }
  TempDir dir_;
};

using IdList = std::vector<std::string>;

TEST_F(DatetimeFilter, TimesOfDayCount) {
  EXPECT_EQ(Ids("2023-06-01T12:00:00Z/2023-06-01T13:00:00Z"), (IdList{"c"}));
  EXPECT_EQ(Ids("2023-06-01T10:00Z/2023-06-01T11:00Z"), (IdList{"a", "b"}));
  EXPECT_EQ(Ids("2023-06-01T12:00:00+02:00/2023-06-01T10:40:00Z"), (IdList{"a"}));  // 10:00Z..10:40Z
  EXPECT_EQ(Ids("2023-06-01T12:30:00Z"), (IdList{"c"}));                            // an instant
  EXPECT_EQ(Ids("2023-06-01"), (IdList{"a", "b", "c"}));                            // the whole day
  EXPECT_EQ(Ids("2023-06-01/2023-06-01"), (IdList{"a", "b", "c"}));
}

TEST_F(DatetimeFilter, OpenRangesAndPartialDates) {
  EXPECT_EQ(Ids("2023"), (IdList{"a", "b", "c", "d"}));
  EXPECT_EQ(Ids("2023-07"), (IdList{"d"}));
  EXPECT_EQ(Ids("../2023-06"), (IdList{"a", "b", "c"}));
  EXPECT_EQ(Ids("2023-07/.."), (IdList{"d", "e"}));
  EXPECT_EQ(Ids("/2023-06-01T11:00Z"), (IdList{"a", "b"}));
  EXPECT_EQ(Ids("2023-06-01T12:00Z/"), (IdList{"c", "d", "e"}));
  EXPECT_EQ(Ids("2023-06/2023-07"), (IdList{"a", "b", "c", "d"}));
}

TEST_F(DatetimeFilter, BadRangesAreExplained) {
  for (const char* bad : {"../..", "yesterday", "2023-06-01T25:00Z", "2023-07/2023-06"}) {
    CommandResult r = RunTaco("filter " + ShellQuote(dir_ / "ds.tacozip") + " --datetime " + ShellQuote(bad));
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("datetime '"), std::string::npos) << r.err;
  }
  CommandResult help = RunTaco("filter --help");
  EXPECT_NE(help.out.find("../B"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace taco::testing
