// Local pread reader, the generic readers (SubRange, MemoryReader, CountingReader) and the
// OpenRangeReader dispatch.
#include <gtest/gtest.h>

#include <algorithm>
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

using testing::TempDir;
using testing::UpstreamFixtures;

std::string FlatZip() { return UpstreamFixtures() + "/zip/flat/flat.tacozip"; }

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string out(n, '\0');
  for (char& c : out) c = static_cast<char>(rng() & 0xff);
  return out;
}

TEST(LocalFileTest, ReadsExactBytes) {
  const std::string path = FlatZip();
  const std::string expected = testing::ReadFile(path);
  auto reader = OpenLocalFile(path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->size(), expected.size());
  EXPECT_EQ((*reader)->name(), path);
  auto sample = (*reader)->Read(200, 16);
  ASSERT_TRUE(sample.ok()) << sample.status().ToString();
  EXPECT_EQ(*sample, "content_valencia");
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, expected);
  // The last byte, and a zero-length read at the very end.
  auto last = (*reader)->Read(expected.size() - 1, 1);
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(*last, expected.substr(expected.size() - 1));
  auto none = (*reader)->Read(expected.size(), 0);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, "");
}

TEST(LocalFileTest, ReadPastEndIsCorruption) {
  const std::string path = FlatZip();
  auto reader = OpenLocalFile(path);
  ASSERT_TRUE(reader.ok());
  char buf[16];
  Status s = (*reader)->ReadAt(9225, 16, buf);
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.message(), path + ": read of 16 bytes at offset 9225 is past the end (size 9228)");
  // Huge lengths and offsets do not overflow into "inside".
  EXPECT_EQ((*reader)->ReadAt(UINT64_MAX - 4, 8, buf).code(), StatusCode::kCorruption);
  EXPECT_EQ((*reader)->Read(8, SIZE_MAX).status().code(), StatusCode::kCorruption);
  EXPECT_EQ((*reader)->Read(9229, 0).status().code(), StatusCode::kCorruption);
}

TEST(LocalFileTest, EmptyFile) {
  TempDir tmp;
  const std::string path = tmp / "empty";
  testing::WriteFile(path, "");
  auto reader = OpenLocalFile(path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->size(), 0u);
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, "");
  char c;
  EXPECT_EQ((*reader)->ReadAt(0, 1, &c).code(), StatusCode::kCorruption);
}

TEST(LocalFileTest, DirectoryIsRefused) {
  TempDir tmp;
  auto reader = OpenLocalFile(tmp.path());
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message(), tmp.path() + ": is a directory");
}

TEST(LocalFileTest, MissingFileIsNotFound) {
  TempDir tmp;
  const std::string path = tmp / "nope.tacozip";
  auto reader = OpenLocalFile(path);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(reader.status().message(), path + ": no such file");
}

TEST(LocalFileTest, FifoIsRefusedWithoutBlocking) {
  TempDir tmp;
  const std::string path = tmp / "fifo";
  ASSERT_EQ(testing::RunCommand("mkfifo " + testing::ShellQuote(path)).exit_code, 0);
  auto reader = OpenLocalFile(path);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message(), path + ": not a regular file");
}

TEST(LocalFileTest, ReaderOutlivesUnlink) {
  TempDir tmp;
  const std::string path = tmp / "f";
  testing::WriteFile(path, "hello world");
  auto reader = OpenLocalFile(path);
  ASSERT_TRUE(reader.ok());
  std::filesystem::remove(path);
  auto bytes = (*reader)->Read(6, 5);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, "world");
}

// Many threads reading random ranges of one reader all get the right bytes.
void ExpectConcurrentReadsCorrect(const RangeReader& reader, const std::string& expected) {
  constexpr int kThreads = 8;
  constexpr int kReadsPerThread = 300;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(1234 + t);
      std::string buf;
      for (int i = 0; i < kReadsPerThread; ++i) {
        const uint64_t offset = rng() % expected.size();
        const size_t n = static_cast<size_t>(rng() % std::min<uint64_t>(70000, expected.size() - offset + 1));
        buf.assign(n, '\0');
        Status s = reader.ReadAt(offset, n, buf.data());
        if (!s.ok() || buf != expected.substr(offset, n)) failures.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(LocalFileTest, ConcurrentReadAt) {
  TempDir tmp;
  const std::string path = tmp / "random.bin";
  const std::string data = RandomBytes(1 << 20, 7);
  testing::WriteFile(path, data);
  auto reader = OpenLocalFile(path);
  ASSERT_TRUE(reader.ok());
  ExpectConcurrentReadsCorrect(**reader, data);
}

TEST(MemoryReaderTest, ReadsAndChecksBounds) {
  RangeReaderPtr r = MemoryReader("abcdefghij", "mem");
  EXPECT_EQ(r->size(), 10u);
  EXPECT_EQ(r->name(), "mem");
  EXPECT_EQ(*r->Read(2, 3), "cde");
  EXPECT_EQ(*r->ReadAll(), "abcdefghij");
  Status s = r->Read(8, 3).status();
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.message(), "mem: read of 3 bytes at offset 8 is past the end (size 10)");
  EXPECT_EQ(MemoryReader("x")->name(), "<memory>");
}

TEST(MemoryReaderTest, ConcurrentReadAt) {
  const std::string data = RandomBytes(200000, 3);
  ExpectConcurrentReadsCorrect(*MemoryReader(data), data);
}

TEST(SubRangeTest, ReadsInsideTheRange) {
  RangeReaderPtr base = MemoryReader("0123456789abcdef", "base");
  auto sub = SubRange(base, 4, 8);
  ASSERT_TRUE(sub.ok()) << sub.status().ToString();
  EXPECT_EQ((*sub)->size(), 8u);
  EXPECT_EQ((*sub)->name(), "/vsisubfile/4_8,base");
  EXPECT_EQ(*(*sub)->ReadAll(), "456789ab");
  EXPECT_EQ(*(*sub)->Read(6, 2), "ab");
  Status s = (*sub)->Read(6, 3).status();
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.message(), "/vsisubfile/4_8,base: read of 3 bytes at offset 6 is past the end (size 8)");
}

