// `taco sql DS "SELECT count(*) FROM data"` is answered from the engine-free row count
// (taco/count_query.h, issue 28) and prints exactly what the engine's answer prints, in every
// format, on ZIP, FOLDER, TACOCAT and concat; on a ZIP it runs no SQL statement.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/paths.h"
#include "taco/tacocat.h"
#include "tacocat/tacocat_test_util.h"

namespace taco::testing {
namespace {

std::string Zip() { return UpstreamFixtures() + "/zip/nested/nested.tacozip"; }

TEST(SqlCount, PrintsWhatTheEnginePrints) {
  TempDir dir;
  const std::vector<std::string> parts = tacocattest::WriteParts(dir.path(), tacocattest::DefaultRegions());
  ASSERT_EQ(parts.size(), 4u);
  auto cat = CreateTacocat(parts);
  ASSERT_TRUE(cat.ok()) << cat.status().ToString();
  const std::vector<std::string> datasets = {
      ShellQuote(Zip()), ShellQuote(UpstreamFixtures() + "/folder/flat"), ShellQuote(*cat),
      ShellQuote(parts[0]) + " " + ShellQuote(parts[1]) + " " + ShellQuote(parts[2])};
  for (const std::string& ds : datasets) {
    for (const std::string format : {"", " --format csv", " --json", " --limit 1", " --columns 'count_star()'"}) {
      SCOPED_TRACE(ds + format);
      // The same table through the engine: a statement the shortcut leaves alone.
      CommandResult engine = RunTaco("sql " + ds + " 'SELECT count(*) FROM data LIMIT 1'" + format);
      CommandResult ours = RunTaco("sql " + ds + " ' select COUNT( * ) from DATA ;'" + format);
      ASSERT_EQ(engine.exit_code, 0) << engine.err;
      EXPECT_EQ(ours.exit_code, 0) << ours.err;
      EXPECT_EQ(ours.out, engine.out);
      EXPECT_EQ(ours.err, engine.err);
      EXPECT_NE(ours.out.find("count_star()"), std::string::npos) << ours.out;
    }
  }
  // --limit 0 prints no row and the note, as before.
  CommandResult none = RunTaco("sql " + ShellQuote(Zip()) + " 'SELECT count(*) FROM data' --limit 0");
  CommandResult engine = RunTaco("sql " + ShellQuote(Zip()) + " 'SELECT count(*) FROM data LIMIT 1' --limit 0");
  EXPECT_EQ(none.out, engine.out);
  EXPECT_EQ(none.err, engine.err);
}

TEST(SqlCount, RunsNoSqlStatementOnAZip) {
  CommandResult d = RunTaco("--debug sql " + ShellQuote(Zip()) + " 'SELECT count(*) FROM data' --format csv");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_EQ(d.out, "count_star()\n3\n");
  EXPECT_EQ(d.err.find("] sql ("), std::string::npos) << d.err;
  // Any other statement still goes to the engine (and --debug shows it).
  CommandResult other = RunTaco("--debug sql " + ShellQuote(Zip()) + " 'SELECT count(*) FROM data LIMIT 1'");
  EXPECT_NE(other.err.find("] sql ("), std::string::npos) << other.err;
}

}  // namespace
}  // namespace taco::testing
