// Issue 16 A: the `files` view — one row per FILE sample with its path of ids, its level, its
// columns, its GDAL path and its parent rows' columns — right for ZIP, FOLDER, TACOCAT (ids
// restart in every part: the natural level join pairs samples of different parts) and
// concat; `taco files` with a selection, `files` in SQL, and `taco read` with many keys.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "taco/dataset.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

// The rows of --json output.
nlohmann::json Rows(const CommandResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_TRUE(j.is_array()) << r.out;
  return j.is_array() ? j : nlohmann::json::array();
}

// The bytes a GDAL path names (/vsisubfile/<offset>_<size>,<file> or a file).
std::string BytesAt(const std::string& gdal_path) {
  const std::string prefix = "/vsisubfile/";
  if (gdal_path.rfind(prefix, 0) != 0) return ReadFile(gdal_path);
  const size_t comma = gdal_path.find(',');
  const std::string range = gdal_path.substr(prefix.size(), comma - prefix.size());
  const uint64_t offset = std::stoull(range.substr(0, range.find('_')));
  const uint64_t size = std::stoull(range.substr(range.find('_') + 1));
  std::ifstream f(gdal_path.substr(comma + 1), std::ios::binary);
  std::string out(size, '\0');
  f.seekg(static_cast<std::streamoff>(offset));
  f.read(out.data(), static_cast<std::streamsize>(size));
  return out;
}

class FilesView : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* tile : {"tile_a", "tile_b", "tile_c"}) {
      fs::create_directories(dir_ / ("src/" + std::string(tile)));
      for (const char* file : {"image.tif", "mask.tif"}) {
        WriteFile(dir_ / ("src/" + std::string(tile) + "/" + file), std::string(tile) + "/" + file);
      }
    }
    WriteFile(dir_ / "meta.csv", "path,split\ntile_a,train\ntile_b,test\ntile_c,train\n");
    WriteFile(dir_ / "c.json",
              R"({"id": "files", "dataset_version": "1.0.0", "description": "files view",
                  "licenses": ["CC-BY-4.0"], "providers": [{"name": "Test"}], "tasks": ["segmentation"]})");
    const std::string args = ShellQuote(dir_ / "src") + " %s --collection " + ShellQuote(dir_ / "c.json") +
                             " --metadata " + ShellQuote(dir_ / "meta.csv");
    auto create = [&](const std::string& out, const std::string& extra) {
      std::string a = args;
      a.replace(a.find("%s"), 2, ShellQuote(dir_ / out));
      CommandResult r = RunTaco("create " + a + extra);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    };
    create("ds.tacozip", "");
    create("ds_folder", "");
    create("parts/ds.tacozip", " --split-size 1");
    ASSERT_TRUE(fs::exists(dir_ / "parts/ds_part0003.tacozip"));
  }
  std::vector<std::string> Forms() const { return {dir_ / "ds.tacozip", dir_ / "ds_folder", dir_ / "parts/.tacocat"}; }
  TempDir dir_;
};

TEST_F(FilesView, EveryFormListsEachFileOnceWithItsBytes) {
  for (const std::string& ds : Forms()) {
    SCOPED_TRACE(ds);
    auto rows = Rows(RunTaco("files " + ShellQuote(ds) + " --json"));
    ASSERT_EQ(rows.size(), 6u) << rows.dump();
    std::vector<std::string> paths;
    for (const auto& row : rows) {
      const std::string path = row["path"];
      paths.push_back(path);
      EXPECT_EQ(row["level"], 1);
      EXPECT_EQ(row["type"], "FILE");
      EXPECT_EQ(path.substr(7), row["id"]);
      EXPECT_EQ(row["level0"]["id"], path.substr(0, 6));
      EXPECT_EQ(BytesAt(row["internal:gdal_vsi"]), path) << row.dump();
    }
    EXPECT_EQ(paths, (std::vector<std::string>{"tile_a/image.tif", "tile_a/mask.tif", "tile_b/image.tif",
                                               "tile_b/mask.tif", "tile_c/image.tif", "tile_c/mask.tif"}));
  }
  // The natural level join of a TACOCAT pairs every level-0 row with the children of every
  // part (ids restart at 0 in each part); files does not.
  auto naive = Rows(RunTaco("sql " + ShellQuote(dir_ / "parts/.tacocat") +
                            " 'SELECT count(*) AS n FROM level0 p JOIN level1 c ON c.\"internal:parent_id\" = "
                            "p.\"internal:current_id\"' --json"));
  EXPECT_EQ(naive[0]["n"], 18);
  auto files =
      Rows(RunTaco("sql " + ShellQuote(dir_ / "parts/.tacocat") + " 'SELECT count(*) AS n FROM files' --json"));
  EXPECT_EQ(files[0]["n"], 6);
}

