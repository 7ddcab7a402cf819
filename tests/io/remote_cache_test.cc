// The disk cache entries (io/cache.h): round trips of ZIP and TACOCAT entries, damaged
// entries read as absent, counting and clearing both kinds, TACO_NO_CACHE, VsiValidator.
#include <cpl_vsi.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "io/cache.h"
#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/io.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

// Points the cache at a fresh directory for one test and restores the environment after.
class RemoteCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Save("TACO_CACHE_DIR", &old_dir_);
    Save("TACO_NO_CACHE", &old_no_cache_);
    ::setenv("TACO_CACHE_DIR", dir_.path().c_str(), 1);
    ::unsetenv("TACO_NO_CACHE");
  }
  void TearDown() override {
    Restore("TACO_CACHE_DIR", old_dir_);
    Restore("TACO_NO_CACHE", old_no_cache_);
  }

  static void Save(const char* key, std::optional<std::string>* out) {
    const char* v = std::getenv(key);
    if (v != nullptr) *out = v;
  }
  static void Restore(const char* key, const std::optional<std::string>& v) {
    if (v) {
      ::setenv(key, v->c_str(), 1);
    } else {
      ::unsetenv(key);
    }
  }

  // The single entry file under <cache>/<kind>/.
  std::string OnlyEntry(const std::string& kind) const {
    std::string found;
    for (const auto& item : fs::directory_iterator(dir_ / kind)) {
      EXPECT_TRUE(found.empty()) << "more than one entry";
      found = item.path().string();
    }
    return found;
  }

  static io::TacocatCacheEntry SampleTacocat(const std::string& url) {
    io::TacocatCacheEntry e;
    e.url = url;
    e.files.push_back(
        {"COLLECTION.json", {17, "\"etag-1\"", "Mon, 01 Jan 2024 00:00:00 GMT"}, {"{\"id\": \"x\"}\n\n"}});
    e.files.push_back({"level0.parquet", {9, "", "1700000000"}, {std::string("PAR1\0\n\r\xff", 8)}});
    e.files.push_back({"__TACOCAT__", {300, "\"e2\"", ""}, {std::string(128, '\0'), "abc", "", "{}"}});
    return e;
  }

  TempDir dir_;
  std::optional<std::string> old_dir_, old_no_cache_;
};

TEST_F(RemoteCacheTest, TacocatEntryRoundTrips) {
  const std::string url = "http://example.test/data/.tacocat";
  const io::TacocatCacheEntry in = SampleTacocat(url);
  ASSERT_TRUE(io::StoreTacocatCache(in).ok());
  auto out = io::LoadTacocatCache(url);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->url, url);
  ASSERT_EQ(out->files.size(), in.files.size());
  for (size_t i = 0; i < in.files.size(); ++i) {
    EXPECT_EQ(out->files[i].name, in.files[i].name);
    EXPECT_EQ(out->files[i].validator.size, in.files[i].validator.size);
    EXPECT_EQ(out->files[i].validator.etag, in.files[i].validator.etag);
    EXPECT_EQ(out->files[i].validator.last_modified, in.files[i].validator.last_modified);
    EXPECT_EQ(out->files[i].parts, in.files[i].parts);
  }
  ASSERT_NE(out->Find("level0.parquet"), nullptr);
  EXPECT_EQ(out->Find("level0.parquet")->parts[0], std::string("PAR1\0\n\r\xff", 8));
  EXPECT_EQ(out->Find("level9.parquet"), nullptr);
  // Another URL has no entry; a rewrite replaces the entry.
  EXPECT_FALSE(io::LoadTacocatCache(url + "/").has_value());
  io::TacocatCacheEntry smaller = in;
  smaller.files.resize(1);
  ASSERT_TRUE(io::StoreTacocatCache(smaller).ok());
  EXPECT_EQ(io::LoadTacocatCache(url)->files.size(), 1u);
  // Only the entry is left behind (no temporary files).
  EXPECT_FALSE(OnlyEntry("tacocat").empty());
}

TEST_F(RemoteCacheTest, DamagedTacocatEntriesReadAsAbsent) {
  const std::string url = "s3://bucket/d/.tacocat";
  ASSERT_TRUE(io::StoreTacocatCache(SampleTacocat(url)).ok());
  const std::string path = OnlyEntry("tacocat");
  const std::string good = ReadFile(path);
  ASSERT_TRUE(io::LoadTacocatCache(url).has_value());

  WriteFile(path, good.substr(0, good.size() - 1));  // truncated bytes
  EXPECT_FALSE(io::LoadTacocatCache(url).has_value());
  WriteFile(path, good + "x");  // trailing garbage
  EXPECT_FALSE(io::LoadTacocatCache(url).has_value());
  WriteFile(path, good.substr(0, good.find('\n') / 2));  // truncated JSON line
  EXPECT_FALSE(io::LoadTacocatCache(url).has_value());
  WriteFile(path, "");
  EXPECT_FALSE(io::LoadTacocatCache(url).has_value());
  std::string other = good;
  other.replace(other.find(url), url.size(), "s3://bucket/e/.tacocat");  // another URL's entry
  WriteFile(path, other);
  EXPECT_FALSE(io::LoadTacocatCache(url).has_value());
  std::string wrong_type = good;
  wrong_type.replace(wrong_type.find("\"parts\":["), 9, "\"parts\":[\"x\",");
  WriteFile(path, wrong_type);
  EXPECT_FALSE(io::LoadTacocatCache(url).has_value());
  WriteFile(path, good);
  EXPECT_TRUE(io::LoadTacocatCache(url).has_value());
}

