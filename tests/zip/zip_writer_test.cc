#include "format/zip/zip_writer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "format/zip/crc32.h"
#include "format/zip/taco_header.h"
#include "format/zip/zip_format.h"
#include "format/zip/zip_reader.h"
#include "support/paths.h"
#include "support/status_assert.h"
#include "taco/io.h"
#include "zip_test_util.h"

namespace taco::zip {
namespace {

using taco::testing::ReadFile;
using taco::testing::TempDir;
using taco::testing::WriteFile;
using testing::PythonZipCheck;
using testing::UnzipTest;
using testing::VsiRead;
using testing::VsiSubfilePath;
using testing::VsiZipPath;

uint32_t ZlibCrc(const std::string& s) {
  return static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(s.data()), s.size()));
}

std::string RandomBytes(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xFF);
  return s;
}

// Crc32() (carry-less multiplication on CPUs that have it) equals zlib's crc32 for every
// length around the 16- and 64-byte folding steps, any start offset (alignment) and any
// starting CRC, and when a buffer is fed in pieces.
TEST(Crc32Test, MatchesZlibAtEveryLengthOffsetAndSeed) {
  std::mt19937 rng(42);
  std::string data(70000, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  auto zlib = [&](uint32_t seed, size_t offset, size_t n) {
    return static_cast<uint32_t>(
        crc32(seed, reinterpret_cast<const Bytef*>(data.data() + offset), static_cast<uInt>(n)));
  };
  for (size_t n = 0; n <= 300; ++n) {
    for (size_t offset : {size_t{0}, size_t{1}, size_t{7}, size_t{15}}) {
      for (uint32_t seed : {0u, 0xFFFFFFFFu, 0x12345678u}) {
        ASSERT_EQ(Crc32(seed, data.data() + offset, n), zlib(seed, offset, n))
            << "n=" << n << " offset=" << offset << " seed=" << seed;
      }
    }
  }
  for (size_t n : {size_t{1023}, size_t{4096}, size_t{65536}, size_t{69999}}) {
    EXPECT_EQ(Crc32(0, data.data() + 1, n), zlib(0, 1, n)) << n;
  }
  uint32_t pieces = 0;
  for (size_t at = 0; at < data.size(); at += 777) {
    pieces = Crc32(pieces, data.data() + at, std::min<size_t>(777, data.size() - at));
  }
  EXPECT_EQ(pieces, zlib(0, 0, data.size()));
  EXPECT_EQ(Crc32(0, std::string(1000, '\0').data(), 1000), Crc32Zeros(1000));
}

TEST(Crc32Test, ZerosMatchZlib) {
  for (uint64_t n : {0u, 1u, 2u, 3u, 7u, 1000u, 4096u, (1u << 20) + 7, 3u << 20}) {
    EXPECT_EQ(Crc32Zeros(n), ZlibCrc(std::string(n, '\0'))) << n;
  }
  const std::string a = "abc", b(5000, '\0');
  EXPECT_EQ(Crc32Combine(ZlibCrc(a), Crc32Zeros(b.size()), b.size()), ZlibCrc(a + b));
}

TEST(MemberNameTest, Refused) {
  for (const char* bad : {"", "/abs", "a/../b", "..", "../x", "a/..", "a\\b", "a//b", "a/", "./a", "a/./b"}) {
    Status s = ValidateMemberName(bad);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_EQ(s.message().rfind(std::string(bad) + ": invalid ZIP member name", 0), 0u) << s.message();
  }
  EXPECT_OK(ValidateMemberName("DATA/a/b..c"));
  EXPECT_OK(ValidateMemberName("DATA/..a"));
  EXPECT_OK(ValidateMemberName("COLLECTION.json"));
  EXPECT_FALSE(ValidateMemberName(std::string(70000, 'a')).ok());
}

class ZipWriterTest : public ::testing::Test {
 protected:
  std::unique_ptr<ZipWriter> NewWriter(const std::string& name = "out.zip") {
    auto w = ZipWriter::Create(dir_ / name);
    EXPECT_OK(w);
    return w.ok() ? std::move(*w) : nullptr;
  }
  TempDir dir_;
};

TEST_F(ZipWriterTest, TacoArchiveIsValidEverywhere) {
  const std::string big = RandomBytes(9 << 20, 1);  // crosses the 4 MiB buffer twice
  WriteFile(dir_ / "big.bin", big);
  WriteFile(dir_ / "empty.bin", "");
  const std::string parquet = RandomBytes(5000, 2);
  const std::string collection = R"({"id":"test"})";

  auto w = NewWriter();
  ASSERT_OK(w->BeginTacoHeader());
  EXPECT_EQ(w->position(), kTacoHeaderSize);
  auto a = w->AddBytes("DATA/a", "content_a");
  auto b = w->AddFile("DATA/big", dir_ / "big.bin");
  auto e = w->AddFile("DATA/empty", dir_ / "empty.bin");
  auto u = w->AddBytes("DATA/\xC3\xBCn\xC3\xAF", "utf8");
  auto l0 = w->AddBytes("METADATA/level0.parquet", parquet);
  auto c = w->AddBytes("COLLECTION.json", collection);
  for (auto* r : {&a, &b, &e, &u, &l0, &c}) ASSERT_TRUE(r->ok()) << r->status().ToString();
  ASSERT_OK(w->SetTacoHeader({{l0->data_offset, l0->size}, {c->data_offset, c->size}}));
  const std::vector<MemberInfo> members = w->members();
  ASSERT_OK(w->Finish());

  const std::string zip = dir_ / "out.zip";
  const std::string file = ReadFile(zip);
  const std::vector<std::pair<std::string, std::string>> expected{{"DATA/a", "content_a"},
                                                                  {"DATA/big", big},
                                                                  {"DATA/empty", ""},
                                                                  {"DATA/\xC3\xBCn\xC3\xAF", "utf8"},
                                                                  {"METADATA/level0.parquet", parquet},
                                                                  {"COLLECTION.json", collection}};
  ASSERT_EQ(members.size(), expected.size() + 1);
  EXPECT_EQ(members[0].name, "TACO_HEADER");
  EXPECT_EQ(a->data_offset, kTacoHeaderSize + 30 + 6);

  // The first 157 bytes: a TACO_HEADER local header with the patched payload and CRC.
  EXPECT_EQ(file.substr(0, 4), "PK\x03\x04");
  EXPECT_EQ(file.substr(30, 11), "TACO_HEADER");
  EXPECT_EQ(testing::U16At(file, 28), 0);
  EXPECT_EQ(file.substr(41, 116), EncodeTacoHeaderPayload({{l0->data_offset, l0->size}, {c->data_offset, c->size}}));
  EXPECT_EQ(testing::U32At(file, 14), ZlibCrc(file.substr(41, 116)));
  EXPECT_EQ(testing::U32At(file, 14), members[0].crc32);
  auto reader = OpenLocalFile(zip);
  ASSERT_OK(reader);
  auto header = ReadTacoHeader(**reader);
  ASSERT_OK(header);
  EXPECT_EQ(header->entries, (std::vector<HeaderEntry>{{l0->data_offset, l0->size}, {c->data_offset, c->size}}));

  // Our own reader agrees with what the writer reported, and bytes are where it says.
  auto entries = ReadCentralDirectory(**reader, true);
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), members.size());
  EXPECT_EQ((*entries)[0].crc32, testing::U32At(file, 14));
  EXPECT_EQ((*entries)[0].external_attr, 0644u << 16);
  for (size_t i = 1; i < members.size(); ++i) {
    const ZipEntry& z = (*entries)[i];
    const auto& [name, content] = expected[i - 1];
    EXPECT_EQ(members[i].name, name);
    EXPECT_EQ(z.name, name);
    EXPECT_EQ(z.lfh_offset, members[i].lfh_offset) << name;
    EXPECT_EQ(z.data_offset, members[i].data_offset) << name;
    EXPECT_EQ(z.compressed_size, content.size()) << name;
    EXPECT_EQ(z.uncompressed_size, content.size()) << name;
    EXPECT_EQ(z.crc32, ZlibCrc(content)) << name;
    EXPECT_EQ(members[i].crc32, ZlibCrc(content)) << name;
    EXPECT_EQ(z.method, 0) << name;
    EXPECT_EQ(z.external_attr, 0100644u << 16) << name;
    EXPECT_TRUE(file.compare(members[i].data_offset, content.size(), content) == 0) << name;
    EXPECT_EQ(VsiRead(VsiZipPath(zip, name), 0, content.size() + 1), content) << name;
    // GDAL reads "/vsisubfile/<off>_0,…" as "to the end of the file": only non-empty members.
    if (!content.empty()) {
      EXPECT_EQ(VsiRead(VsiSubfilePath(zip, z.data_offset, content.size()), 0, content.size() + 1), content) << name;
    }
    // General-purpose flag bit 11 exactly for the non-ASCII name, in LFH and CD alike.
    const uint16_t flags = testing::U16At(file, members[i].lfh_offset + 6);
    EXPECT_EQ(flags, i == 4 ? kFlagUtf8 : 0) << name;
  }
  // Version made by 0x033F in the first central header; no ZIP64 records.
  const size_t eocd = file.size() - kEocdSize;
  EXPECT_EQ(testing::U32At(file, eocd), kEocdSignature);
  const uint32_t cd_offset = testing::U32At(file, eocd + 16);
  EXPECT_EQ(testing::U16At(file, cd_offset + 4), 0x033F);
  EXPECT_EQ(testing::U16At(file, eocd + 10), members.size());
  EXPECT_NE(testing::U32At(file, eocd - kZip64LocatorSize), kZip64LocatorSignature);
  EXPECT_EQ(file.find("PK\x06\x06"), std::string::npos);
  EXPECT_EQ(file.find("PK\x06\x07"), std::string::npos);
  EXPECT_EQ(testing::U16At(file, eocd + 20), 0);  // no comment

  EXPECT_EQ(UnzipTest(zip), "");
  EXPECT_EQ(PythonZipCheck(zip,
                           "assert z.namelist()[0]=='TACO_HEADER'\n"
                           "assert 'DATA/\\u00fcn\\u00ef' in z.namelist(), z.namelist()\n"
                           "assert len(z.namelist())==7\n"),
            "");
}

