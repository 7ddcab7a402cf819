#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "format/zip/taco_header.h"
#include "format/zip/zip_format.h"
#include "format/zip/zip_reader.h"
#include "format/zip/zip_writer.h"
#include "support/paths.h"
#include "support/status_assert.h"
#include "taco/io.h"
#include "zip_test_util.h"

namespace taco::zip {
namespace {

using taco::testing::ReadFile;
using taco::testing::RunCommand;
using taco::testing::ShellQuote;
using taco::testing::TempDir;
using testing::PreadFile;
using testing::PythonZipCheck;
using testing::U16At;
using testing::U32At;
using testing::UnzipTest;
using testing::VsiRead;
using testing::VsiSubfilePath;
using testing::VsiZipPath;

// The last 22 bytes (EOCD) and, before them, what would be the ZIP64 locator.
std::string Tail(const std::string& path, uint64_t* size) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  *size = static_cast<uint64_t>(st.st_size);
  return PreadFile(path, *size - kEocdSize - kZip64LocatorSize, kEocdSize + kZip64LocatorSize);
}

TEST(Zip64Test, SmallArchiveHasNoZip64Records) {
  TempDir dir;
  const std::string zip = dir / "small.zip";
  auto w = ZipWriter::Create(zip);
  ASSERT_OK(w);
  ASSERT_OK((*w)->BeginTacoHeader());
  for (int i = 0; i < 100; ++i) ASSERT_OK((*w)->AddBytes("DATA/" + std::to_string(i), "x"));
  ASSERT_OK((*w)->Finish());
  uint64_t size = 0;
  const std::string tail = Tail(zip, &size);
  EXPECT_EQ(U32At(tail, kZip64LocatorSize), kEocdSignature);
  EXPECT_NE(U32At(tail, 0), kZip64LocatorSignature);
  EXPECT_EQ(ReadFile(zip).find("PK\x06\x06"), std::string::npos);
  EXPECT_EQ(U16At(tail, kZip64LocatorSize + 10), 101);
}

TEST(Zip64Test, SparseMemberOver4GiB) {
  TempDir dir;
  const std::string src = dir / "big.bin";
  const uint64_t big_size = (uint64_t{4} << 30) + 10;
  const std::string head = "HEAD-of-the-big-file", tail = "0123456789";
  {
    const int fd = ::open(src.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(big_size)), 0);
    ASSERT_EQ(::pwrite(fd, head.data(), head.size(), 0), static_cast<ssize_t>(head.size()));
    ASSERT_EQ(::pwrite(fd, tail.data(), tail.size(), static_cast<off_t>(big_size - tail.size())),
              static_cast<ssize_t>(tail.size()));
    ::close(fd);
  }
  const std::string zip = dir / "big.tacozip";
  auto w = ZipWriter::Create(zip);
  ASSERT_OK(w);
  ASSERT_OK((*w)->BeginTacoHeader());
  auto small = (*w)->AddBytes("DATA/small", "small");
  auto big = (*w)->AddFile("DATA/big", src);
  ASSERT_OK(big);
  auto level0 = (*w)->AddBytes("METADATA/level0.parquet", "parquet-bytes");  // LFH past 4 GiB
  auto collection = (*w)->AddBytes("COLLECTION.json", "{\"id\":\"big\"}");
  ASSERT_TRUE(small.ok() && level0.ok() && collection.ok());
  const std::vector<HeaderEntry> pairs{{level0->data_offset, level0->size},
                                       {collection->data_offset, collection->size}};
  ASSERT_OK((*w)->SetTacoHeader(pairs));
  ASSERT_OK((*w)->Finish());

  EXPECT_EQ(big->size, big_size);
  EXPECT_EQ(big->data_offset, big->lfh_offset + 30 + 8 + 20);  // ZIP64 extra in the LFH
  EXPECT_GT(level0->lfh_offset, uint64_t{0xFFFFFFFF});

  // The output stays sparse.
  struct stat st {};
  ASSERT_EQ(::stat(zip.c_str(), &st), 0);
  EXPECT_LT(static_cast<uint64_t>(st.st_blocks) * 512, uint64_t{64} << 20);

  // The big member's local header: both 32-bit sizes are the marker, extra = ZIP64 sizes.
  const std::string lfh = PreadFile(zip, big->lfh_offset, 30 + 8 + 20);
  EXPECT_EQ(U32At(lfh, 18), 0xFFFFFFFFu);
  EXPECT_EQ(U32At(lfh, 22), 0xFFFFFFFFu);
  EXPECT_EQ(U16At(lfh, 28), 20);
  EXPECT_EQ(U16At(lfh, 38), kZip64ExtraId);
  EXPECT_EQ(U16At(lfh, 40), 16);
  EXPECT_EQ(LoadU64(lfh.data() + 42), big_size);
  EXPECT_EQ(LoadU64(lfh.data() + 50), big_size);

