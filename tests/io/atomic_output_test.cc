// AtomicOutput: outputs appear whole at the final path or not at all.
#include "write/atomic_output.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/paths.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

bool IsEmptyDir(const std::string& dir) { return fs::is_directory(dir) && fs::is_empty(dir); }

TEST(AtomicOutputTest, CommitFile) {
  TempDir tmp;
  const std::string final_path = tmp / "a/b/out.tacozip";
  std::string temp;
  {
    auto out = AtomicOutput::Begin(final_path, /*is_directory=*/false);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ((*out)->final_path(), final_path);
    temp = (*out)->temp_path();
    EXPECT_EQ(fs::path(temp).parent_path(), fs::path(final_path).parent_path());
    EXPECT_EQ(fs::path(temp).filename().string().rfind(".out.tacozip.tmp-", 0), 0u) << temp;
    EXPECT_TRUE(fs::is_directory(tmp / "a/b"));  // parents created
    EXPECT_FALSE(fs::exists(temp));              // file mode creates nothing
    testing::WriteFile(temp, "payload");
    EXPECT_FALSE(fs::exists(final_path));
    Status s = (*out)->Commit();
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE((*out)->committed());
  }
  EXPECT_EQ(testing::ReadFile(final_path), "payload");
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp / "a/b"), fs::directory_iterator()), 1);
}

TEST(AtomicOutputTest, AbandonedFileLeavesNothing) {
  TempDir tmp;
  {
    auto out = AtomicOutput::Begin(tmp / "new/dirs/out.zip", false);
    ASSERT_TRUE(out.ok());
    testing::WriteFile((*out)->temp_path(), "partial");
  }
  EXPECT_TRUE(IsEmptyDir(tmp.path()));  // the temp and the parents Begin() made are gone
}

TEST(AtomicOutputTest, AbandonedDirectoryLeavesNothing) {
  TempDir tmp;
  fs::create_directory(tmp / "keep");
  {
    auto out = AtomicOutput::Begin(tmp / "keep/dataset", /*is_directory=*/true);
    ASSERT_TRUE(out.ok());
    const std::string temp = (*out)->temp_path();
    ASSERT_TRUE(IsEmptyDir(temp));
    fs::create_directories(temp + "/DATA/x");
    testing::WriteFile(temp + "/DATA/x/y", "bytes");
    testing::WriteFile(temp + "/COLLECTION.json", "{}");
  }
  EXPECT_TRUE(IsEmptyDir(tmp / "keep"));  // pre-existing parent kept, the tree removed
}

TEST(AtomicOutputTest, CommitDirectory) {
  TempDir tmp;
  auto out = AtomicOutput::Begin(tmp / "dataset/", true);  // trailing slash is dropped
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->final_path(), tmp / "dataset");
  const std::string temp = (*out)->temp_path();
  fs::create_directories(temp + "/METADATA");
  testing::WriteFile(temp + "/METADATA/level0.parquet", "pq");
  ASSERT_TRUE((*out)->Commit().ok());
  out = Status::Internal("destroyed");
  EXPECT_EQ(testing::ReadFile(tmp / "dataset/METADATA/level0.parquet"), "pq");
  EXPECT_FALSE(fs::exists(temp));
}

TEST(AtomicOutputTest, ExistingTargetRefused) {
  TempDir tmp;
  testing::WriteFile(tmp / "file", "old");
  fs::create_directory(tmp / "dir");
  fs::create_symlink(tmp / "nowhere", tmp / "dangling");
  for (const std::string name : {"file", "dir", "dangling"}) {
    for (bool is_dir : {false, true}) {
      auto out = AtomicOutput::Begin(tmp / name, is_dir);
      ASSERT_FALSE(out.ok()) << name;
      EXPECT_EQ(out.status().code(), StatusCode::kAlreadyExists);
      EXPECT_EQ(out.status().message(), tmp / name + ": already exists");
    }
  }
  EXPECT_EQ(testing::ReadFile(tmp / "file"), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 3);
}

TEST(AtomicOutputTest, CommitNeverReplaces) {
  TempDir tmp;
  for (bool is_dir : {false, true}) {
    const std::string final_path = tmp / (is_dir ? "d" : "f");
    std::string temp;
    {
      auto out = AtomicOutput::Begin(final_path, is_dir);
      ASSERT_TRUE(out.ok());
      temp = (*out)->temp_path();
      if (is_dir) {
        testing::WriteFile(temp + "/new", "new");
        fs::create_directory(final_path);  // someone else got there first (empty dir)
      } else {
        testing::WriteFile(temp, "new");
        testing::WriteFile(final_path, "theirs");
      }
      Status s = (*out)->Commit();
      EXPECT_EQ(s.code(), StatusCode::kAlreadyExists) << s.ToString();
      EXPECT_EQ(s.message(), final_path + ": already exists");
    }
    EXPECT_FALSE(fs::exists(temp));
    if (is_dir) {
      EXPECT_TRUE(IsEmptyDir(final_path));
    } else {
      EXPECT_EQ(testing::ReadFile(final_path), "theirs");
    }
  }
}

