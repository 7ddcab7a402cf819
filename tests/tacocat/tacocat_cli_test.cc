// The command line: `taco create --split-size` parts → `taco tacocat` (folder and
// --single-file) → `taco sql` counts and `taco read`/`taco cat` bytes; `taco tacollection`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;
using testing::WriteFile;

const char* const kRegions[] = {"r0", "r1", "r2"};
const char* const kItems[] = {"item_a", "item_b"};

std::string Bytes(const std::string& region, const std::string& item) {
  std::string s;
  while (s.size() < 2000) s += region + "/" + item + ";";
  return s;
}

// The last non-empty line of `text`.
std::string LastLine(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

class TacocatCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* r : kRegions) {
      fs::create_directories(dir_ / ("src/" + std::string(r)));
      for (const char* i : kItems) WriteFile(dir_ / ("src/" + std::string(r) + "/" + i), Bytes(r, i));
    }
    WriteFile(dir_ / "collection.json",
              R"({"id": "cli_test", "dataset_version": "1.0.0", "description": "tacocat cli test",
                  "licenses": ["CC-BY-4.0"], "providers": [{"name": "Test"}], "tasks": ["classification"]})");
    auto created = RunTaco("create " + ShellQuote(dir_ / "src") + " " + ShellQuote(dir_ / "out/ds.tacozip") +
                           " --collection " + ShellQuote(dir_ / "collection.json") + " --split-size 1K");
    ASSERT_EQ(created.exit_code, 0) << created.err;
    for (int p = 1; p <= 3; ++p) {
      parts_.push_back(dir_ / ("out/ds_part000" + std::to_string(p) + ".tacozip"));
      ASSERT_TRUE(fs::exists(parts_.back())) << created.out;
    }
  }

  std::string PartArgs() const {
    std::string args;
    for (const auto& p : parts_) {
      args += ' ';
      args += ShellQuote(p);
    }
    return args;
  }

  int64_t Count(const std::string& path) {
    auto r = RunTaco("sql " + ShellQuote(path) + " \"select count(*) from data\" --format csv");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return std::stoll(LastLine(r.out));
  }

  // Counts equal the parts' sum; every sample's bytes and GDAL path are right.
  void CheckConsolidated(const std::string& path) {
    int64_t sum = 0;
    for (const auto& p : parts_) sum += Count(p);
    EXPECT_EQ(sum, 3);
    EXPECT_EQ(Count(path), sum);
    for (int r = 0; r < 3; ++r) {
      for (const char* item : kItems) {
        const std::string region = kRegions[r];
        auto cat = RunTaco("cat " + ShellQuote(path) + " " + region + " " + item);
        ASSERT_EQ(cat.exit_code, 0) << cat.err;
        EXPECT_EQ(cat.out, Bytes(region, item)) << region << "/" << item;
        auto read = RunTaco("read " + ShellQuote(path) + " " + region + " " + item);
        ASSERT_EQ(read.exit_code, 0) << read.err;
        EXPECT_EQ(read.out.rfind("/vsisubfile/", 0), 0u) << read.out;
        EXPECT_NE(read.out.find("ds_part000" + std::to_string(r + 1) + ".tacozip"), std::string::npos) << read.out;
      }
    }
  }

  TempDir dir_;
  std::vector<std::string> parts_;
};

TEST_F(TacocatCliTest, CreateSplitWritesTacocat) {
  ASSERT_TRUE(fs::exists(dir_ / "out/.tacocat/COLLECTION.json"));
  CheckConsolidated(dir_ / "out/.tacocat");
  CheckConsolidated(dir_ / "out");
}

TEST_F(TacocatCliTest, NoConsolidateWritesOnlyTheParts) {
  auto created = RunTaco("create " + ShellQuote(dir_ / "src") + " " + ShellQuote(dir_ / "solo/ds.tacozip") +
                         " --collection " + ShellQuote(dir_ / "collection.json") + " --split-size 1K --no-consolidate");
  ASSERT_EQ(created.exit_code, 0) << created.err;
  EXPECT_TRUE(fs::exists(dir_ / "solo/ds_part0001.tacozip"));
  EXPECT_TRUE(fs::exists(dir_ / "solo/ds_part0003.tacozip"));
  EXPECT_FALSE(fs::exists(dir_ / "solo/.tacocat"));
  auto r = RunTaco("tacocat " + ShellQuote(dir_ / "solo/ds_part0001.tacozip") + " " +
                   ShellQuote(dir_ / "solo/ds_part0002.tacozip") + " " + ShellQuote(dir_ / "solo/ds_part0003.tacozip"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Count(dir_ / "solo/.tacocat"), 3);
}

TEST_F(TacocatCliTest, TacocatFolder) {
  fs::remove_all(dir_ / "out/.tacocat");
  auto r = RunTaco("tacocat" + PartArgs());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, fs::absolute(dir_ / "out").lexically_normal().string() + "/.tacocat\n");
  CheckConsolidated(dir_ / "out/.tacocat");

  auto again = RunTaco("tacocat" + PartArgs());
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_EQ(again.err.rfind("taco: tacocat: ", 0), 0u) << again.err;
  EXPECT_NE(again.err.find("already exists"), std::string::npos) << again.err;
}