TEST(SubRangeTest, BoundsAreChecked) {
  RangeReaderPtr base = MemoryReader("0123456789", "base");
  EXPECT_TRUE(SubRange(base, 0, 10).ok());
  EXPECT_TRUE(SubRange(base, 10, 0).ok());
  auto bad = SubRange(base, 5, 6);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kCorruption);
  EXPECT_EQ(bad.status().message(), "base: sub-range of 6 bytes at offset 5 is past the end (size 10)");
  EXPECT_FALSE(SubRange(base, 11, 0).ok());
  EXPECT_FALSE(SubRange(base, UINT64_MAX, 2).ok());
  EXPECT_FALSE(SubRange(nullptr, 0, 0).ok());
}

TEST(SubRangeTest, ComposesOntoTheBase) {
  auto counting = std::make_shared<CountingReader>(MemoryReader("0123456789abcdef", "base"));
  auto outer = SubRange(counting, 2, 12);  // "23456789abcd"
  ASSERT_TRUE(outer.ok());
  auto inner = SubRange(*outer, 3, 5, "custom");  // "56789"
  ASSERT_TRUE(inner.ok());
  EXPECT_EQ((*inner)->name(), "custom");
  EXPECT_EQ(*(*inner)->ReadAll(), "56789");
  auto innermost = SubRange(*inner, 1, 3);  // "678"
  ASSERT_TRUE(innermost.ok());
  // Offsets are relative to the root base, so the name is a valid GDAL /vsisubfile/ path.
  EXPECT_EQ((*innermost)->name(), "/vsisubfile/6_3,base");
  counting->Reset();
  EXPECT_EQ(*(*innermost)->ReadAll(), "678");
  EXPECT_EQ(counting->requests(), 1u);
  EXPECT_EQ(counting->bytes(), 3u);
  // Composition still checks bounds against the inner range, not the base.
  EXPECT_FALSE(SubRange(*inner, 3, 3).ok());
}

TEST(SubRangeTest, OverLocalFileReadsSample) {
  auto file = OpenLocalFile(FlatZip());
  ASSERT_TRUE(file.ok());
  auto sub = SubRange(*file, 200, 16);
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(*(*sub)->ReadAll(), "content_valencia");
}

TEST(CountingReaderTest, CountsRequestsAndBytes) {
  auto counting = std::make_shared<CountingReader>(MemoryReader("abcdefgh", "m"));
  EXPECT_EQ(counting->size(), 8u);
  EXPECT_EQ(counting->name(), "m");
  EXPECT_EQ(counting->requests(), 0u);
  EXPECT_EQ(*counting->Read(0, 3), "abc");
  EXPECT_EQ(*counting->Read(5, 2), "fg");
  EXPECT_EQ(counting->requests(), 2u);
  EXPECT_EQ(counting->bytes(), 5u);
  counting->Reset();
  EXPECT_EQ(counting->requests(), 0u);
  EXPECT_EQ(counting->bytes(), 0u);
  char buf[4];
  ASSERT_TRUE(counting->ReadAt(4, 4, buf).ok());
  EXPECT_EQ(std::string(buf, 4), "efgh");
  EXPECT_EQ(counting->requests(), 1u);
  EXPECT_EQ(counting->bytes(), 4u);
}

TEST(OpenRangeReaderTest, DispatchesOnPathKind) {
  auto local = OpenRangeReader(FlatZip());
  ASSERT_TRUE(local.ok());
  EXPECT_EQ((*local)->name(), FlatZip());
  const std::string vsi = "/vsisubfile/259_13," + FlatZip();
  auto remote = OpenRangeReader(vsi);
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  EXPECT_EQ((*remote)->size(), 13u);
  EXPECT_EQ(*(*remote)->ReadAll(), "content_paris");
  TempDir tmp;
  EXPECT_EQ(OpenRangeReader(tmp / "missing").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace taco
