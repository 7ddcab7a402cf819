// `taco read`: GDAL path of a FILE (alone on one line), children of a FOLDER.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco::testing {
namespace {

TEST(ReadCommand, NestedZipFileByIds) {
  const std::string path = UpstreamFixtures() + "/zip/nested/nested.tacozip";
  CommandResult r = RunTaco("read " + ShellQuote(path) + " europe item_1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "/vsisubfile/266_13," + path + "\n");
  EXPECT_EQ(r.err, "");
  CommandResult by_index = RunTaco("read " + ShellQuote(path) + " 1 0");
  EXPECT_EQ(by_index.out, "/vsisubfile/390_15," + path + "\n");
}

TEST(ReadCommand, FolderFileAndChildren) {
  const std::string path = UpstreamFixtures() + "/folder/nested";
  CommandResult file = RunTaco("read " + ShellQuote(path) + " asia item_0");
  EXPECT_EQ(file.exit_code, 0) << file.err;
  EXPECT_EQ(file.out, path + "/DATA/asia/item_0\n");
  CommandResult children = RunTaco("read " + ShellQuote(path) + " asia --json");
  EXPECT_EQ(children.exit_code, 0) << children.err;
  nlohmann::json rows = nlohmann::json::parse(children.out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2]["id"], "item_2");
  CommandResult json_file = RunTaco("read " + ShellQuote(path) + " asia item_0 --json");
  nlohmann::json j = nlohmann::json::parse(json_file.out);
  EXPECT_EQ(j["gdal_path"], path + "/DATA/asia/item_0");
  EXPECT_EQ(j["type"], "FILE");
  EXPECT_EQ(j["level"], 1);
}

TEST(ReadCommand, FlatZipEveryRow) {
  const std::string path = UpstreamFixtures() + "/zip/flat/flat.tacozip";
  const char* expected[] = {"200_16", "259_13", "315_11", "369_13", "425_12"};
  for (int i = 0; i < 5; ++i) {
    CommandResult r = RunTaco("read " + ShellQuote(path) + " " + std::to_string(i));
    EXPECT_EQ(r.out, std::string("/vsisubfile/") + expected[i] + "," + path + "\n");
  }
}

TEST(ReadCommand, Errors) {
  const std::string path = UpstreamFixtures() + "/zip/flat/flat.tacozip";
  CommandResult range = RunTaco("read " + ShellQuote(path) + " 5");
  EXPECT_EQ(range.exit_code, 2);
  EXPECT_EQ(range.err, "taco: " + path + ": index 5 out of range: the dataset has 5 rows\n");
  CommandResult deeper = RunTaco("read " + ShellQuote(path) + " 0 0");
  EXPECT_EQ(deeper.exit_code, 2);
  EXPECT_EQ(deeper.err, "taco: " + path + ": sample 'sample_0' is a FILE; it has no child '0'\n");
  CommandResult nokey = RunTaco("read " + ShellQuote(path));
  EXPECT_EQ(nokey.exit_code, 2);
  EXPECT_EQ(nokey.out, "");
}

}  // namespace
}  // namespace taco::testing