TEST_F(ZipWriterTest, SparseSourceWithHoles) {
  // data | 3 MiB hole (skipped) | data | 8 KiB hole (written as zeros) | data | ~1.9 MiB hole |
  // 1.5 MiB data | hole at the end.
  const std::string src = dir_ / "sparse.bin";
  const uint64_t size = (7u << 20) + 12345;
  const int fd = ::open(src.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(size)), 0);
  const std::vector<std::pair<uint64_t, std::string>> chunks{
      {0, RandomBytes(10000, 3)},
      {(3u << 20) + 10000, RandomBytes(5000, 4)},
      {(3u << 20) + 10000 + 5000 + 8192 + 4096, RandomBytes(70000, 5)},
      {5u << 20, RandomBytes(3u << 19, 6)}};  // 1.5 MiB: copied by the kernel
  std::string content(size, '\0');
  for (const auto& [off, bytes] : chunks) {
    ASSERT_EQ(::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(off)), static_cast<ssize_t>(bytes.size()));
    content.replace(off, bytes.size(), bytes);
  }
  ::close(fd);

  auto w = NewWriter();
  ASSERT_OK(w->BeginTacoHeader());
  auto m = w->AddFile("DATA/sparse", src);
  ASSERT_OK(m);
  auto after = w->AddBytes("DATA/after", "after");
  ASSERT_OK(after);
  ASSERT_OK(w->Finish());
  EXPECT_EQ(m->size, size);
  EXPECT_EQ(m->crc32, ZlibCrc(content));
  const std::string zip = dir_ / "out.zip";
  const std::string file = ReadFile(zip);
  EXPECT_TRUE(file.compare(m->data_offset, size, content) == 0);
  EXPECT_EQ(file.substr(after->data_offset, 5), "after");
  EXPECT_EQ(UnzipTest(zip), "");
  EXPECT_EQ(PythonZipCheck(zip), "");
}

