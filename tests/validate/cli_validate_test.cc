// `taco validate PATH [--json]`: exit codes, the human line format, JSON output.
#include "validate_test_util.h"

namespace taco {
namespace {

using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;
using testing::UpstreamFixtures;

TEST(ValidateCli, NestedUpstreamZipFailsAndNamesLevel1Rows) {
  const std::string path = UpstreamFixtures() + "/zip/nested/nested.tacozip";
  auto r = RunTaco("validate " + ShellQuote(path));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("member-offset  level1 row 0 (europe/item_0): offset 390, size 15 (expected offset 205, "
                       "size 13 (DATA/europe/item_0))\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("level1 row 8 (asia/item_2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(path + ": 9 violations (member-offset 9)\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(ValidateCli, FlatUpstreamAndWriterOutputsPass) {
  TempDir tmp;
  std::vector<std::string> paths = {UpstreamFixtures() + "/zip/flat/flat.tacozip", UpstreamFixtures() + "/folder/flat",
                                    UpstreamFixtures() + "/folder/nested",
                                    vtest::Written(vtest::NestedTaco(4), tmp / "n.tacozip"),
                                    vtest::Written(vtest::DeepTaco(), tmp / "deep")};
  for (const auto& p : paths) {
    auto r = RunTaco("validate " + ShellQuote(p));
    EXPECT_EQ(r.exit_code, 0) << p << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find(p + ": valid "), std::string::npos) << r.out;
  }
}

TEST(ValidateCli, Json) {
  const std::string path = UpstreamFixtures() + "/zip/nested/nested.tacozip";
  auto r = RunTaco("validate --json " + ShellQuote(path));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["path"], path);
  EXPECT_EQ(j["format"], "zip");
  EXPECT_EQ(j["valid"], false);
  ASSERT_EQ(j["violations"].size(), 9u);
  EXPECT_EQ(j["violations"][0]["rule"], "member-offset");
  EXPECT_EQ(j["violations"][0]["where"], "level1 row 0 (europe/item_0)");
  EXPECT_EQ(j["violations"][0]["found"], "offset 390, size 15");
  EXPECT_EQ(j["violations"][0]["expected"], "offset 205, size 13 (DATA/europe/item_0)");

  auto ok = RunTaco("validate --json " + ShellQuote(UpstreamFixtures() + "/folder/flat"));
  EXPECT_EQ(ok.exit_code, 0);
  auto k = nlohmann::json::parse(ok.out);
  EXPECT_EQ(k["valid"], true);
  EXPECT_EQ(k["format"], "folder");
  EXPECT_TRUE(k["violations"].empty());
}

TEST(ValidateCli, UnreadableInputExits2) {
  TempDir tmp;
  auto r = RunTaco("validate " + ShellQuote(tmp / "nope.tacozip"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("taco: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("nope.tacozip"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace taco