TEST(AtomicOutputTest, CommitWithoutOutputFails) {
  TempDir tmp;
  auto out = AtomicOutput::Begin(tmp / "never-written", false);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE((*out)->Commit().ok());
  EXPECT_FALSE(fs::exists(tmp / "never-written"));
}

TEST(AtomicOutputTest, ParentIsAFile) {
  TempDir tmp;
  testing::WriteFile(tmp / "file", "x");
  auto out = AtomicOutput::Begin(tmp / "file/sub/out.zip", false);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kIOError);
  EXPECT_NE(out.status().message().find(tmp / "file/sub"), std::string::npos) << out.status().message();
}

TEST(AtomicOutputTest, RelativePathInCurrentDirectory) {
  TempDir tmp;
  const std::string cwd = fs::current_path().string();
  fs::current_path(tmp.path());
  {
    auto out = AtomicOutput::Begin("rel.zip", false);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ((*out)->temp_path().rfind(".rel.zip.tmp-", 0), 0u);
    testing::WriteFile((*out)->temp_path(), "r");
    EXPECT_TRUE((*out)->Commit().ok());
  }
  fs::current_path(cwd);
  EXPECT_EQ(testing::ReadFile(tmp / "rel.zip"), "r");
}

}  // namespace
}  // namespace taco

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// A pid that no process has (a child that already exited and was reaped).
pid_t DeadPid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

TEST(AtomicOutputTest, TemporaryNamesTellTheirOwner) {
  TempDir tmp;
  auto out = AtomicOutput::Begin(tmp / "out.tacozip", false);
  ASSERT_TRUE(out.ok());
  const std::string name = fs::path((*out)->temp_path()).filename().string();
  EXPECT_EQ(name.rfind(".out.tacozip.tmp-" + TemporaryOwnerTag(), 0), 0u) << name;
  EXPECT_EQ(name.size(), std::string(".out.tacozip.tmp-").size() + TemporaryOwnerTag().size() + 8) << name;
}

TEST(AtomicOutputTest, BeginRemovesStaleTemporariesOfDeadProcessesOnly) {
  TempDir tmp;
  const std::string host_tag = TemporaryOwnerTag().substr(TemporaryOwnerTag().find('-') + 1);  // "<host>-"
  const std::string dead = ".out.tacozip.tmp-" + std::to_string(DeadPid()) + "-" + host_tag + "0badf00d";
  const std::string dead_dir = ".out.tacozip.tmp-" + std::to_string(DeadPid()) + "-" + host_tag + "deadbeef";
  const std::string alive = ".out.tacozip.tmp-" + std::to_string(::getppid()) + "-" + host_tag + "00000001";
  const std::string other_host = ".out.tacozip.tmp-" + std::to_string(DeadPid()) + "-ffffffff-00000002";
  const std::string other_name = ".other.tacozip.tmp-" + std::to_string(DeadPid()) + "-" + host_tag + "00000003";
  const std::string old_style = ".out.tacozip.tmp-0123456789abcdef";
  for (const std::string& f : {dead, alive, other_host, other_name, old_style}) testing::WriteFile(tmp / f, "partial");
  fs::create_directories(tmp / (dead_dir + "/DATA"));
  testing::WriteFile(tmp / (dead_dir + "/DATA/x"), "partial");
  {
    auto out = AtomicOutput::Begin(tmp / "out.tacozip", false);
    ASSERT_TRUE(out.ok());
  }
  EXPECT_FALSE(fs::exists(tmp / dead));
  EXPECT_FALSE(fs::exists(tmp / dead_dir));
  for (const std::string& kept : {alive, other_host, other_name, old_style}) {
    EXPECT_TRUE(fs::exists(tmp / kept)) << kept;
  }
  // Also when the output already exists (the rerun after a kill right after the commit).
  testing::WriteFile(tmp / dead, "partial");
  testing::WriteFile(tmp / "out.tacozip", "done");
  auto exists = AtomicOutput::Begin(tmp / "out.tacozip", false);
  EXPECT_EQ(exists.status().code(), StatusCode::kAlreadyExists);
  EXPECT_FALSE(fs::exists(tmp / dead));
}

TEST(AtomicOutputTest, RemoveTemporaryOutputsDeletesEveryUncommittedOne) {
  TempDir tmp;
  auto file = AtomicOutput::Begin(tmp / "new/a.tacozip", false);
  auto dir = AtomicOutput::Begin(tmp / "b", true);
  ASSERT_TRUE(file.ok() && dir.ok());
  testing::WriteFile((*file)->temp_path(), "partial");
  testing::WriteFile((*dir)->temp_path() + "/COLLECTION.json", "{}");
  auto done = AtomicOutput::Begin(tmp / "c", true);
  ASSERT_TRUE(done.ok());
  ASSERT_TRUE((*done)->Commit().ok());
  EXPECT_EQ(RemoveTemporaryOutputs(), 2u);
  EXPECT_FALSE(fs::exists((*file)->temp_path()));
  EXPECT_FALSE(fs::exists((*dir)->temp_path()));
  EXPECT_FALSE(fs::exists(tmp / "new"));  // the parent Begin() made
  EXPECT_TRUE(fs::is_directory(tmp / "c"));
}

}  // namespace
}  // namespace taco
