#include "format/zip/zip_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format/zip/taco_header.h"
#include "format/zip/zip_format.h"
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
using taco::testing::UpstreamFixtures;

std::string FlatPath() { return UpstreamFixtures() + "/zip/flat/flat.tacozip"; }

Result<std::vector<ZipEntry>> ReadBytes(const std::string& bytes, bool resolve = true) {
  return ReadCentralDirectory(*MemoryReader(bytes, "bad.zip"), resolve);
}

std::string ErrorOf(const std::string& bytes, bool resolve = true) {
  auto r = ReadBytes(bytes, resolve);
  if (r.ok()) return "<ok>";
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << r.status().ToString();
  return r.status().message();
}

TEST(ZipReaderTest, FlatFixture) {
  auto reader = OpenLocalFile(FlatPath());
  ASSERT_OK(reader);
  auto entries = ReadCentralDirectory(**reader, true);
  ASSERT_OK(entries);
  struct Expected {
    std::string name;
    uint64_t lfh, data, size;
  };
  // FORMAT §9.1.
  const std::vector<Expected> expected{{"TACO_HEADER", 0, 41, 116},
                                       {"DATA/sample_0", 157, 200, 16},
                                       {"DATA/sample_1", 216, 259, 13},
                                       {"DATA/sample_2", 272, 315, 11},
                                       {"DATA/sample_3", 326, 369, 13},
                                       {"DATA/sample_4", 382, 425, 12},
                                       {"METADATA/level0.parquet", 437, 490, 5703},
                                       {"COLLECTION.json", 6193, 6238, 2486}};
  ASSERT_EQ(entries->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const ZipEntry& e = (*entries)[i];
    EXPECT_EQ(e.name, expected[i].name);
    EXPECT_EQ(e.lfh_offset, expected[i].lfh) << e.name;
    EXPECT_EQ(e.data_offset, expected[i].data) << e.name;
    EXPECT_EQ(e.compressed_size, expected[i].size) << e.name;
    EXPECT_EQ(e.uncompressed_size, expected[i].size) << e.name;
    EXPECT_EQ(e.method, 0) << e.name;
  }
  EXPECT_EQ((*entries)[0].external_attr, 0644u << 16);
  EXPECT_EQ((*entries)[1].external_attr, 0100664u << 16);
  EXPECT_EQ((*entries)[0].crc32, LoadU32(ReadFile(FlatPath()).data() + 14));
  const std::string file = ReadFile(FlatPath());
  EXPECT_EQ(file.substr(200, 16), "content_valencia");
  EXPECT_EQ(file.substr(425, 12), "content_lima");
}

TEST(ZipReaderTest, WithoutResolvingDataOffsetsIsZero) {
  auto reader = OpenLocalFile(FlatPath());
  ASSERT_OK(reader);
  CountingReader counting(*reader);
  auto entries = ReadCentralDirectory(counting, false);
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), 8u);
  for (const ZipEntry& e : *entries) EXPECT_EQ(e.data_offset, 0u) << e.name;
  EXPECT_EQ(counting.requests(), 2u);  // the tail, then the central directory
  counting.Reset();
  ASSERT_OK(ReadCentralDirectory(counting, true));
  EXPECT_EQ(counting.requests(), 3u);  // + one batch of local headers
}

TEST(ZipReaderTest, NestedFixtureMatchesHeader) {
  auto reader = OpenLocalFile(UpstreamFixtures() + "/zip/nested/nested.tacozip");
  ASSERT_OK(reader);
  auto entries = ReadCentralDirectory(**reader, true);
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), 16u);
  auto find = [&](const std::string& name) -> const ZipEntry* {
    for (const ZipEntry& e : *entries) {
      if (e.name == name) return &e;
    }
    return nullptr;
  };
  auto header = ReadTacoHeader(**reader);
  ASSERT_OK(header);
  const std::vector<std::string> names{"METADATA/level0.parquet", "METADATA/level1.parquet", "COLLECTION.json"};
  ASSERT_EQ(header->entries.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const ZipEntry* e = find(names[i]);
    ASSERT_NE(e, nullptr) << names[i];
    EXPECT_EQ(e->data_offset, header->entries[i].offset);
    EXPECT_EQ(e->compressed_size, header->entries[i].length);
  }
  // FORMAT §9.2: level0 offsets point at the __meta__ members.
  ASSERT_NE(find("DATA/europe/__meta__"), nullptr);
  EXPECT_EQ(find("DATA/europe/__meta__")->data_offset, 10238u);
  EXPECT_EQ(find("DATA/americas/__meta__")->data_offset, 758u);
  EXPECT_EQ(find("DATA/asia/__meta__")->compressed_size, 4634u);
  EXPECT_EQ(find("DATA/europe/item_0")->data_offset, 205u);
}