// A source on another file system (tmpfs → the temp dir) may make copy_file_range fail with
// EXDEV; either way the member must come out byte-exact.
TEST_F(ZipWriterTest, SourceOnAnotherFileSystem) {
  if (!std::filesystem::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm";
  TempDir shm_guard;  // only for a unique name
  const std::string src = "/dev/shm/" + std::filesystem::path(shm_guard.path()).filename().string() + ".bin";
  const std::string content = RandomBytes((3u << 20) + 123, 7);
  WriteFile(src, content);
  auto w = NewWriter();
  auto m1 = w->AddFile("DATA/one", src);
  auto m2 = w->AddFile("DATA/two", src);
  std::filesystem::remove(src);
  ASSERT_OK(m1);
  ASSERT_OK(m2);
  ASSERT_OK(w->Finish());
  const std::string file = ReadFile(dir_ / "out.zip");
  EXPECT_TRUE(file.compare(m1->data_offset, content.size(), content) == 0);
  EXPECT_TRUE(file.compare(m2->data_offset, content.size(), content) == 0);
  EXPECT_EQ(m1->crc32, ZlibCrc(content));
  EXPECT_EQ(m2->crc32, ZlibCrc(content));
  EXPECT_EQ(PythonZipCheck(dir_ / "out.zip"), "");
}

TEST_F(ZipWriterTest, RefusesBadAndDuplicateNames) {
  auto w = NewWriter();
  ASSERT_OK(w->BeginTacoHeader());
  ASSERT_OK(w->AddBytes("DATA/a", "x"));
  const uint64_t pos = w->position();
  for (const char* bad : {"", "/etc/passwd", "DATA/../x", "DATA\\a"}) {
    auto r = w->AddBytes(bad, "y");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(bad), std::string::npos);
  }
  auto dup = w->AddBytes("DATA/a", "again");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().ToString(), "invalid argument: DATA/a: duplicate ZIP member name");
  auto dup_header = w->AddBytes("TACO_HEADER", "z");
  EXPECT_EQ(dup_header.status().code(), StatusCode::kInvalidArgument);
  auto dup_file = w->AddFile("DATA/a", "/nonexistent");
  EXPECT_EQ(dup_file.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(w->position(), pos);  // refused names write nothing; the writer is still usable
  ASSERT_OK(w->AddBytes("DATA/b", "y"));
  ASSERT_OK(w->Finish());
  EXPECT_EQ(UnzipTest(dir_ / "out.zip"), "");
}

