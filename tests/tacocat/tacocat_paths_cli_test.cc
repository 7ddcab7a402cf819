// Issue 16 A: `taco tacocat -o DIR` stores paths that resolve relative to the index (both
// forms), refuses a DIR that does not hold the inputs, reports ids shared by inputs (and
// readers refuse to resolve them by id), and `taco --base-path` reads an index whose ZIPs
// moved.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

class TacocatPathsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(dir_ / "c.json",
              R"({"id": "paths", "dataset_version": "1.0.0", "description": "tacocat paths",
                  "licenses": ["CC-BY-4.0"], "providers": [{"name": "Test"}], "tasks": ["classification"]})");
  }
  // A ZIP at `out` with FILE samples <prefix>0, <prefix>1 holding "<prefix><i>!".
  void MakeZip(const std::string& out, const std::string& prefix) {
    const std::string src = dir_ / ("src_" + prefix);
    fs::create_directories(src);
    for (int i = 0; i < 2; ++i) WriteFile(src + "/" + prefix + std::to_string(i), prefix + std::to_string(i) + "!");
    fs::create_directories(fs::path(out).parent_path());
    CommandResult r =
        RunTaco("create " + ShellQuote(src) + " " + ShellQuote(out) + " --collection " + ShellQuote(dir_ / "c.json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  TempDir dir_;
};

TEST_F(TacocatPathsCli, IndexAboveItsPartsReadsTheRightBytesInBothForms) {
  MakeZip(dir_ / "data/parts/a.tacozip", "a");
  MakeZip(dir_ / "data/parts/b.tacozip", "b");
  const std::string inputs =
      std::string(" ") + ShellQuote(dir_ / "data/parts/a.tacozip") + " " + ShellQuote(dir_ / "data/parts/b.tacozip");
  for (const std::string form : {"", " --single-file"}) {
    SCOPED_TRACE(form);
    const std::string out = dir_ / (form.empty() ? "data/.tacocat" : "data/__TACOCAT__");
    CommandResult made = RunTaco("tacocat" + inputs + " -o " + ShellQuote(dir_ / "data") + form);
    ASSERT_EQ(made.exit_code, 0) << made.err;
    EXPECT_EQ(made.out, out + "\n");
    CommandResult cat = RunTaco("cat " + ShellQuote(out) + " b1");
    EXPECT_EQ(cat.exit_code, 0) << cat.err;
    EXPECT_EQ(cat.out, "b1!");
    CommandResult read = RunTaco("read " + ShellQuote(out) + " a0");
    EXPECT_EQ(read.exit_code, 0) << read.err;
    EXPECT_NE(read.out.find(dir_ / "data/parts/a.tacozip"), std::string::npos) << read.out;
    // The whole tree moves together.
    fs::rename(dir_ / "data", dir_ / "moved");
    const std::string moved = dir_ / (form.empty() ? "moved/.tacocat" : "moved/__TACOCAT__");
    CommandResult after = RunTaco("cat " + ShellQuote(moved) + " a1");
    EXPECT_EQ(after.exit_code, 0) << after.err;
    EXPECT_EQ(after.out, "a1!");
    fs::rename(dir_ / "moved", dir_ / "data");
    fs::remove_all(out);
  }
}

TEST_F(TacocatPathsCli, IndexBesideItsPartsIsRefusedAndBasePathReadsMovedParts) {
  MakeZip(dir_ / "parts/a.tacozip", "a");
  MakeZip(dir_ / "parts/b.tacozip", "b");
  const std::string inputs =
      std::string(" ") + ShellQuote(dir_ / "parts/a.tacozip") + " " + ShellQuote(dir_ / "parts/b.tacozip");
  fs::create_directories(dir_ / "index");
  for (const std::string form : {"", " --single-file"}) {
    CommandResult refused = RunTaco("tacocat" + inputs + " -o " + ShellQuote(dir_ / "index") + form);
    EXPECT_EQ(refused.exit_code, 2) << refused.out;
    EXPECT_NE(refused.err.find("is not inside the output directory"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--base-path"), std::string::npos) << refused.err;
  }
  EXPECT_TRUE(fs::is_empty(dir_ / "index"));

  // Written beside the parts (the default), then the parts move: --base-path finds them.
  CommandResult made = RunTaco("tacocat" + inputs);
  ASSERT_EQ(made.exit_code, 0) << made.err;
  fs::rename(dir_ / "parts/.tacocat", dir_ / "index/.tacocat");
  CommandResult lost = RunTaco("cat " + ShellQuote(dir_ / "index/.tacocat") + " a0");
  EXPECT_EQ(lost.exit_code, 2);
  CommandResult found =
      RunTaco("--base-path " + ShellQuote(dir_ / "parts") + " cat " + ShellQuote(dir_ / "index/.tacocat") + " a0");
  EXPECT_EQ(found.exit_code, 0) << found.err;
  EXPECT_EQ(found.out, "a0!");
  CommandResult after =
      RunTaco("cat " + ShellQuote(dir_ / "index/.tacocat") + " b0 --base-path=" + ShellQuote(dir_ / "parts"));
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(after.out, "b0!");
}

TEST_F(TacocatPathsCli, SharedIdsAreReportedAndNotResolvedById) {
  MakeZip(dir_ / "one/x.tacozip", "s");
  MakeZip(dir_ / "two/x.tacozip", "s");
  fs::create_directories(dir_ / "both");
  fs::rename(dir_ / "one/x.tacozip", dir_ / "both/x.tacozip");
  fs::rename(dir_ / "two/x.tacozip", dir_ / "both/y.tacozip");
  CommandResult made =
      RunTaco("tacocat " + ShellQuote(dir_ / "both/x.tacozip") + " " + ShellQuote(dir_ / "both/y.tacozip"));
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_NE(
      made.err.find("taco: warning: 2 level-0 ids are in more than one input (first: 's0' in x.tacozip, y.tacozip)"),
      std::string::npos)
      << made.err;
  const std::string cat = ShellQuote(dir_ / "both/.tacocat");
  CommandResult ambiguous = RunTaco("cat " + cat + " s0");
  EXPECT_EQ(ambiguous.exit_code, 2) << ambiguous.out;
  EXPECT_NE(ambiguous.err.find("'s0' is the id of 2 samples"), std::string::npos) << ambiguous.err;
  EXPECT_EQ(ambiguous.out, "");
  CommandResult by_position = RunTaco("cat " + cat + " @2");
  EXPECT_EQ(by_position.exit_code, 0) << by_position.err;
  EXPECT_EQ(by_position.out, "s0!");
}

}  // namespace
}  // namespace taco::testing