TEST(ZipReaderTest, ForeignZipWithCommentAndDeflate) {
  TempDir dir;
  const std::string zip = dir / "py.zip";
  const std::string script =
      "import zipfile,sys\n"
      "with zipfile.ZipFile(sys.argv[1],'w') as z:\n"
      "  z.comment=b'PK\\x05\\x06 fake signature inside the comment'\n"
      "  z.writestr('a.txt', 'x'*1000, compress_type=zipfile.ZIP_DEFLATED)\n"
      "  z.writestr('b/c.bin', b'hello', compress_type=zipfile.ZIP_STORED)\n";
  auto run = RunCommand("/usr/bin/python3 -c " + ShellQuote(script) + " " + ShellQuote(zip));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto reader = OpenLocalFile(zip);
  ASSERT_OK(reader);
  auto entries = ReadCentralDirectory(**reader, true);
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].method, 8);
  EXPECT_EQ((*entries)[0].uncompressed_size, 1000u);
  EXPECT_LT((*entries)[0].compressed_size, 1000u);
  EXPECT_EQ((*entries)[1].name, "b/c.bin");
  EXPECT_EQ(ReadFile(zip).substr((*entries)[1].data_offset, 5), "hello");
}

TEST(ZipReaderTest, NotAZip) {
  EXPECT_EQ(ErrorOf("hello"), "bad.zip: not a ZIP: 5 bytes, too short for an end of central directory record");
  EXPECT_EQ(ErrorOf(std::string(5000, 'z')), "bad.zip: not a ZIP: no end of central directory record");
}

TEST(ZipReaderTest, TruncatedArchive) {
  const std::string file = ReadFile(FlatPath());
  EXPECT_EQ(ErrorOf(file.substr(0, file.size() - 1)), "bad.zip: not a ZIP: no end of central directory record");
  // Cut inside the data: the EOCD survives at the end, but the directory is no longer there.
  const std::string tail = file.substr(file.size() - 600);
  EXPECT_NE(ErrorOf(file.substr(0, 5000) + tail).find("central directory"), std::string::npos);
}

TEST(ZipReaderTest, DirectoryOutsideFile) {
  std::string file = ReadFile(FlatPath());
  StoreU32(file.data() + 9206 + 16, 9000);  // CD offset: 9000 + 482 > EOCD at 9206
  EXPECT_EQ(ErrorOf(file), "bad.zip: central directory (offset 9000, size 482) extends past its end record at 9206");
}

TEST(ZipReaderTest, TooManyEntries) {
  std::string file = ReadFile(FlatPath());
  StoreU16(file.data() + 9206 + 8, 20);
  StoreU16(file.data() + 9206 + 10, 20);
  EXPECT_EQ(ErrorOf(file), "bad.zip: central directory of 482 bytes cannot hold 20 entries");
  StoreU16(file.data() + 9206 + 8, 7);
  StoreU16(file.data() + 9206 + 10, 7);
  EXPECT_NE(ErrorOf(file).find("bytes after its last entry"), std::string::npos);
}

TEST(ZipReaderTest, BadCentralSignature) {
  std::string file = ReadFile(FlatPath());
  file[8724 + 1] = 'X';
  EXPECT_EQ(ErrorOf(file), "bad.zip: central directory entry 0: bad signature at offset 8724");
}

TEST(ZipReaderTest, MissingZip64Extra) {
  std::string file = ReadFile(FlatPath());
  StoreU32(file.data() + 8724 + 20, kMax32);  // TACO_HEADER compressed size → "see ZIP64"
  EXPECT_EQ(ErrorOf(file),
            "bad.zip: central directory entry 0 (\"TACO_HEADER\"): sizes or offset need a ZIP64 "
            "extra field, none found");
}

TEST(ZipReaderTest, LocalHeaderOffsetPastDirectory) {
  std::string file = ReadFile(FlatPath());
  StoreU32(file.data() + 8724 + 42, 8715);
  EXPECT_NE(ErrorOf(file).find("local header offset 8715 is not before the central directory"), std::string::npos);
}

TEST(ZipReaderTest, LocalHeaderMismatch) {
  std::string file = ReadFile(FlatPath());
  file[157 + 30 + 5] = 'X';  // DATA/sample_0's local name
  EXPECT_EQ(ErrorOf(file),
            "bad.zip: local header of \"DATA/sample_0\" at offset 157: name differs from the "
            "central directory");
  EXPECT_EQ(ErrorOf(file, false), "<ok>");  // only the central directory is read
  std::string bad_sig = ReadFile(FlatPath());
  bad_sig[6193] = 'Q';
  EXPECT_EQ(ErrorOf(bad_sig), "bad.zip: local header of \"COLLECTION.json\" at offset 6193: bad signature");
}

TEST(ZipReaderTest, DataRunsIntoDirectory) {
  std::string file = ReadFile(FlatPath());
  // COLLECTION.json's CDH is the last of 8; grow its size in the CD by one byte.
  const auto entries = ReadBytes(file);
  ASSERT_OK(entries);
  size_t p = 8724;
  for (int i = 0; i < 7; ++i) {
    p += kCentralHeaderSize + LoadU16(file.data() + p + 28) + LoadU16(file.data() + p + 30) +
         LoadU16(file.data() + p + 32);
  }
  StoreU32(file.data() + p + 20, 2487);
  EXPECT_EQ(ErrorOf(file),
            "bad.zip: local header of \"COLLECTION.json\" at offset 6193: data (2487 bytes) runs "
            "into the central directory at 8724");
}

}  // namespace
}  // namespace taco::zip
