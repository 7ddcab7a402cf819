// util/env_defaults.h: the TACO_* variables are read in one place, as defaults of options
// (issue 25). Each parser's accepted and ignored values, and a scan of the sources that no
// other file of src/ reads the environment and that the CLI sets none (no setenv in cli/).
#include "util/env_defaults.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace taco::util {
namespace {

// Sets (or, with nullopt, unsets) one variable for a test and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(EnvDefaults, BasePath) {
  {
    ScopedEnv env("TACO_BASE_PATH", std::nullopt);
    EXPECT_EQ(EnvBasePath(), "");
  }
  ScopedEnv env("TACO_BASE_PATH", "/data/parts");
  EXPECT_EQ(EnvBasePath(), "/data/parts");
}

TEST(EnvDefaults, NoCacheTurnsTheDefaultOff) {
  {
    ScopedEnv env("TACO_NO_CACHE", std::nullopt);
    EXPECT_TRUE(EnvUseCache());
  }
  for (const char* off : {"1", "yes", "true"}) {
    ScopedEnv env("TACO_NO_CACHE", off);
    EXPECT_FALSE(EnvUseCache()) << off;
  }
  for (const char* on : {"", "0"}) {
    ScopedEnv env("TACO_NO_CACHE", on);
    EXPECT_TRUE(EnvUseCache()) << "'" << on << "'";
  }
}

TEST(EnvDefaults, CacheDirFallsBackToXdgThenHome) {
  ScopedEnv dir("TACO_CACHE_DIR", std::nullopt);
  ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
  ScopedEnv home("HOME", "/home/u");
  EXPECT_EQ(EnvCacheDir(), "/home/u/.cache/taco-cpp");
  {
    ScopedEnv x("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(EnvCacheDir(), "/xdg/taco-cpp");
    ScopedEnv d("TACO_CACHE_DIR", "/c");
    EXPECT_EQ(EnvCacheDir(), "/c");
  }
  ScopedEnv no_home("HOME", std::nullopt);
  EXPECT_EQ(EnvCacheDir(), "/tmp/.cache/taco-cpp");
}

TEST(EnvDefaults, ThreadCountsInRangeElseUnset) {
  {
    ScopedEnv env("TACO_EXT_THREADS", "8");
    EXPECT_EQ(EnvExtensionThreads(), std::optional<size_t>(8));
  }
  for (const char* bad : {"0", "257", "-1", "4x", "", " 4", "99999999999999999999999"}) {
    ScopedEnv env("TACO_EXT_THREADS", bad);
    EXPECT_EQ(EnvExtensionThreads(), std::nullopt) << "'" << bad << "'";
  }
  {
    ScopedEnv env("TACO_COPY_THREADS", "64");
    EXPECT_EQ(EnvCopyThreads(), std::optional<size_t>(64));
  }
  {
    ScopedEnv env("TACO_COPY_THREADS", "65");
    EXPECT_EQ(EnvCopyThreads(), std::nullopt);
  }
  {
    ScopedEnv env("TACO_COPY_RUN_BYTES", "0");  // 0 is meaningful: one read per range
    EXPECT_EQ(EnvCopyRunBytes(), std::optional<uint64_t>(0));
  }
  ScopedEnv env("TACO_VSITACO_MAX_PATHS", "0");
  EXPECT_EQ(EnvVsitacoMaxPaths(), std::nullopt);
}

TEST(EnvDefaults, MemoryLimitUsesTheSizeSyntax) {
  {
    ScopedEnv env("TACO_MEMORY_LIMIT", "2G");
    EXPECT_EQ(EnvMemoryLimit(), std::optional<uint64_t>(uint64_t{2} << 30));
  }
  ScopedEnv env("TACO_MEMORY_LIMIT", "lots");
  EXPECT_EQ(EnvMemoryLimit(), std::nullopt);
}

// The files under `dir` (relative to the source tree) whose text contains `needle`,
// except `allowed`.
std::vector<std::string> FilesContaining(const std::string& dir, const std::string& needle,
                                         const std::string& allowed = "") {
  namespace fs = std::filesystem;
  const fs::path root(TACO_SOURCE_DIR);
  std::vector<std::string> found;
  for (const auto& item : fs::recursive_directory_iterator(root / dir)) {
    const std::string ext = item.path().extension().string();
    if (!item.is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
    const std::string rel = fs::relative(item.path(), root).generic_string();
    if (rel == allowed) continue;
    std::ifstream in(item.path());
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find(needle) != std::string::npos) found.push_back(rel);
  }
  return found;
}

TEST(EnvDefaults, OnlyThisFileReadsTheEnvironment) {
  EXPECT_EQ(FilesContaining("src", "getenv(", "src/util/env_defaults.cc"), std::vector<std::string>{});
}

TEST(EnvDefaults, TheCommandLineSetsNoEnvironment) {
  EXPECT_EQ(FilesContaining("cli", "setenv("), std::vector<std::string>{});
  EXPECT_EQ(FilesContaining("cli", "putenv("), std::vector<std::string>{});
}

}  // namespace
}  // namespace taco::util
