// io::OpenObjectFolder (io/object_folder.h) without a server: a local directory's files are
// read in place whatever was declared; a remote folder holds only what was declared or opened
// (a name outside them is NotFound without a request), and io::RealPaths asks nothing of a
// remote location. The request counts against a server are tests/remote (tacocat_remote_test,
// remote_test).
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "io/location.h"
#include "io/object_folder.h"
#include "support/paths.h"
#include "support/status_assert.h"

namespace taco {
namespace {

using testing::TempDir;

TEST(ObjectFolderTest, LocalFilesAreReadInPlaceWhateverWasDeclared) {
  TempDir tmp;
  std::filesystem::create_directories(tmp / "d/METADATA");
  testing::WriteFile(tmp / "d/COLLECTION.json", "{}");
  testing::WriteFile(tmp / "d/METADATA/level1.parquet", "level one");
  auto folder = io::OpenObjectFolder(tmp / "d", {});
  ASSERT_OK(folder);
  EXPECT_EQ((*folder)->PathOf("COLLECTION.json"), tmp / "d/COLLECTION.json");
  ASSERT_OK((*folder)->Declare({"METADATA/level0.parquet"}));  // a local directory lists itself
  auto level1 = (*folder)->Open("METADATA/level1.parquet");    // not declared, but there
  ASSERT_OK(level1);
  EXPECT_EQ(*(*level1)->ReadAll(), "level one");
  auto level0 = (*folder)->Open("METADATA/level0.parquet");  // declared, but not there
  ASSERT_FALSE(level0.ok());
  EXPECT_EQ(level0.status().code(), StatusCode::kNotFound) << level0.status().ToString();
}

TEST(ObjectFolderTest, ARemoteFolderHoldsOnlyWhatWasDeclared) {
  // Nothing listens on port 1: a request would fail with a connection error, not NotFound.
  auto folder = io::OpenObjectFolder("http://127.0.0.1:1/ds/.tacocat", {});
  ASSERT_OK(folder);
  EXPECT_EQ((*folder)->PathOf("level0.parquet"), "http://127.0.0.1:1/ds/.tacocat/level0.parquet");
  ASSERT_OK((*folder)->Declare({}));
  auto level = (*folder)->Open("level3.parquet");
  ASSERT_FALSE(level.ok());
  EXPECT_EQ(level.status().code(), StatusCode::kNotFound) << level.status().ToString();
  EXPECT_NE(level.status().message().find("not among the files the dataset names"), std::string::npos)
      << level.status().ToString();
}

TEST(RealPathsTest, LocalPathsAreResolvedRemoteOnesAreNot) {
  TempDir tmp;
  std::filesystem::create_directories(tmp / "root");
  testing::WriteFile(tmp / "outside", "x");
  std::filesystem::create_symlink(tmp / "outside", tmp / "root/link");
  auto local = io::RealPaths("ds", tmp / "root", tmp / "root/link");
  ASSERT_OK(local);
  ASSERT_TRUE(local->has_value());
  EXPECT_EQ((*local)->path, std::filesystem::canonical(tmp / "outside").string());
  EXPECT_EQ((*local)->root, std::filesystem::canonical(tmp / "root").string());
  auto missing = io::RealPaths("ds", tmp / "root", tmp / "root/none");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  auto remote = io::RealPaths("ds", "http://127.0.0.1:1/root", "http://127.0.0.1:1/root/x");
  ASSERT_OK(remote);
  EXPECT_FALSE(remote->has_value());
}

}  // namespace
}  // namespace taco
