// Hostile sizes (issue 14) are refused with an error before any large allocation: a
// TACO_HEADER pair claiming 2^63 bytes, a COLLECTION.json of 1 GB (a sparse file), a central
// directory claiming 10^9 members or 2^63 bytes, a Parquet level claiming 10^12 rows, a
// `__TACOCAT__` whose COLLECTION.json claims 1 GB. The limits are in src/util/limits.h.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "format/zip/taco_header.h"
#include "format/zip/zip_format.h"
#include "format/zip/zip_reader.h"
#include "reliability/reliability_util.h"
#include "table/engine.h"
#include "util/limits.h"

namespace taco {
namespace {

using testing::TempDir;

// `prefix` at byte 0 of a sparse file of `size` bytes (no disk blocks for the rest).
void WriteSparse(const std::string& path, const std::string& prefix, uint64_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::pwrite(fd, prefix.data(), prefix.size(), 0), static_cast<ssize_t>(prefix.size()));
  ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(size)), 0);
  ::close(fd);
}

// The first 157 bytes of flat.tacozip with its pairs replaced.
std::string HeaderWithPairs(const std::vector<zip::HeaderEntry>& pairs) {
  std::string bytes = testing::ReadFile(reliability::FlatZip()).substr(0, zip::kTacoHeaderSize);
  const std::string payload = zip::EncodeTacoHeaderPayload(pairs);
  bytes.replace(41, payload.size(), payload);
  return bytes;
}

TEST(Limits, HeaderPairClaimingTwoToThe63BytesIsRefused) {
  TempDir tmp;
  const std::string path = tmp / "x.tacozip";
  WriteSparse(path, HeaderWithPairs({{200, uint64_t{1} << 63}}), 4096);
  auto ds = Dataset::Open(path);
  ASSERT_FALSE(ds.ok());
  EXPECT_EQ(ds.status().code(), StatusCode::kCorruption);
  EXPECT_NE(ds.status().message().find("ends past the end of the file"), std::string::npos) << ds.status().message();
}

TEST(Limits, AOneGigabyteCollectionJsonIsRefusedBeforeItIsRead) {
  TempDir tmp;
  const std::string path = tmp / "x.tacozip";
  const uint64_t gb = uint64_t{1} << 30;
  WriteSparse(path, HeaderWithPairs({{200, 100}, {400, gb}}), 400 + gb);
  auto ds = Dataset::Open(path);
  ASSERT_FALSE(ds.ok());
  EXPECT_EQ(ds.status().message(), path + ": malformed TACO_HEADER: COLLECTION.json (the last pair) claims " +
                                       std::to_string(gb) + " bytes, more than the 67108864 allowed");
  // The same for a FOLDER dataset's COLLECTION.json file.
  const std::string folder = tmp / "folder";
  std::filesystem::create_directories(folder + "/METADATA");
  WriteSparse(folder + "/COLLECTION.json", "{", gb);
  auto f = Dataset::Open(folder);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("COLLECTION.json is 1073741824 bytes, more than the 67108864 allowed"),
            std::string::npos)
      << f.status().message();
}

// An end of central directory record (ZIP64 when `zip64`) claiming `entries` and `cd_size`.
std::string EndRecords(uint64_t entries, uint64_t cd_size, uint64_t cd_offset, uint64_t at, bool zip64) {
  std::string out;
  if (zip64) {
    zip::AppendU32(out, zip::kZip64EocdSignature);
    zip::AppendU64(out, 44);
    zip::AppendU16(out, 45);
    zip::AppendU16(out, 45);
    zip::AppendU32(out, 0);
    zip::AppendU32(out, 0);
    zip::AppendU64(out, entries);
    zip::AppendU64(out, entries);
    zip::AppendU64(out, cd_size);
    zip::AppendU64(out, cd_offset);
    zip::AppendU32(out, zip::kZip64LocatorSignature);
    zip::AppendU32(out, 0);
    zip::AppendU64(out, at);
    zip::AppendU32(out, 1);
  }
  zip::AppendU32(out, zip::kEocdSignature);
  zip::AppendU16(out, 0);
  zip::AppendU16(out, 0);
  zip::AppendU16(out, zip64 ? 0xFFFF : static_cast<uint16_t>(entries));
  zip::AppendU16(out, zip64 ? 0xFFFF : static_cast<uint16_t>(entries));
  zip::AppendU32(out, zip64 ? 0xFFFFFFFF : static_cast<uint32_t>(cd_size));
  zip::AppendU32(out, zip64 ? 0xFFFFFFFF : static_cast<uint32_t>(cd_offset));
  zip::AppendU16(out, 0);
  return out;
}

