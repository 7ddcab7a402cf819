#include "format/zip/taco_header.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "format/zip/zip_format.h"
#include "support/paths.h"
#include "taco/io.h"

namespace taco::zip {
namespace {

using taco::testing::ReadFile;
using taco::testing::UpstreamFixtures;

// A local file header named `name` followed by `payload`, as a TACO writer lays it out.
std::string HeaderBytes(const std::string& name, const std::string& payload) {
  std::string h;
  AppendU32(h, kLocalHeaderSignature);
  AppendU16(h, 10);
  AppendU16(h, 0);
  AppendU16(h, 0);
  AppendU16(h, 0x5000);
  AppendU16(h, 0x5b9e);
  AppendU32(h, static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(payload.data()), payload.size())));
  AppendU32(h, static_cast<uint32_t>(payload.size()));
  AppendU32(h, static_cast<uint32_t>(payload.size()));
  AppendU16(h, static_cast<uint16_t>(name.size()));
  AppendU16(h, 0);
  return h + name + payload;
}

std::string Header(const std::vector<HeaderEntry>& entries) {
  return HeaderBytes("TACO_HEADER", EncodeTacoHeaderPayload(entries));
}

// Parses `bytes` as the start of a file of `file_size` bytes; returns the error message.
std::string ParseError(const std::string& bytes, uint64_t file_size) {
  auto r = ParseTacoHeader(bytes, file_size, "x.tacozip");
  if (r.ok()) return "<parsed>";
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  return r.status().message();
}

TEST(TacoHeaderTest, PayloadLayout) {
  const std::string p = EncodeTacoHeaderPayload({{490, 5703}, {6238, 2451}});
  ASSERT_EQ(p.size(), kTacoHeaderPayloadSize);
  EXPECT_EQ(p[0], 2);
  EXPECT_EQ(p.substr(1, 3), std::string(3, '\0'));
  EXPECT_EQ(LoadU64(p.data() + 4), 490u);
  EXPECT_EQ(LoadU64(p.data() + 12), 5703u);
  EXPECT_EQ(LoadU64(p.data() + 20), 6238u);
  EXPECT_EQ(LoadU64(p.data() + 28), 2451u);
  EXPECT_EQ(p.substr(36), std::string(kTacoHeaderPayloadSize - 36, '\0'));
}

TEST(TacoHeaderTest, RoundTrip) {
  for (size_t n = 0; n <= kMaxHeaderEntries; ++n) {
    std::vector<HeaderEntry> entries;
    for (size_t i = 0; i < n; ++i) entries.push_back({1000 + 100 * i, 50 + i});
    const std::string bytes = Header(entries);
    ASSERT_EQ(bytes.size(), kTacoHeaderSize);
    auto parsed = ParseTacoHeader(bytes, 5000, "x.tacozip");
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    EXPECT_EQ(parsed->variant, HeaderVariant::kTacoHeader);
    EXPECT_EQ(parsed->entries, entries);
  }
}

TEST(TacoHeaderTest, LargeOffsetsRoundTrip) {
  const uint64_t big = uint64_t{5} << 32;
  const std::vector<HeaderEntry> entries{{big, uint64_t{1} << 33}, {big + (uint64_t{1} << 33) + 100, 7}};
  auto parsed = ParseTacoHeader(Header(entries), big + (uint64_t{1} << 33) + 107, "big");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->entries, entries);
  // The last pair is COLLECTION.json: more than 64 MiB of it is refused (util/limits.h).
  const std::vector<HeaderEntry> huge{{big, 7}, {big + 100, uint64_t{1} << 33}};
  auto refused = ParseTacoHeader(Header(huge), big + 100 + (uint64_t{1} << 33), "big");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("more than the 67108864 allowed"), std::string::npos);
}

