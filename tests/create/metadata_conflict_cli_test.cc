// Issue 16 A: `taco create --metadata` with values of conflicting types in one column.
// Strict (default): refused, naming the column and the first value of each type, nothing
// written. --non-strict: the column is stored as text and each widening is reported.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

class MetadataConflictCli : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_ / "src");
    for (const char* name : {"a.bin", "b.bin", "c.bin"}) WriteFile(dir_ / ("src/" + std::string(name)), name);
    WriteFile(dir_ / "c.json",
              R"({"id": "conflict", "dataset_version": "1.0.0", "description": "metadata type conflicts",
                  "licenses": ["CC-BY-4.0"], "providers": [{"name": "Test"}], "tasks": ["classification"]})");
  }
  CommandResult Create(const std::string& metadata, const std::string& out, const std::string& extra = "") {
    return RunTaco("create " + ShellQuote(dir_ / "src") + " " + ShellQuote(dir_ / out) + " --collection " +
                   ShellQuote(dir_ / "c.json") + " --metadata " + ShellQuote(metadata) + extra);
  }
  TempDir dir_;
};

TEST_F(MetadataConflictCli, StrictRefusesWithColumnAndRows) {
  struct Case {
    std::string file, text, expect;
  };
  for (const Case& c : {
           Case{"m1.jsonl", "{\"path\": \"a.bin\", \"x\": 1}\n{\"path\": \"b.bin\", \"x\": \"a\"}\n",
                "metadata column 'x' mixes types: int64 (first at " + dir_ / "m1.jsonl:1: 1), string (first at " +
                    dir_ / "m1.jsonl:2: a)"},
           Case{"m2.jsonl", "{\"path\": \"a.bin\", \"x\": [1]}\n{\"path\": \"b.bin\", \"x\": 1}\n",
                "metadata column 'x' mixes types: list<item: int64> (first at " + dir_ / "m2.jsonl:1: [1]), int64"},
           Case{"m3.csv", "path,when\na.bin,2023-01-01\nb.bin,2023-01-02T10:00:00Z\nc.bin,yesterday\n",
                "metadata column 'when' mixes types: timestamp[us] (first at " +
                    dir_ / "m3.csv:2: 2023-01-01), "
                           "string (first at " +
                    dir_ / "m3.csv:4: yesterday)"},
       }) {
    SCOPED_TRACE(c.file);
    WriteFile(dir_ / c.file, c.text);
    CommandResult r = Create(dir_ / c.file, c.file + ".tacozip");
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--non-strict"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / (c.file + ".tacozip")));
  }
}

TEST_F(MetadataConflictCli, NonStrictWidensAndReports) {
  WriteFile(dir_ / "m.csv", "path,when\na.bin,2023-01-01\nb.bin,2023-01-02\nc.bin,yesterday\n");
  CommandResult r = Create(dir_ / "m.csv", "out.tacozip", " --non-strict");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(
      r.err.find("taco: warning: metadata column 'when' mixes types: timestamp[us] (first at " +
                 dir_ / "m.csv:2: 2023-01-01), string (first at " + dir_ / "m.csv:4: yesterday); stored as string"),
      std::string::npos)
      << r.err;
  CommandResult q =
      RunTaco("sql " + ShellQuote(dir_ / "out.tacozip") + " 'SELECT id, \"when\" FROM data ORDER BY id' --format csv");
  EXPECT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(q.out, "id,when\na.bin,2023-01-01\nb.bin,2023-01-02\nc.bin,yesterday\n");
  // Consistent columns give no warning.
  WriteFile(dir_ / "ok.csv", "path,n\na.bin,1\nb.bin,2.5\nc.bin,3\n");
  CommandResult ok = Create(dir_ / "ok.csv", "ok.tacozip", " --non-strict");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.err.find("warning"), std::string::npos) << ok.err;
}

}  // namespace
}  // namespace taco::testing
