// GDAL VSI reader and the path helpers IsRemotePath()/ToVsiPath() (FORMAT §6.1, §6.2, §9.5).
#include <cpl_vsi.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/paths.h"
#include "taco/io.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::string FlatZip() { return fs::canonical(testing::UpstreamFixtures() + "/zip/flat/flat.tacozip").string(); }

TEST(VsiPathTest, UrlSchemesMapToGdalPrefixes) {
  EXPECT_EQ(ToVsiPath("s3://bucket/key"), "/vsis3/bucket/key");
  EXPECT_EQ(ToVsiPath("s3://bucket/dir/data.tacozip"), "/vsis3/bucket/dir/data.tacozip");
  EXPECT_EQ(ToVsiPath("gs://bucket/key"), "/vsigs/bucket/key");
  EXPECT_EQ(ToVsiPath("az://container/key"), "/vsiaz/container/key");
  EXPECT_EQ(ToVsiPath("azure://container/key"), "/vsiaz/container/key");
  EXPECT_EQ(ToVsiPath("oss://bucket/key"), "/vsioss/bucket/key");
  EXPECT_EQ(ToVsiPath("swift://container/key"), "/vsiswift/container/key");
  EXPECT_EQ(ToVsiPath("http://example.com/a.tacozip"), "/vsicurl/http://example.com/a.tacozip");
  EXPECT_EQ(ToVsiPath("https://example.com/a/b.zip?x=1"), "/vsicurl/https://example.com/a/b.zip?x=1");
  // The rest of the URL is kept as is (no normalisation of remote keys).
  EXPECT_EQ(ToVsiPath("s3://bucket/a//b/../c/"), "/vsis3/bucket/a//b/../c/");
}

TEST(VsiPathTest, VsiPathsAreUnchanged) {
  for (const std::string p :
       {"/vsis3/bucket/key", "/vsicurl/https://h/x", "/vsizip//tmp/a.zip/b",
        "/vsisubfile/1024_2048,/vsis3/bucket/file.zip", "/vsisubfile/1_2,/vsis3/bucket/with,comma.zip", "/vsimem/x/"}) {
    EXPECT_EQ(ToVsiPath(p), p);
  }
}

TEST(VsiPathTest, LocalPathsBecomeAbsoluteAndNormalised) {
  TempDir tmp;
  const std::string root = fs::canonical(tmp.path()).string();
  fs::create_directories(root + "/real/sub");
  fs::create_directory_symlink(root + "/real", root + "/link");
  EXPECT_EQ(ToVsiPath(root + "/real/sub/"), root + "/real/sub");
  EXPECT_EQ(ToVsiPath(root + "/real/./sub/../sub"), root + "/real/sub");
  // Symlinks are resolved when the path exists, also for a missing leaf below them.
  EXPECT_EQ(ToVsiPath(root + "/link/sub"), root + "/real/sub");
  EXPECT_EQ(ToVsiPath(root + "/link/missing.tacozip"), root + "/real/missing.tacozip");
  EXPECT_EQ(ToVsiPath("/"), "/");
  // Relative paths are taken from the current directory.
  const std::string cwd = fs::current_path().string();
  fs::current_path(root + "/real");
  EXPECT_EQ(ToVsiPath("sub"), root + "/real/sub");
  EXPECT_EQ(ToVsiPath("sub/"), root + "/real/sub");
  EXPECT_EQ(ToVsiPath("nope/x.zip"), root + "/real/nope/x.zip");
  fs::current_path(cwd);
}

TEST(VsiPathTest, IsRemotePath) {
  for (const char* p :
       {"http://h/x", "https://h/x", "s3://b/k", "gs://b/k", "az://c/k", "azure://c/k", "oss://b/k", "swift://c/k",
        "HTTPS://h/x", "/vsis3/b/k", "/vsigs/b/k", "/vsiaz/c/k", "/vsioss/b/k", "/vsiswift/c/k", "/vsicurl/http://h/x",
        "/vsizip//a.zip/b", "/vsisubfile/200_16,/tmp/flat.tacozip", "/vsicurl?url=http%3A%2F%2Fh%2Fx"}) {
    EXPECT_TRUE(IsRemotePath(p)) << p;
  }
  for (const char* p : {"", "data.tacozip", "folder/", "/absolute/path", "./s3://x", "s3:/b/k", "/vsi", "/vsis3",
                        "/visible/x", "/vsiX/y", "file.zip"}) {
    EXPECT_FALSE(IsRemotePath(p)) << p;
  }
}

TEST(VsiFileTest, PlainLocalPath) {
  const std::string path = FlatZip();
  auto reader = OpenVsiFile(path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->size(), 9228u);
  EXPECT_EQ((*reader)->name(), path);
  EXPECT_EQ(*(*reader)->Read(200, 16), "content_valencia");
  EXPECT_EQ(*(*reader)->ReadAll(), testing::ReadFile(path));
}