// More parts than DuckDB nests in one flat UNION ALL chain (its expression depth limit is
// 1,000): 1,100 copies of a part consolidate, in both forms, with every row in input order.
TEST_F(TacocatCliTest, ThousandsOfPartsConsolidate) {
  const int n = 1100;
  fs::create_directories(dir_ / "many");
  std::string args;
  for (int i = 0; i < n; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "p%04d.tacozip", i);
    const std::string part = dir_ / ("many/" + std::string(name));
    fs::copy_file(parts_[static_cast<size_t>(i % 3)], part);
    args += " " + ShellQuote(part);
  }
  for (const char* form : {"", " --single-file"}) {
    SCOPED_TRACE(form);
    auto r = RunTaco("tacocat" + args + form);
    ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 2000);
    const std::string path = dir_ / (*form ? "many/__TACOCAT__" : "many/.tacocat");
    EXPECT_EQ(Count(path), n);
    auto last =
        RunTaco("sql " + ShellQuote(path) + " 'select \"internal:source_file\" from level0_table' --format csv");
    ASSERT_EQ(last.exit_code, 0) << last.err;
    EXPECT_EQ(LastLine(last.out), "p1099.tacozip");
    // Sample 1,099 is in p1099, a copy of part 1 (1099 % 3 == 1): r1's items.
    auto cat = RunTaco("cat " + ShellQuote(path) + " @1099 item_a");
    ASSERT_EQ(cat.exit_code, 0) << cat.err;
    EXPECT_EQ(cat.out, Bytes("r1", "item_a"));
  }
}

// A metadata column named like DuckDB's virtual columns of a multi-file scan (file_index,
// file_row_number) hides them; the consolidation then concatenates per input and still
// keeps the input order and the column's own values.
TEST_F(TacocatCliTest, AColumnNamedFileIndexKeepsItsValuesAndTheOrder) {
  WriteFile(dir_ / "meta.csv", "path,file_index\nr0,7\nr1,8\nr2,9\n");
  auto created = RunTaco("create " + ShellQuote(dir_ / "src") + " " + ShellQuote(dir_ / "fi/ds.tacozip") +
                         " --collection " + ShellQuote(dir_ / "collection.json") + " --metadata " +
                         ShellQuote(dir_ / "meta.csv") + " --split-size 1K --no-consolidate");
  ASSERT_EQ(created.exit_code, 0) << created.err;
  // Given in reverse: the rows follow the order of the inputs.
  auto r = RunTaco("tacocat " + ShellQuote(dir_ / "fi/ds_part0003.tacozip") + " " +
                   ShellQuote(dir_ / "fi/ds_part0002.tacozip") + " " + ShellQuote(dir_ / "fi/ds_part0001.tacozip"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = RunTaco("sql " + ShellQuote(dir_ / "fi/.tacocat") +
                      " 'select id, file_index, \"internal:source_file\" from level0_table' --format csv");
  ASSERT_EQ(rows.exit_code, 0) << rows.err;
  EXPECT_NE(rows.out.find("r2,9,ds_part0003.tacozip\nr1,8,ds_part0002.tacozip\nr0,7,ds_part0001.tacozip"),
            std::string::npos)
      << rows.out;
}

TEST_F(TacocatCliTest, TacocatSingleFileAndOutputDir) {
  auto r = RunTaco("tacocat" + PartArgs() + " --single-file");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(LastLine(r.out), fs::absolute(dir_ / "out").lexically_normal().string() + "/__TACOCAT__");
  CheckConsolidated(dir_ / "out/__TACOCAT__");

  // A directory above the parts: the index stores paths relative to itself (out/...).
  auto above = RunTaco("tacocat" + PartArgs() + " -o " + ShellQuote(dir_.path()));
  ASSERT_EQ(above.exit_code, 0) << above.err;
  EXPECT_TRUE(fs::exists(dir_ / ".tacocat/level0.parquet"));
  CheckConsolidated(dir_ / ".tacocat");
  // A directory that does not hold them: refused (readers would not follow the paths).
  auto elsewhere = RunTaco("tacocat" + PartArgs() + " -o " + ShellQuote(dir_ / "elsewhere"));
  EXPECT_EQ(elsewhere.exit_code, 2);
  EXPECT_NE(elsewhere.err.find("is not inside the output directory"), std::string::npos) << elsewhere.err;
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere/.tacocat"));
}

TEST_F(TacocatCliTest, BadInputs) {
  auto missing = RunTaco("tacocat " + ShellQuote(parts_[0]) + " " + ShellQuote(dir_ / "out/none.tacozip") + " -o " +
                         ShellQuote(dir_.path()));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("none.tacozip"), std::string::npos) << missing.err;
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
  EXPECT_FALSE(fs::exists(dir_ / ".tacocat"));

  fs::create_directories(dir_ / "other");
  WriteFile(dir_ / "other/extra.tacozip", "x");
  auto mixed = RunTaco("tacocat " + ShellQuote(parts_[0]) + " " + ShellQuote(dir_ / "other/extra.tacozip"));
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("different directories"), std::string::npos) << mixed.err;

  auto bad = RunTaco("sql " + ShellQuote(dir_ / "nothing/__TACOCAT__") + " \"select 1\"");
  EXPECT_EQ(bad.exit_code, 2);
}

TEST_F(TacocatCliTest, Tacollection) {
  const std::string out = dir_ / "TACOLLECTION.json";
  auto r = RunTaco("tacollection" + PartArgs() + " -o " + ShellQuote(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(ReadFile(out));
  EXPECT_EQ(j["taco:pit_schema"]["root"]["n"], 3);
  EXPECT_EQ(j["taco:pit_schema"]["hierarchy"]["1"][0]["n"], 6);
  EXPECT_EQ(j["taco:sources"]["count"], 3);
  EXPECT_EQ(j["taco:sources"]["files"][2], "ds_part0003.tacozip");

  auto no_out = RunTaco("tacollection" + PartArgs());
  EXPECT_EQ(no_out.exit_code, 2);
}

}  // namespace
}  // namespace taco
