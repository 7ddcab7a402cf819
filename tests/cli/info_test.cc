// `taco info` on the upstream fixtures (FORMAT §9.1/§9.2) and on bad input.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco::testing {
namespace {

nlohmann::json InfoJson(const std::string& path) {
  CommandResult r = RunTaco("info --json " + ShellQuote(path));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return nlohmann::json::parse(r.out);
}

std::vector<std::string> ColumnNames(const nlohmann::json& level) {
  std::vector<std::string> names;
  for (const auto& c : level["columns"]) names.push_back(c[0].get<std::string>());
  return names;
}

TEST(InfoCommand, FlatZipHeaderAndLevel0) {
  nlohmann::json j = InfoJson(UpstreamFixtures() + "/zip/flat/flat.tacozip");
  EXPECT_EQ(j["format"], "zip");
  EXPECT_EQ(j["id"], "test_dataset");
  ASSERT_EQ(j["header"].size(), 2u);
  EXPECT_EQ(j["header"][0]["offset"], 490);
  EXPECT_EQ(j["header"][0]["length"], 5703);
  EXPECT_EQ(j["header"][1]["offset"], 6238);
  EXPECT_EQ(j["header"][1]["length"], 2486);  // COLLECTION.json of tacotoolbox 0.26.9
  ASSERT_EQ(j["levels"].size(), 1u);
  EXPECT_EQ(j["levels"][0]["level"], 0);
  EXPECT_EQ(j["levels"][0]["rows"], 5);
  std::vector<std::string> expected = {"id",
                                       "type",
                                       "istac:geometry",
                                       "istac:centroid",
                                       "istac:time_start",
                                       "cloud_cover",
                                       "location",
                                       "stac:tensor_shape",
                                       "geotiff:stats",
                                       "internal:current_id",
                                       "internal:parent_id",
                                       "internal:offset",
                                       "internal:size"};
  EXPECT_EQ(ColumnNames(j["levels"][0]), expected);
  nlohmann::json types = j["levels"][0]["columns"];
  EXPECT_EQ(types[4][1], "timestamp[us]");
  EXPECT_EQ(types[7][1], "list<item: int64>");
  EXPECT_EQ(types[8][1], "list<item: list<item: float>>");
  EXPECT_EQ(types[2][1], "binary");
  EXPECT_EQ(j["pit_schema"]["root"]["n"], 5);
  EXPECT_EQ(j["pit_schema"]["root"]["type"], "FILE");
  EXPECT_EQ(j["collection"]["taco_version"], "0.5.0");
}

TEST(InfoCommand, NestedZipHasThreeHeaderEntriesAndTwoLevels) {
  nlohmann::json j = InfoJson(UpstreamFixtures() + "/zip/nested/nested.tacozip");
  ASSERT_EQ(j["header"].size(), 3u);
  EXPECT_EQ(j["header"][0]["offset"], 14823);
  EXPECT_EQ(j["header"][1]["offset"], 18354);
  EXPECT_EQ(j["header"][2]["length"], 4230);  // COLLECTION.json of tacotoolbox 0.26.9
  ASSERT_EQ(j["levels"].size(), 2u);
  EXPECT_EQ(j["levels"][0]["rows"], 3);
  EXPECT_EQ(j["levels"][1]["rows"], 9);
  EXPECT_EQ(j["pit_schema"]["hierarchy"]["1"][0]["n"], 9);
}

TEST(InfoCommand, FolderFixtures) {
  nlohmann::json flat = InfoJson(UpstreamFixtures() + "/folder/flat");
  EXPECT_EQ(flat["format"], "folder");
  EXPECT_FALSE(flat.contains("header"));
  ASSERT_EQ(flat["levels"].size(), 1u);
  EXPECT_EQ(flat["levels"][0]["rows"], 5);

  nlohmann::json nested = InfoJson(UpstreamFixtures() + "/folder/nested/");
  EXPECT_EQ(nested["format"], "folder");
  ASSERT_EQ(nested["levels"].size(), 2u);
  EXPECT_EQ(nested["levels"][0]["rows"], 3);
  EXPECT_EQ(nested["levels"][1]["rows"], 9);
  std::vector<std::string> names = ColumnNames(nested["levels"][1]);
  EXPECT_NE(std::find(names.begin(), names.end(), "internal:relative_path"), names.end());
}

TEST(InfoCommand, HumanOutputNamesFormatAndLevels) {
  CommandResult r = RunTaco("info " + ShellQuote(UpstreamFixtures() + "/zip/nested/nested.tacozip"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("format:        zip"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("level 1:       9 rows"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("offset 24694, length 4230  COLLECTION.json"), std::string::npos) << r.out;
}

TEST(InfoCommand, PitPatternsBelowLevelOneNameTheirParentPosition) {
  TempDir dir;
  for (const std::string t : {"t0", "t1"}) {
    const std::string folder = dir / ("src/r0/" + t);
    std::filesystem::create_directories(folder);
    WriteFile(folder + "/" + t + ".bin", "x");
  }
  WriteFile(dir / "c.json", R"({"id": "x", "dataset_version": "1", "description": "d", "licenses": ["x"],
    "providers": [{"name": "p"}], "tasks": ["other"]})");
  const std::string zip = dir / "o.tacozip";
  CommandResult made = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(zip) + " --collection " +
                               ShellQuote(dir / "c.json"));
  ASSERT_EQ(made.exit_code, 0) << made.err;
  CommandResult r = RunTaco("info " + ShellQuote(zip));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("level 2 under t0: n 1, children t0.bin (FILE)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("level 2 under t1: n 1, children t1.bin (FILE)"), std::string::npos) << r.out;
}

TEST(InfoCommand, MissingPathIsExit2WithOneLine) {
  CommandResult r = RunTaco("info /nonexistent/x.tacozip");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("taco: /nonexistent/x.tacozip: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST(InfoCommand, NotAZipIsExit2) {
  TempDir tmp;
  WriteFile(tmp / "bad.tacozip", std::string(300, 'x'));
  CommandResult r = RunTaco("info " + ShellQuote(tmp / "bad.tacozip"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.tacozip: not a TACO ZIP"), std::string::npos) << r.err;
}

TEST(InfoCommand, TruncatedZipNamesTheProblem) {
  TempDir tmp;
  std::string bytes = ReadFile(UpstreamFixtures() + "/zip/flat/flat.tacozip");
  WriteFile(tmp / "cut.tacozip", bytes.substr(0, 3000));  // header pairs now point past the end
  CommandResult r = RunTaco("info " + ShellQuote(tmp / "cut.tacozip"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cut.tacozip"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("past the end"), std::string::npos) << r.err;
}

TEST(InfoCommand, FolderWithoutCollectionIsExit2) {
  TempDir tmp;
  CommandResult r = RunTaco("info " + ShellQuote(tmp.path()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("COLLECTION.json"), std::string::npos) << r.err;
}

TEST(InfoCommand, BadCollectionJson) {
  TempDir tmp;
  std::string root = tmp / "ds";
  ASSERT_EQ(RunCommand("cp -r " + ShellQuote(UpstreamFixtures() + "/folder/flat") + " " + ShellQuote(root)).exit_code,
            0);
  WriteFile(root + "/COLLECTION.json", "{not json");
  CommandResult r = RunTaco("info " + ShellQuote(root));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("COLLECTION.json: is not valid JSON"), std::string::npos) << r.err;
}

TEST(Cli, UsageErrorsAreExit2AndHelpIsExit0) {
  EXPECT_EQ(RunTaco("").exit_code, 2);
  EXPECT_EQ(RunTaco("info").exit_code, 2);
  EXPECT_EQ(RunTaco("frobnicate").exit_code, 2);
  CommandResult help = RunTaco("info --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--json"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace taco::testing