TEST_F(ZipWriterTest, MisuseAndSourceErrors) {
  WriteFile(dir_ / "exists.zip", "x");
  auto exists = ZipWriter::Create(dir_ / "exists.zip");
  ASSERT_FALSE(exists.ok());
  EXPECT_EQ(exists.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadFile(dir_ / "exists.zip"), "x");

  auto w = NewWriter();
  auto missing = w->AddFile("DATA/m", dir_ / "missing.bin");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  auto directory = w->AddFile("DATA/d", dir_.path());
  EXPECT_EQ(directory.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(w->SetTacoHeader({}).code(), StatusCode::kInvalidArgument);  // no header begun
  ASSERT_OK(w->AddBytes("x", "1"));
  EXPECT_EQ(w->BeginTacoHeader().code(), StatusCode::kInvalidArgument);  // not first

  auto t = NewWriter("t.zip");
  ASSERT_OK(t->BeginTacoHeader());
  auto m = t->AddBytes("COLLECTION.json", "{}");
  ASSERT_OK(m);
  EXPECT_EQ(t->SetTacoHeader(std::vector<HeaderEntry>(8, {m->data_offset, 1})).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(t->SetTacoHeader({{m->data_offset, 3}}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(t->SetTacoHeader({{0, 1}}).code(), StatusCode::kInvalidArgument);
  ASSERT_OK(t->SetTacoHeader({{m->data_offset, 2}}));
  ASSERT_OK(t->Finish());
  EXPECT_EQ(t->Finish().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(t->AddBytes("y", "1").ok());
}

TEST_F(ZipWriterTest, UnfinishedOutputIsRemoved) {
  {
    auto w = NewWriter("partial.zip");
    ASSERT_OK(w->BeginTacoHeader());
    ASSERT_OK(w->AddBytes("DATA/a", std::string(10 << 20, 'a')));
    EXPECT_TRUE(std::filesystem::exists(dir_ / "partial.zip"));
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "partial.zip"));
  {
    auto w = NewWriter("done.zip");
    ASSERT_OK(w->Finish());
  }
  EXPECT_TRUE(std::filesystem::exists(dir_ / "done.zip"));
  EXPECT_EQ(PythonZipCheck(dir_ / "done.zip", "assert z.namelist()==[]\n"), "");
  auto reader = OpenLocalFile(dir_ / "done.zip");
  ASSERT_OK(reader);
  auto entries = ReadCentralDirectory(**reader, true);
  ASSERT_OK(entries);
  EXPECT_TRUE(entries->empty());
}

}  // namespace
}  // namespace taco::zip
