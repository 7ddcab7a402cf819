// `taco` without a command it knows: usage with the command list, the nearest command, and
// the pointer to `taco <cmd> --help` for a missing argument.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/paths.h"

namespace taco::testing {
namespace {

void ExpectCommandList(const std::string& text) {
  for (const char* command : {"create", "info", "ls", "read", "cat", "sql", "filter", "validate", "export"}) {
    EXPECT_NE(text.find("\n  " + std::string(command) + " "), std::string::npos) << command << "\n" << text;
  }
  EXPECT_NE(text.find("Run 'taco <command> --help'"), std::string::npos) << text;
}

TEST(Usage, BareTacoPrintsUsage) {
  CommandResult r = RunTaco("");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("Usage: taco"), std::string::npos) << r.out;
  ExpectCommandList(r.out);
  CommandResult flags_only = RunTaco("-v");
  EXPECT_EQ(flags_only.exit_code, 2);
  ExpectCommandList(flags_only.out);
}

TEST(Usage, HelpCommand) {
  CommandResult r = RunTaco("help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ExpectCommandList(r.out);
  CommandResult sql = RunTaco("help sql");
  EXPECT_EQ(sql.exit_code, 0) << sql.err;
  EXPECT_NE(sql.out.find("Usage: taco sql"), std::string::npos) << sql.out;
  EXPECT_NE(sql.out.find("--format"), std::string::npos) << sql.out;
}

TEST(Usage, UnknownCommandSuggestsTheNearest) {
  CommandResult r = RunTaco("lss x");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')), "taco: unknown command 'lss' (did you mean 'ls'?)");
  ExpectCommandList(r.err);
  CommandResult typo = RunTaco("valdiate x");
  EXPECT_EQ(typo.err.substr(0, typo.err.find('\n')), "taco: unknown command 'valdiate' (did you mean 'validate'?)");
  CommandResult far = RunTaco("frobnicate");
  EXPECT_EQ(far.err.substr(0, far.err.find('\n')), "taco: unknown command 'frobnicate'");
  CommandResult help_typo = RunTaco("help sqll");
  EXPECT_EQ(help_typo.err.substr(0, help_typo.err.find('\n')), "taco: unknown command 'sqll' (did you mean 'sql'?)");
}

TEST(Usage, MissingArgumentPointsAtTheCommandsHelp) {
  CommandResult r = RunTaco("sql");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("taco: sql: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("(see 'taco sql --help')\n"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  CommandResult info = RunTaco("-v info");
  EXPECT_NE(info.err.find("(see 'taco info --help')"), std::string::npos) << info.err;
}

}  // namespace
}  // namespace taco::testing
