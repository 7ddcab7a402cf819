// -v/--verbose and --debug: what is opened, requests made and timings on stderr, for every
// command, through one logging hook of the library (taco/log.h).
#include <gtest/gtest.h>

#include <filesystem>

#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

std::string Flat() { return UpstreamFixtures() + "/zip/flat/flat.tacozip"; }

TEST(Verbose, QuietByDefaultAndTracedWithV) {
  const std::string args = "sql " + ShellQuote(Flat()) + " 'select count(*) from data' --format csv";
  CommandResult plain = RunTaco(args);
  EXPECT_EQ(plain.exit_code, 0);
  EXPECT_EQ(plain.err, "");
  CommandResult v = RunTaco("-v " + args);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(v.out, plain.out);  // stdout unchanged
  EXPECT_NE(v.err.find("] open file " + Flat() + " ("), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("] opened " + Flat() + ": zip, 1 level, "), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("] taco sql: done in "), std::string::npos) << v.err;
  EXPECT_EQ(v.err.find("] sql ("), std::string::npos) << "SQL statements are --debug only\n" << v.err;
  // The flag after the command works the same.
  CommandResult after = RunTaco(args + " --verbose");
  EXPECT_NE(after.err.find("] opened "), std::string::npos) << after.err;
}

TEST(Verbose, DebugAddsReadsAndSql) {
  CommandResult d = RunTaco("--debug sql " + ShellQuote(Flat()) + " 'select id from data limit 1' --format csv");
  EXPECT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.err.find("] read " + Flat() + " bytes 0-"), std::string::npos) << d.err;
  EXPECT_NE(d.err.find("] sql ("), std::string::npos) << d.err;
  EXPECT_NE(d.err.find("select id from "), std::string::npos) << d.err;
}

TEST(Verbose, EveryCommandTraces) {
  TempDir tmp;
  const std::string flat = ShellQuote(Flat());
  const std::string folder = ShellQuote(UpstreamFixtures() + "/folder/flat");
  fs::create_directories(tmp / "src/a");
  WriteFile(tmp / "src/a/x.bin", "x");
  WriteFile(tmp / "c.json", R"({"id": "v", "dataset_version": "1", "description": "d", "licenses": ["x"],
    "providers": [{"name": "t"}], "tasks": ["other"]})");
  const std::vector<std::string> commands = {
      "info " + flat,
      "ls " + flat,
      "read " + flat + " 0",
      "cat " + flat + " 0",
      "sql " + flat + " 'select 1'",
      "filter " + flat + " --sql 'select * from data'",
      "stats " + flat + " --band 0",
      "validate " + folder,
      "export " + flat + " " + ShellQuote(tmp / "e.tacozip") + " --sql \"select * from data where id < 'sample_2'\"",
      "export " + flat + " " + ShellQuote(tmp / "e2.tacozip") + " --sql \"select * from data where id >= 'sample_2'\"",
      "convert " + flat + " " + ShellQuote(tmp / "conv"),
      "create " + ShellQuote(tmp / "src") + " " + ShellQuote(tmp / "made.tacozip") + " --collection " +
          ShellQuote(tmp / "c.json"),
      "tacocat " + ShellQuote(tmp / "e.tacozip") + " " + ShellQuote(tmp / "e2.tacozip") + " -o " +
          ShellQuote(tmp.path()),  // the inputs' directory: a TACOCAT elsewhere is refused
  };
  for (const std::string& c : commands) {
    SCOPED_TRACE(c);
    CommandResult r = RunTaco("-v " + c);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // An input opened, or (create) an output written.
    EXPECT_TRUE(r.err.find("] open") != std::string::npos || r.err.find("] wrote ") != std::string::npos) << r.err;
    EXPECT_NE(r.err.find(": done in "), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace taco::testing
