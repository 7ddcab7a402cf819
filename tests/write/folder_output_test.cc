// WriteFolder's two shares (write/folder_output.cc): a fault in both shares is reported as
// the first in member order whatever the timing, and nothing is left behind.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/paths.h"
#include "taco/model.h"
#include "taco/writer.h"

namespace taco {
namespace {

namespace fs = std::filesystem;

nlohmann::ordered_json Collection() {
  return {{"id", "t"},         {"dataset_version", "1"},         {"description", "d"},
          {"licenses", {"x"}}, {"providers", {{{"name", "p"}}}}, {"tasks", {"other"}}};
}

// 20 folders × 2 files read from `dir` (f00a, f00b, f01a, ...).
Taco TwentyFolders(const std::string& dir) {
  std::vector<Sample> folders;
  for (int i = 0; i < 20; ++i) {
    std::vector<Sample> files;
    for (const char* f : {"a", "b"}) {
      char name[16];
      std::snprintf(name, sizeof name, "f%02d%s", i, f);
      testing::WriteFile(dir + "/" + name, std::string("bytes of ") + name);
      files.push_back(*Sample::FromFile(f, dir + "/" + name));
    }
    folders.push_back(*Sample::FromTortilla("s" + std::to_string(i), *Tortilla::Make(std::move(files))));
  }
  return *Taco::Make(*Tortilla::Make(std::move(folders)), Collection());
}

// f10b is the last file of the calling thread's share (folders s0..s10: the levels' weight
// moves the cut one folder on), f11a the first of the worker's, which usually fails first:
// the error still names f10b (the calling thread's share goes on when a later one fails).
TEST(WriteFolderShares, FirstFaultInMemberOrderIsReported) {
  for (int round = 0; round < 5; ++round) {
    testing::TempDir tmp;
    ASSERT_TRUE(fs::create_directory(tmp / "src"));
    Taco taco = TwentyFolders(tmp / "src");
    fs::remove(tmp / "src/f10b");
    fs::remove(tmp / "src/f11a");
    auto r = Create(taco, tmp / "out");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("f10b"), std::string::npos) << r.status().message();
    EXPECT_FALSE(fs::exists(tmp / "out"));
    size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp.path())) ++entries;
    EXPECT_EQ(entries, 1u) << "only src/ is left";
  }
}

// Only the worker's share fails: its error is returned after the calling thread's share.
TEST(WriteFolderShares, FaultInTheWorkersShareIsReported) {
  testing::TempDir tmp;
  ASSERT_TRUE(fs::create_directory(tmp / "src"));
  Taco taco = TwentyFolders(tmp / "src");
  fs::remove(tmp / "src/f19b");
  auto r = Create(taco, tmp / "out");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("f19b"), std::string::npos) << r.status().message();
  EXPECT_FALSE(fs::exists(tmp / "out"));
}

}  // namespace
}  // namespace taco
