// Issue 16 A: all-digit ids vs positions. A key that is a sample id at its level is that id;
// "@N" is always position N; a bare number that is no id is a position only when no id at
// that level is a number, else it is refused with an explanation. Never another sample.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

class KeysCli : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(dir_ / "c.json",
              R"({"id": "keys", "dataset_version": "1.0.0", "description": "numeric ids",
                  "licenses": ["CC-BY-4.0"], "providers": [{"name": "Test"}], "tasks": ["classification"]})");
  }
  // A dataset at `out` from `files` (relative path → bytes).
  std::string Make(const std::string& out, const std::vector<std::pair<std::string, std::string>>& files) {
    const std::string src = dir_ / ("src_" + fs::path(out).filename().string());
    for (const auto& [rel, bytes] : files) {
      fs::create_directories(fs::path(src + "/" + rel).parent_path());
      WriteFile(src + "/" + rel, bytes);
    }
    CommandResult r = RunTaco("create " + ShellQuote(src) + " " + ShellQuote(dir_ / out) + " --collection " +
                              ShellQuote(dir_ / "c.json"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return dir_ / out;
  }
  TempDir dir_;
};

TEST_F(KeysCli, NumericIdsAreIdsAndAtIsAPosition) {
  for (const std::string out : {"n2.tacozip", "n2_folder"}) {
    SCOPED_TRACE(out);
    const std::string ds = ShellQuote(Make(out, {{"0", "zero"}, {"2", "two"}, {"5", "five"}}));
    CommandResult two = RunTaco("cat " + ds + " 2");
    EXPECT_EQ(two.exit_code, 0) << two.err;
    EXPECT_EQ(two.out, "two");  // the sample with id 2, not the one at position 2
    CommandResult third = RunTaco("cat " + ds + " @2");
    EXPECT_EQ(third.exit_code, 0) << third.err;
    EXPECT_EQ(third.out, "five");
    CommandResult missing = RunTaco("cat " + ds + " 1");
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_EQ(missing.out, "");
    EXPECT_NE(missing.err.find("no sample with id '1' at level 0; ids at this level are numbers, so a number is not "
                               "read as a position there (use @1 for the sample at position 1)"),
              std::string::npos)
        << missing.err;
    CommandResult read = RunTaco("read " + ds + " 5");
    EXPECT_EQ(read.exit_code, 0) << read.err;
    CommandResult read_at = RunTaco("read " + ds + " @2");
    EXPECT_EQ(read.out, read_at.out);
    CommandResult ls = RunTaco("ls " + ds + " 0 --format csv");
    EXPECT_EQ(ls.exit_code, 0) << ls.err;
    EXPECT_NE(ls.out.find("\n0,FILE"), std::string::npos) << ls.out;
    CommandResult range = RunTaco("cat " + ds + " @3");
    EXPECT_EQ(range.exit_code, 2);
    EXPECT_NE(range.err.find("index 3 out of range: the dataset has 3 rows"), std::string::npos) << range.err;
  }
}

TEST_F(KeysCli, ZeroPaddedIdsAndDeeperLevels) {
  const std::string ds =
      ShellQuote(Make("padded.tacozip", {{"t/0001", "one"}, {"t/0002", "two"}, {"u/0001", "u1"}, {"u/0002", "u2"}}));
  CommandResult id = RunTaco("cat " + ds + " t 0001");
  EXPECT_EQ(id.exit_code, 0) << id.err;
  EXPECT_EQ(id.out, "one");
  CommandResult refused = RunTaco("cat " + ds + " t 1");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("no sample with id '1' at level 1; ids at this level are numbers"), std::string::npos)
      << refused.err;
  CommandResult at = RunTaco("cat " + ds + " @1 @1");
  EXPECT_EQ(at.out, "u2");
  // Level 0 ids are not numbers: a bare number is a position there.
  CommandResult pos = RunTaco("cat " + ds + " 1 0002");
  EXPECT_EQ(pos.exit_code, 0) << pos.err;
  EXPECT_EQ(pos.out, "u2");
}

TEST_F(KeysCli, NonNumericIdsKeepPositions) {
  const std::string flat = ShellQuote(UpstreamFixtures() + "/zip/flat/flat.tacozip");
  CommandResult by_number = RunTaco("read " + flat + " 1");
  CommandResult by_at = RunTaco("read " + flat + " @1");
  CommandResult by_id = RunTaco("read " + flat + " sample_1");
  EXPECT_EQ(by_number.exit_code, 0) << by_number.err;
  EXPECT_EQ(by_number.out, by_at.out);
  EXPECT_EQ(by_number.out, by_id.out);
}

}  // namespace
}  // namespace taco::testing
