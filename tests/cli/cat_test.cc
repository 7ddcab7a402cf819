// `taco cat`: the bytes of a FILE sample on stdout, ZIP and FOLDER.
#include <gtest/gtest.h>

#include "support/paths.h"

namespace taco::testing {
namespace {

TEST(CatCommand, NestedZipAndFolder) {
  for (const std::string kind : {"zip/nested/nested.tacozip", "folder/nested"}) {
    const std::string path = ShellQuote(UpstreamFixtures() + "/" + kind);
    CommandResult r = RunTaco("cat " + path + " europe item_1");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "data_europe_1") << kind;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(RunTaco("cat " + path + " americas 2").out, "data_americas_2");
  }
}

TEST(CatCommand, FlatAndErrors) {
  const std::string path = UpstreamFixtures() + "/zip/flat/flat.tacozip";
  EXPECT_EQ(RunTaco("cat " + ShellQuote(path) + " 4").out, "content_lima");
  EXPECT_EQ(RunTaco("cat " + ShellQuote(UpstreamFixtures() + "/folder/flat") + " sample_1").out, "content_paris");
  CommandResult folder = RunTaco("cat " + ShellQuote(UpstreamFixtures() + "/zip/nested/nested.tacozip") + " asia");
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_EQ(folder.out, "");
  EXPECT_NE(folder.err.find("sample 'asia' is a FOLDER, not a FILE"), std::string::npos) << folder.err;
}

}  // namespace
}  // namespace taco::testing