TEST(VsiFileTest, VsiSubfileOfUpstreamZip) {
  const std::string path = "/vsisubfile/200_16," + FlatZip();
  auto reader = OpenVsiFile(path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->size(), 16u);
  EXPECT_EQ((*reader)->name(), path);
  EXPECT_EQ(*(*reader)->ReadAll(), "content_valencia");
  EXPECT_EQ(*(*reader)->Read(8, 8), "valencia");
  Status s = (*reader)->Read(10, 7).status();
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.message(), path + ": read of 7 bytes at offset 10 is past the end (size 16)");
}

TEST(VsiFileTest, MissingIsNotFound) {
  TempDir tmp;
  const std::string path = tmp / "missing.tacozip";
  auto reader = OpenVsiFile(path);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(reader.status().message().rfind(path + ": no such file", 0), 0u) << reader.status().message();
  auto mem = OpenVsiFile("/vsimem/taco-io-test/none");
  ASSERT_FALSE(mem.ok());
  EXPECT_EQ(mem.status().code(), StatusCode::kNotFound);
}

TEST(VsiFileTest, UnreachableServerIsIOError) {
  // Nothing listens on port 1: the failure is the network's, not a missing object.
  auto reader = OpenVsiFile("http://127.0.0.1:1/x.tacozip");
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kIOError) << reader.status().ToString();
  EXPECT_EQ(reader.status().message().rfind("http://127.0.0.1:1/x.tacozip: ", 0), 0u);
}

TEST(VsiFileTest, DirectoryIsRefused) {
  TempDir tmp;
  auto reader = OpenVsiFile(tmp.path());
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message(), tmp.path() + ": is a directory");
}

TEST(VsiFileTest, ShortReadIsIOError) {
  const std::string path = "/vsimem/taco-io-test/shrinks";
  std::string big(100, 'a');
  VSILFILE* fp = VSIFileFromMemBuffer(path.c_str(), reinterpret_cast<GByte*>(big.data()), big.size(), FALSE);
  ASSERT_NE(fp, nullptr);
  VSIFCloseL(fp);
  auto reader = OpenVsiFile(path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->size(), 100u);
  // The object shrinks behind the reader's back.
  VSIUnlink(path.c_str());
  std::string small(50, 'b');
  fp = VSIFileFromMemBuffer(path.c_str(), reinterpret_cast<GByte*>(small.data()), small.size(), FALSE);
  ASSERT_NE(fp, nullptr);
  VSIFCloseL(fp);
  Status s = (*reader)->Read(40, 20).status();
  EXPECT_EQ(s.code(), StatusCode::kIOError);
  EXPECT_NE(s.message().find("short read: got 10 of 20 bytes at offset 40"), std::string::npos) << s.message();
  reader = Status::NotFound("drop");  // close the pooled handles before the buffer goes away
  VSIUnlink(path.c_str());
}

TEST(VsiFileTest, ConcurrentReadAtUsesHandlePool) {
  TempDir tmp;
  const std::string path = tmp / "random.bin";
  std::mt19937 rng(11);
  std::string data(1 << 20, '\0');
  for (char& c : data) c = static_cast<char>(rng() & 0xff);
  testing::WriteFile(path, data);
  auto reader = OpenVsiFile(path);
  ASSERT_TRUE(reader.ok());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 r(100 + t);
      std::string buf;
      for (int i = 0; i < 300; ++i) {
        const uint64_t offset = r() % data.size();
        const size_t n = static_cast<size_t>(r() % std::min<uint64_t>(70000, data.size() - offset + 1));
        buf.assign(n, '\0');
        Status s = (*reader)->ReadAt(offset, n, buf.data());
        if (!s.ok() || buf != data.substr(offset, n)) failures.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace taco

namespace taco {
namespace {

TEST(VsiSubfileTest, ParsesAtTheFirstCommaAndRefusesMalformedRanges) {
  auto sub = ParseVsiSubfile("/vsisubfile/210_23971,/vsicurl/http://h/a,b.tacozip");
  ASSERT_TRUE(sub.has_value());
  EXPECT_EQ(sub->offset, 210u);
  EXPECT_EQ(sub->size, 23971u);
  EXPECT_EQ(sub->root, "/vsicurl/http://h/a,b.tacozip");
  for (const char* bad :
       {"/vsisubfile/12x_3,/a", "/vsisubfile/12_,/a", "/vsisubfile/_3,/a", "/vsisubfile/12_3", "/vsisubfile/12-3,/a",
        "/vsisubfile/99999999999999999999_1,/a", "/vsicurl/http://h/x", "DATA/x"}) {
    EXPECT_FALSE(ParseVsiSubfile(bad).has_value()) << bad;
  }
  uint64_t v = 0;
  EXPECT_TRUE(ParseDecimal("0", &v));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(ParseDecimal("9223372036854775807", &v));
  EXPECT_EQ(v, 9223372036854775807u);
  EXPECT_FALSE(ParseDecimal("", &v));
  EXPECT_FALSE(ParseDecimal("+1", &v));
}

}  // namespace
}  // namespace taco
