// Progress bars of long commands: drawn on stderr only when it is a terminal (run under
// script(1), which gives the command a pseudo-terminal), with the label, the percentage and
// the amounts; nothing when stderr is a file or a pipe, or with --quiet.
#include <gtest/gtest.h>

#include <string>

#include "support/paths.h"

namespace taco::testing {
namespace {

struct SmallTree {
  TempDir dir;
  SmallTree() {
    RunCommand("mkdir -p " + ShellQuote(dir / "src"));
    WriteFile(dir / "src/a.bin", std::string(300000, 'a'));
    WriteFile(dir / "src/b.bin", std::string(200000, 'b'));
    WriteFile(dir / "collection.json",
              R"({"id":"p","dataset_version":"1.0.0","description":"d","licenses":["CC-BY-4.0"],)"
              R"("providers":[{"name":"x"}],"tasks":["other"]})");
  }
  std::string CreateArgs(const std::string& out, const std::string& extra = "") const {
    return "create " + ShellQuote(dir / "src") + " " + ShellQuote(out) + " --collection " +
           ShellQuote(dir / "collection.json") + extra;
  }
};

// `taco ARGS` under a pseudo-terminal; what the terminal showed (stdout and stderr together).
CommandResult RunOnTerminal(const std::string& args) {
  const std::string taco = ShellQuote(TACO_CLI_PATH);
  return RunCommand("script -qefc " + ShellQuote(taco + " " + args) + " /dev/null");
}

TEST(Progress, CreateDrawsABarOnATerminal) {
  SmallTree tree;
  CommandResult r = RunOnTerminal(tree.CreateArgs(tree.dir / "out.tacozip"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("writing ["), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("100%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("KiB"), std::string::npos) << r.out;
}

TEST(Progress, ValidateDrawsTheCrcPassOnATerminal) {
  SmallTree tree;
  const std::string out = tree.dir / "v.tacozip";
  ASSERT_EQ(RunTaco(tree.CreateArgs(out)).exit_code, 0);
  CommandResult r = RunOnTerminal("validate " + ShellQuote(out));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("checking ["), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("100%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("valid"), std::string::npos) << r.out;
  CommandResult fast = RunOnTerminal("validate --fast " + ShellQuote(out));
  ASSERT_EQ(fast.exit_code, 0) << fast.out << fast.err;
  EXPECT_EQ(fast.out.find("checking ["), std::string::npos) << fast.out;
}

// Steps: the 2 inputs, then the 1 level written.
TEST(Progress, TacocatDrawsABarOnATerminal) {
  SmallTree tree;
  const std::string parts = tree.dir / "parts";
  ASSERT_EQ(RunTaco(tree.CreateArgs(parts + "/ds.tacozip", " --split-size 250000 --no-consolidate")).exit_code, 0);
  const std::string inputs =
      ShellQuote(parts + "/ds_part0001.tacozip") + " " + ShellQuote(parts + "/ds_part0002.tacozip");
  CommandResult r = RunOnTerminal("tacocat " + inputs);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("consolidating ["), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("100% 3 / 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/.tacocat"), std::string::npos) << r.out;
  // No terminal: the path alone, nothing on stderr.
  CommandResult plain = RunTaco("tacocat --single-file " + inputs);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err, "");
  EXPECT_EQ(plain.out, parts + "/__TACOCAT__\n");
}

TEST(Progress, NothingWithoutATerminalOrWithQuiet) {
  SmallTree tree;
  CommandResult plain = RunTaco(tree.CreateArgs(tree.dir / "a.tacozip"));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err, "");
  CommandResult quiet = RunOnTerminal("-q " + tree.CreateArgs(tree.dir / "b.tacozip"));
  ASSERT_EQ(quiet.exit_code, 0) << quiet.out << quiet.err;
  EXPECT_EQ(quiet.out.find("writing ["), std::string::npos) << quiet.out;
  CommandResult validate = RunTaco("validate " + ShellQuote(tree.dir / "a.tacozip"));
  ASSERT_EQ(validate.exit_code, 0) << validate.err;
  EXPECT_EQ(validate.err, "");
}

}  // namespace
}  // namespace taco::testing
