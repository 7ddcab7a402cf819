// `taco ls`: level 0, children after keys, a FILE's own row.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco::testing {
namespace {

std::vector<std::string> IdsOf(const std::string& json_text) {
  std::vector<std::string> ids;
  for (const auto& row : nlohmann::json::parse(json_text)) ids.push_back(row["id"]);
  return ids;
}

TEST(LsCommand, Level0AndChildren) {
  const std::string zip = ShellQuote(UpstreamFixtures() + "/zip/nested/nested.tacozip");
  CommandResult root = RunTaco("ls " + zip + " --json");
  EXPECT_EQ(root.exit_code, 0) << root.err;
  EXPECT_EQ(IdsOf(root.out), (std::vector<std::string>{"europe", "americas", "asia"}));
  CommandResult children = RunTaco("ls " + zip + " asia --json");
  EXPECT_EQ(children.exit_code, 0) << children.err;
  EXPECT_EQ(IdsOf(children.out), (std::vector<std::string>{"item_0", "item_1", "item_2"}));
  nlohmann::json rows = nlohmann::json::parse(children.out);
  EXPECT_EQ(rows[0]["internal:gdal_vsi"], "/vsisubfile/581_11," + UpstreamFixtures() + "/zip/nested/nested.tacozip");
  EXPECT_FALSE(rows[0].contains("internal:offset"));
  CommandResult by_index = RunTaco("ls " + zip + " 2 --json");
  EXPECT_EQ(by_index.out, children.out);
}

TEST(LsCommand, CsvOfFolderChildren) {
  const std::string folder = ShellQuote(UpstreamFixtures() + "/folder/nested");
  CommandResult r = RunTaco("ls " + folder + " europe --format csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string first_line = r.out.substr(0, r.out.find('\n'));
  EXPECT_EQ(first_line.rfind("id,type,", 0), 0u) << first_line;
  EXPECT_NE(r.out.find(UpstreamFixtures() + "/folder/nested/DATA/europe/item_2\n"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4);
}

TEST(LsCommand, FileShowsItsRowAndErrors) {
  const std::string zip = ShellQuote(UpstreamFixtures() + "/zip/flat/flat.tacozip");
  CommandResult file = RunTaco("ls " + zip + " sample_2 --json");
  EXPECT_EQ(file.exit_code, 0) << file.err;
  EXPECT_EQ(IdsOf(file.out), (std::vector<std::string>{"sample_2"}));
  CommandResult bad = RunTaco("ls " + zip + " nope");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err, "taco: " + UpstreamFixtures() + "/zip/flat/flat.tacozip: no sample with id 'nope' at level 0\n");
}

}  // namespace
}  // namespace taco::testing