TEST_F(RemoteCacheTest, ZipEntriesStillRoundTripAndDamagedOnesReadAsAbsent) {
  const std::string url = "/vsis3/bucket/x.tacozip";
  io::ZipCacheEntry in;
  in.url = url;
  in.validator = {1234, "\"abc\"", "1700000000"};
  in.header = std::string(157, 'h');
  in.members = {"level0", std::string("\0\n", 2), "{}"};
  ASSERT_TRUE(io::StoreZipCache(in).ok());
  auto out = io::LoadZipCache(url);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->header, in.header);
  EXPECT_EQ(out->members, in.members);
  EXPECT_EQ(out->validator.etag, "\"abc\"");
  EXPECT_EQ(out->validator.size, 1234u);
  const std::string path = OnlyEntry("zip");
  const std::string good = ReadFile(path);
  WriteFile(path, good.substr(0, good.size() - 2));
  EXPECT_FALSE(io::LoadZipCache(url).has_value());
  // ZIP and TACOCAT entries of the same URL are distinct.
  EXPECT_FALSE(io::LoadTacocatCache(url).has_value());
}

TEST_F(RemoteCacheTest, InfoAndClearCoverBothKinds) {
  io::ZipCacheEntry zip;
  zip.url = "http://example.test/a.tacozip";
  zip.header = "h";
  ASSERT_TRUE(io::StoreZipCache(zip).ok());
  ASSERT_TRUE(io::StoreTacocatCache(SampleTacocat("http://example.test/b/.tacocat")).ok());
  ASSERT_TRUE(io::StoreTacocatCache(SampleTacocat("http://example.test/c/__TACOCAT__")).ok());
  auto info = GetRemoteCacheInfo();
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->dir, dir_.path());
  EXPECT_EQ(info->entries, 3u);
  EXPECT_GT(info->bytes, 128u);
  auto removed = ClearRemoteCache();
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(*removed, 3u);
  EXPECT_EQ(GetRemoteCacheInfo()->entries, 0u);
  EXPECT_FALSE(io::LoadTacocatCache("http://example.test/b/.tacocat").has_value());
}

// TACO_NO_CACHE is the default of OpenOptions::use_cache (read when the options are made);
// the option decides, so the store itself no longer looks at the environment.
TEST_F(RemoteCacheTest, NoCacheEnvironmentIsTheDefaultOfTheOption) {
  EXPECT_TRUE(RemoteCacheEnabled());
  EXPECT_TRUE(OpenOptions{}.use_cache);
  ::setenv("TACO_NO_CACHE", "1", 1);
  EXPECT_FALSE(RemoteCacheEnabled());
  EXPECT_FALSE(OpenOptions{}.use_cache);
  OpenOptions forced;
  forced.use_cache = true;  // the option wins over the environment
  EXPECT_TRUE(forced.use_cache);
  const std::string url = "http://example.test/d/.tacocat";
  ASSERT_TRUE(io::StoreTacocatCache(SampleTacocat(url)).ok());
  EXPECT_TRUE(io::LoadTacocatCache(url).has_value());
  ::setenv("TACO_NO_CACHE", "0", 1);
  EXPECT_TRUE(OpenOptions{}.use_cache);
  ::unsetenv("TACO_NO_CACHE");
}

TEST(VsiValidatorTest, SizeAndModificationTimeOfLocalAndMemoryFiles) {
  TempDir dir;
  WriteFile(dir / "f.bin", std::string(1000, 'x'));
  auto v = io::VsiValidator(dir / "f.bin");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->size, 1000u);
  EXPECT_FALSE(v->last_modified.empty());
  // A new modification time is a new version.
  fs::last_write_time(dir / "f.bin", fs::last_write_time(dir / "f.bin") + std::chrono::hours(1));
  auto w = io::VsiValidator(dir / "f.bin");
  ASSERT_TRUE(w.has_value());
  EXPECT_FALSE(io::SameVersion(*v, *w));
  EXPECT_TRUE(io::SameVersion(*w, *w));

  const std::string mem = "/vsimem/taco_validator_test.bin";
  VSILFILE* fp = VSIFOpenL(mem.c_str(), "wb");
  ASSERT_NE(fp, nullptr);
  ASSERT_EQ(VSIFWriteL("abc", 1, 3, fp), 3u);
  VSIFCloseL(fp);
  auto m = io::VsiValidator(mem);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->size, 3u);
  VSIUnlink(mem.c_str());

  EXPECT_FALSE(io::VsiValidator(dir / "missing.bin").has_value());
  EXPECT_FALSE(io::VsiValidator(dir.path()).has_value());  // a directory
}

TEST(SameVersionTest, EtagFirstElseSizeAndLastModified) {
  EXPECT_TRUE(io::SameVersion({10, "\"a\"", "x"}, {10, "\"a\"", "y"}));
  EXPECT_FALSE(io::SameVersion({10, "\"a\"", "x"}, {10, "\"b\"", "x"}));
  EXPECT_FALSE(io::SameVersion({10, "\"a\"", ""}, {11, "\"a\"", ""}));
  EXPECT_TRUE(io::SameVersion({10, "", "x"}, {10, "", "x"}));
  EXPECT_FALSE(io::SameVersion({10, "", "x"}, {10, "", "y"}));
  EXPECT_FALSE(io::SameVersion({10, "", ""}, {11, "", ""}));
}

}  // namespace
}  // namespace taco