TEST(TacoHeaderTest, FlatFixture) {
  auto reader = OpenLocalFile(UpstreamFixtures() + "/zip/flat/flat.tacozip");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  CountingReader counting(*reader);
  auto header = ReadTacoHeader(counting);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(counting.requests(), 1u);
  EXPECT_EQ(counting.bytes(), 256u);
  EXPECT_EQ(header->variant, HeaderVariant::kTacoHeader);
  EXPECT_EQ(header->entries, (std::vector<HeaderEntry>{{490, 5703}, {6238, 2486}}));
}

TEST(TacoHeaderTest, NestedFixture) {
  auto reader = OpenLocalFile(UpstreamFixtures() + "/zip/nested/nested.tacozip");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto header = ReadTacoHeader(**reader);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(header->entries, (std::vector<HeaderEntry>{{14823, 3478}, {18354, 6295}, {24694, 4230}}));
}

TEST(TacoHeaderTest, FixtureHeaderMatchesOurEncoding) {
  const std::string file = ReadFile(UpstreamFixtures() + "/zip/flat/flat.tacozip");
  EXPECT_EQ(file.substr(41, kTacoHeaderPayloadSize), EncodeTacoHeaderPayload({{490, 5703}, {6238, 2486}}));
}

TEST(TacoHeaderTest, SmallFileReadsOnlyWhatExists) {
  const std::string bytes = Header({{157, 3}});
  const std::string file = bytes + "abc";  // 160 bytes: the read is min(size, 256)
  CountingReader counting(MemoryReader(file, "small.tacozip"));
  auto header = ReadTacoHeader(counting);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(counting.requests(), 1u);
  EXPECT_EQ(counting.bytes(), 160u);
  EXPECT_EQ(header->entries, (std::vector<HeaderEntry>{{157, 3}}));
}

TEST(TacoHeaderTest, GhostVariant) {
  const std::vector<HeaderEntry> entries{{300, 20}, {400, 30}};
  const std::string bytes = HeaderBytes("TACO_GHOST", EncodeTacoHeaderPayload(entries));
  ASSERT_EQ(bytes.size(), 156u);
  auto parsed = ParseTacoHeader(bytes, 1000, "ghost.zip");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->variant, HeaderVariant::kTacoGhost);
  EXPECT_EQ(parsed->entries, entries);
  // The ghost header itself occupies 0..155.
  EXPECT_NE(
      ParseError(HeaderBytes("TACO_GHOST", EncodeTacoHeaderPayload({{150, 10}})), 1000).find("overlaps the header"),
      std::string::npos);
}

TEST(TacoHeaderTest, TruncatedFile) {
  const std::string full = Header({});
  for (size_t n : {size_t{0}, size_t{4}, size_t{100}, size_t{156}}) {
    auto reader = MemoryReader(full.substr(0, n), "short.tacozip");
    auto r = ReadTacoHeader(*reader);
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
    EXPECT_NE(r.status().message().find("short.tacozip: not a TACO ZIP: file is " + std::to_string(n) + " bytes"),
              std::string::npos)
        << r.status().message();
  }
}

TEST(TacoHeaderTest, PrefixShorterThanTheFileSaysIsACallerBug) {
  auto r = ParseTacoHeader(Header({}).substr(0, 100), 9193, "x.tacozip");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
}

TEST(TacoHeaderTest, BadSignature) {
  std::string bytes = Header({});
  bytes[2] = 0x05;
  EXPECT_EQ(ParseError(bytes, 1000), "x.tacozip: not a TACO ZIP: no ZIP local file header at byte 0");
}