  // The central directory lies past 4 GiB: ZIP64 EOCD + locator, classic fields saturated.
  uint64_t size = 0;
  const std::string end = Tail(zip, &size);
  EXPECT_EQ(U32At(end, 0), kZip64LocatorSignature);
  EXPECT_EQ(U32At(end, kZip64LocatorSize + 16), 0xFFFFFFFFu);

  auto reader = OpenLocalFile(zip);
  ASSERT_OK(reader);
  auto header = ReadTacoHeader(**reader);
  ASSERT_OK(header);
  EXPECT_EQ(header->entries, pairs);
  auto entries = ReadCentralDirectory(**reader, true);
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), 5u);
  const ZipEntry& e = (*entries)[2];
  EXPECT_EQ(e.name, "DATA/big");
  EXPECT_EQ(e.compressed_size, big_size);
  EXPECT_EQ(e.uncompressed_size, big_size);
  EXPECT_EQ(e.data_offset, big->data_offset);
  EXPECT_EQ(e.crc32, big->crc32);
  EXPECT_EQ((*entries)[3].lfh_offset, level0->lfh_offset);
  EXPECT_EQ((*entries)[3].data_offset, level0->data_offset);
  EXPECT_EQ((*entries)[4].data_offset, collection->data_offset);

  // Bytes through GDAL: the ends of the big member, and members past 4 GiB by name.
  const std::string sub = VsiSubfilePath(zip, big->data_offset, big_size);
  EXPECT_EQ(VsiRead(sub, big_size - 10, 100), tail);
  EXPECT_EQ(VsiRead(sub, 0, head.size()), head);
  EXPECT_EQ(VsiRead(sub, big_size / 2, 4), std::string(4, '\0'));
  EXPECT_EQ(VsiRead(VsiZipPath(zip, "COLLECTION.json"), 0, 100), "{\"id\":\"big\"}");
  EXPECT_EQ(VsiRead(VsiZipPath(zip, "METADATA/level0.parquet"), 0, 100), "parquet-bytes");
  EXPECT_EQ(VsiRead(VsiZipPath(zip, "DATA/small"), 0, 100), "small");

  // Info-ZIP checks every CRC, the 4 GiB member's included (about 20 s: its CRC runs well
  // under 1 GB/s). Python below checks them all too.
  EXPECT_EQ(UnzipTest(zip), "");
  EXPECT_EQ(PythonZipCheck(zip, "assert z.getinfo('DATA/big').file_size==" + std::to_string(big_size) +
                                    "\n"
                                    "assert z.read('COLLECTION.json')==b'{\"id\":\"big\"}'\n"),
            "");
}

TEST(Zip64Test, MoreThan65535Members) {
  TempDir dir;
  const std::string zip = dir / "many.zip";
  constexpr int kCount = 70000;
  auto w = ZipWriter::Create(zip);
  ASSERT_OK(w);
  ASSERT_OK((*w)->BeginTacoHeader());
  char name[32];
  for (int i = 0; i < kCount; ++i) {
    std::snprintf(name, sizeof name, "DATA/s%05d", i);
    ASSERT_OK((*w)->AddBytes(name, std::to_string(i * 7))) << name;
  }
  const std::vector<MemberInfo> members = (*w)->members();
  ASSERT_OK((*w)->Finish());

  uint64_t size = 0;
  const std::string end = Tail(zip, &size);
  EXPECT_EQ(U32At(end, 0), kZip64LocatorSignature);
  EXPECT_EQ(U16At(end, kZip64LocatorSize + 10), 0xFFFF);
  const uint64_t z64 = LoadU64(end.data() + 8);
  const std::string record = PreadFile(zip, z64, kZip64EocdSize);
  EXPECT_EQ(U32At(record, 0), kZip64EocdSignature);
  EXPECT_EQ(LoadU64(record.data() + 32), uint64_t{kCount + 1});

  auto reader = OpenLocalFile(zip);
  ASSERT_OK(reader);
  CountingReader counting(*reader);
  auto entries = ReadCentralDirectory(counting, true);
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    ASSERT_EQ((*entries)[i].name, members[i].name);
    ASSERT_EQ((*entries)[i].data_offset, members[i].data_offset) << members[i].name;
  }
  EXPECT_LT(counting.requests(), 10u);  // local headers are read in large batches
  const std::string file = ReadFile(zip);
  EXPECT_EQ(file.substr(members[kCount].data_offset, 6), std::to_string((kCount - 1) * 7));
  EXPECT_EQ(VsiRead(VsiZipPath(zip, "DATA/s69999"), 0, 100), std::to_string(69999 * 7));

  EXPECT_EQ(UnzipTest(zip), "");
  EXPECT_EQ(PythonZipCheck(zip, "assert len(z.namelist())==" + std::to_string(kCount + 1) +
                                    "\nassert z.read('DATA/s12345')==b'86415'\n"),
            "");
}

}  // namespace
}  // namespace taco::zip