TEST_F(FilesView, ImageAndMaskOfEveryTrainSampleInOneCall) {
  for (const std::string& ds : Forms()) {
    SCOPED_TRACE(ds);
    auto train =
        Rows(RunTaco("files " + ShellQuote(ds) + " --sql \"SELECT * FROM data WHERE split = 'train'\" --json"));
    ASSERT_EQ(train.size(), 4u) << train.dump();
    EXPECT_EQ(train[0]["path"], "tile_a/image.tif");
    EXPECT_EQ(train[3]["path"], "tile_c/mask.tif");
    EXPECT_EQ(train[3]["level0"]["split"], "train");
    // The same through SQL, on the parent's columns.
    auto test = Rows(RunTaco("sql " + ShellQuote(ds) +
                             " \"SELECT path, \\\"internal:gdal_vsi\\\" FROM files WHERE level0.split = 'test' "
                             "ORDER BY path\" --json"));
    ASSERT_EQ(test.size(), 2u) << test.dump();
    EXPECT_EQ(test[0]["path"], "tile_b/image.tif");
    EXPECT_EQ(BytesAt(test[1]["internal:gdal_vsi"]), "tile_b/mask.tif");
    // taco read with many keys: one process, one row per key.
    auto keys = Rows(RunTaco("read " + ShellQuote(ds) + " tile_a/image.tif tile_a/mask.tif @2/mask.tif --json"));
    ASSERT_EQ(keys.size(), 3u) << keys.dump();
    EXPECT_EQ(keys[2]["key"], "@2/mask.tif");
    EXPECT_EQ(keys[2]["id"], "mask.tif");
    EXPECT_EQ(BytesAt(keys[2]["gdal_path"]), "tile_c/mask.tif");
    EXPECT_EQ(BytesAt(keys[0]["gdal_path"]), "tile_a/image.tif");
  }
}

TEST_F(FilesView, ConcatAndFilteredViews) {
  auto a = Dataset::Open(dir_ / "ds.tacozip");
  auto b = Dataset::Open(dir_ / "parts/.tacocat");
  ASSERT_TRUE(a.ok() && b.ok());
  auto only_b = (*a)->Sql("SELECT * FROM data_raw WHERE id = 'tile_b'");
  ASSERT_TRUE(only_b.ok()) << only_b.status().ToString();
  auto files = (*only_b)->Files();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  auto rows = (*files)->Data();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->num_rows(), 2u);

  fs::copy(dir_ / "ds_folder", dir_ / "ds_folder_copy", fs::copy_options::recursive);
  auto c1 = Dataset::Open(dir_ / "ds_folder");
  auto c2 = Dataset::Open(dir_ / "ds_folder_copy");
  ASSERT_TRUE(c1.ok() && c2.ok());
  auto concat = Dataset::Concat({c1->get(), c2->get()});
  ASSERT_TRUE(concat.ok()) << concat.status().ToString();
  auto all = (*concat)->Files();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  auto t = (*all)->Data();
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->num_rows(), 12u);
  const Column& vsi = t->column("internal:gdal_vsi");
  const Column& path = t->column("path");
  for (size_t i = 0; i < t->num_rows(); ++i) {
    EXPECT_EQ(BytesAt(vsi.values[i].get<std::string>()), path.values[i].get<std::string>());
  }
}

}  // namespace
}  // namespace taco::testing