TEST(Limits, CentralDirectoryClaimsAreCheckedAgainstTheFileAndTheLimit) {
  // 10^9 members in a 1000-byte directory; 2^63 bytes of directory; 5 GiB of directory in a
  // sparse 5 GiB file (inside the file, over the limit).
  struct Case {
    uint64_t entries, cd_size, file_size;
    std::string expect;
  } cases[] = {
      {1'000'000'000, 1000, 4096, "cannot hold 1000000000 entries"},
      {10, uint64_t{1} << 63, 4096, "extends past its end record"},
      {10, uint64_t{5} << 30, (uint64_t{5} << 30) + 4096, "more than the 4294967296 allowed"},
  };
  TempDir tmp;
  for (const Case& c : cases) {
    const std::string path = tmp / "cd.zip";
    const uint64_t at = c.file_size - 56 - 20 - 22;
    std::remove(path.c_str());
    WriteSparse(path, "", c.file_size);
    const std::string tail = EndRecords(c.entries, c.cd_size, 0, at, /*zip64=*/true);
    const int fd = ::open(path.c_str(), O_WRONLY);
    ASSERT_EQ(::pwrite(fd, tail.data(), tail.size(), static_cast<off_t>(at)), static_cast<ssize_t>(tail.size()));
    ::close(fd);
    auto reader = OpenLocalFile(path);
    ASSERT_TRUE(reader.ok());
    auto entries = zip::ReadCentralDirectory(**reader, true);
    ASSERT_FALSE(entries.ok()) << c.expect;
    EXPECT_EQ(entries.status().code(), StatusCode::kCorruption);
    EXPECT_NE(entries.status().message().find(c.expect), std::string::npos) << entries.status().message();
  }
}

// Rewrites the Thrift compact varint of every i64 field 3 (`num_rows` of FileMetaData and
// of each RowGroup) equal to `from` as `to` in a Parquet footer, fixing the footer length.
std::string ClaimRows(const std::string& parquet, uint64_t from, uint64_t to) {
  auto varint = [](uint64_t v) {
    std::string out;
    do {
      unsigned char b = v & 0x7f;
      v >>= 7;
      if (v) b |= 0x80;
      out.push_back(static_cast<char>(b));
    } while (v);
    return out;
  };
  const uint32_t footer_len = zip::LoadU32(parquet.data() + parquet.size() - 8);
  const size_t footer_start = parquet.size() - 8 - footer_len;
  std::string footer = parquet.substr(footer_start, footer_len);
  // Field header: delta 1 from field 2, type i64 (6) → 0x16; value: zigzag varint.
  const std::string old_field = std::string("\x16") + varint(from * 2);
  const std::string new_field = std::string("\x16") + varint(to * 2);
  size_t replaced = 0;
  for (size_t at = footer.find(old_field); at != std::string::npos;
       at = footer.find(old_field, at + new_field.size())) {
    footer.replace(at, old_field.size(), new_field);
    ++replaced;
  }
  EXPECT_GE(replaced, 2u) << "num_rows not found in the footer";
  std::string out = parquet.substr(0, footer_start) + footer;
  zip::AppendU32(out, static_cast<uint32_t>(footer.size()));
  out += "PAR1";
  return out;
}

TEST(Limits, AParquetLevelClaimingTenToTheTwelveRowsIsRefused) {
  auto engine = table::Engine::Open();
  ASSERT_TRUE(engine.ok());
  auto parquet = (*engine)->QueryToParquet("SELECT 'a' || i::VARCHAR AS id, 'FILE' AS type FROM range(77) t(i)");
  ASSERT_TRUE(parquet.ok()) << parquet.status().ToString();
  const std::string claimed = ClaimRows(*parquet, 77, 1'000'000'000'000);
  // As a FOLDER dataset's level 0.
  TempDir tmp;
  const std::string folder = tmp / "ds";
  std::filesystem::create_directories(folder + "/METADATA");
  testing::WriteFile(folder + "/METADATA/level0.parquet", claimed);
  testing::WriteFile(folder + "/COLLECTION.json", "{\"id\": \"x\"}");
  auto ds = Dataset::Open(folder);
  ASSERT_FALSE(ds.ok());
  EXPECT_NE(ds.status().message().find("level0.parquet claims 1000000000000 rows, more than the 1000000000 allowed"),
            std::string::npos)
      << ds.status().message();
  // As a member read whole (a FOLDER's __meta__): at most max_rows + 1 rows are decoded.
  auto table = (*engine)->ReadParquet(MemoryReader(claimed, "DATA/f/__meta__"), 50);
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("DATA/f/__meta__"), std::string::npos) << table.status().message();
  auto fine = (*engine)->ReadParquet(MemoryReader(*parquet, "ok"), 77);
  ASSERT_TRUE(fine.ok());
  EXPECT_EQ(fine->num_rows(), 77u);
}

}  // namespace
}  // namespace taco