TEST(TacoHeaderTest, LegacyBlobFormatsAreNamed) {
  std::string tortilla(200, '\0');
  tortilla[0] = '#';
  tortilla[1] = 'y';
  auto r = ParseTacoHeader(tortilla, 1000, "old.tortilla");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotSupported);
  EXPECT_EQ(r.status().message(),
            "old.tortilla: a legacy Tortilla 0.5 (magic #y) file, not a TACO ZIP (Dataset::Open reads it as a legacy "
            "dataset)");
  std::string taco_v1 = tortilla;
  taco_v1[0] = 'W';
  taco_v1[1] = 'X';
  r = ParseTacoHeader(taco_v1, 1000, "old.taco");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("legacy TACO v1 (magic WX)"), std::string::npos) << r.status().ToString();
  // Too short to hold the 200-byte legacy header: just not a TACO ZIP.
  EXPECT_EQ(ParseError(taco_v1.substr(0, 180), 180), "x.tacozip: not a TACO ZIP: no ZIP local file header at byte 0");
}

TEST(TacoHeaderTest, WrongName) {
  EXPECT_EQ(ParseError(HeaderBytes("TACO_HEADEX", EncodeTacoHeaderPayload({})), 1000),
            "x.tacozip: not a TACO ZIP: the first ZIP entry is \"TACO_HEADEX\", not TACO_HEADER");
  EXPECT_NE(ParseError(HeaderBytes("DATA/sample_0", std::string(116, 'x')), 1000)
                .find("not a TACO ZIP: the first ZIP entry is \"DATA/sample_0\""),
            std::string::npos);
}

TEST(TacoHeaderTest, ExtraFieldRejected) {
  std::string bytes = Header({});
  bytes[28] = 4;
  EXPECT_EQ(ParseError(bytes, 1000),
            "x.tacozip: malformed TACO_HEADER: local header extra field length is 4, expected 0");
}

TEST(TacoHeaderTest, CountTooLarge) {
  std::string bytes = Header({});
  bytes[41] = 8;
  EXPECT_EQ(ParseError(bytes, 1000), "x.tacozip: malformed TACO_HEADER: count is 8, at most 7 allowed");
}

TEST(TacoHeaderTest, PairPastEndOfFile) {
  EXPECT_EQ(ParseError(Header({{490, 5703}, {9000, 500}}), 9193),
            "x.tacozip: malformed TACO_HEADER: pair 1 (offset 9000, length 500) ends past the "
            "end of the file (9193 bytes)");
  // offset + length wraps around 2^64: still past the end.
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_NE(ParseError(Header({{max - 1, 10}}), 9193).find("ends past the end"), std::string::npos);
  EXPECT_NE(ParseError(Header({{200, max - 100}}), 9193).find("ends past the end"), std::string::npos);
  // Ending exactly at the end is fine.
  EXPECT_EQ(ParseError(Header({{9000, 193}}), 9193), "<parsed>");
}

TEST(TacoHeaderTest, OverlappingPairs) {
  EXPECT_EQ(ParseError(Header({{490, 5703}, {6000, 100}}), 9193),
            "x.tacozip: malformed TACO_HEADER: pair 0 (offset 490, length 5703) overlaps pair 1 "
            "(offset 6000, length 100)");
  EXPECT_NE(ParseError(Header({{1000, 10}, {2000, 10}, {995, 6}}), 9193).find("overlaps pair 2"), std::string::npos);
  // Adjacent ranges do not overlap.
  EXPECT_EQ(ParseError(Header({{1000, 10}, {1010, 10}}), 9193), "<parsed>");
}

TEST(TacoHeaderTest, PairOverlappingHeader) {
  EXPECT_EQ(ParseError(Header({{100, 10}}), 9193),
            "x.tacozip: malformed TACO_HEADER: pair 0 (offset 100, length 10) overlaps the header "
            "(bytes 0..156)");
}

TEST(TacoHeaderTest, SlotsAfterCountAreIgnored) {
  std::string bytes = Header({{300, 10}, {400, 10}});
  bytes[41] = 1;  // pair 1 still holds (400,10) but is not valid
  auto parsed = ParseTacoHeader(bytes, 1000, "x");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->entries, (std::vector<HeaderEntry>{{300, 10}}));
}

}  // namespace
}  // namespace taco::zip
