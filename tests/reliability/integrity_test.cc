// Integrity on read (issue 14): ReadBytes / StreamBytes / `taco cat` check the CRC-32 of a
// whole ZIP member by default (OpenOptions::verify_crc, `--no-crc`), a mismatch is a
// Corruption error naming the sample and the container; `taco validate` checks every
// member's CRC-32 unless `--fast`.
#include <gtest/gtest.h>

#include <string>

#include "format/zip/stored_member.h"
#include "reliability/reliability_util.h"
#include "taco/validate.h"

namespace taco {
namespace {

using reliability::CopyWithByte;
using reliability::MakeZip;
using reliability::RangeOf;
using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;

std::string Collect(const Dataset& ds, const Node& node, Status* status) {
  std::string out;
  *status = ds.StreamBytes(node, [&](std::string_view piece) {
    out.append(piece);
    return Status::OK();
  });
  return out;
}

TEST(CrcOnRead, IntactSamplesReadAndStreamTheSameBytes) {
  TempDir tmp;
  const std::string zip = MakeZip(tmp);
  auto ds = Dataset::Open(zip);
  ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  auto node = (*ds)->ReadPath({std::string("a"), std::string("y.bin")});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  auto bytes = (*ds)->ReadBytes(*node);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(bytes->substr(0, 7), "a/y.bin");
  EXPECT_EQ(bytes->size(), 700u);
  Status st;
  EXPECT_EQ(Collect(**ds, *node, &st), *bytes);
  EXPECT_TRUE(st.ok()) << st.ToString();
  // The upstream fixtures (libzip-written CRCs) verify too.
  auto flat = Dataset::Open(reliability::FlatZip());
  ASSERT_TRUE(flat.ok());
  for (int64_t i = 0; i < 5; ++i) {
    auto n = (*flat)->Read(i);
    ASSERT_TRUE(n.ok());
    EXPECT_TRUE((*flat)->ReadBytes(*n).ok()) << i;
  }
}

TEST(CrcOnRead, AFlippedByteIsACorruptionNamingSampleAndContainer) {
  TempDir tmp;
  const std::string good = MakeZip(tmp);
  const VsiSubfile ref = RangeOf(good, {std::string("b"), std::string("x.bin")});
  const std::string bad = tmp / "bad.tacozip";
  CopyWithByte(good, bad, ref.offset + 5, '#');
  auto ds = Dataset::Open(bad);
  ASSERT_TRUE(ds.ok());
  auto node = (*ds)->ReadPath({std::string("b"), std::string("x.bin")});
  ASSERT_TRUE(node.ok());
  auto bytes = (*ds)->ReadBytes(*node);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().code(), StatusCode::kCorruption);
  const std::string& m = bytes.status().message();
  EXPECT_EQ(m.rfind("sample 'x.bin': " + ToVsiPath(bad) + " (bytes " + std::to_string(ref.offset) + "..", 0), 0u) << m;
  EXPECT_NE(m.find("CRC-32 mismatch: stored 0x"), std::string::npos) << m;
  Status st;
  (void)Collect(**ds, *node, &st);
  EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
  // Other samples are intact.
  auto other = (*ds)->ReadPath({std::string("b"), std::string("y.bin")});
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE((*ds)->ReadBytes(*other).ok());
  // Opted out: the damaged bytes as stored.
  OpenOptions no_check;
  no_check.verify_crc = false;
  auto unchecked = Dataset::Open(bad, no_check);
  ASSERT_TRUE(unchecked.ok());
  auto raw = (*unchecked)->ReadBytes(*(*unchecked)->ReadPath({std::string("b"), std::string("x.bin")}));
  ASSERT_TRUE(raw.ok()) << raw.status().ToString();
  EXPECT_EQ((*raw)[5], '#');
}

TEST(CrcOnRead, ADamagedMetaIsReportedWhenNavigating) {
  TempDir tmp;
  const std::string good = MakeZip(tmp);
  auto ds = Dataset::Open(good);
  ASSERT_TRUE(ds.ok());
  auto folder = (*ds)->Read(std::string("a"));
  ASSERT_TRUE(folder.ok());
  auto meta = ParseVsiSubfile(folder->gdal_path);  // a FOLDER's gdal path is its __meta__
  ASSERT_TRUE(meta.has_value()) << folder->gdal_path;
  const std::string bad = tmp / "bad.tacozip";
  CopyWithByte(good, bad, meta->offset + meta->size / 2, 0x00);
  auto damaged = Dataset::Open(bad);
  ASSERT_TRUE(damaged.ok());
  auto read = (*damaged)->Read(std::string("a"));
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("CRC-32 mismatch"), std::string::npos) << read.status().message();
}

TEST(CrcOnRead, CatStreamsAndExitsTwoOnAMismatch) {
  TempDir tmp;
  const std::string good = MakeZip(tmp);
  auto ok = RunTaco("cat " + ShellQuote(good) + " a x.bin");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out.size(), 700u);
  const VsiSubfile ref = RangeOf(good, {std::string("a"), std::string("x.bin")});
  const std::string bad = tmp / "bad.tacozip";
  CopyWithByte(good, bad, ref.offset, '!');
  auto r = RunTaco("cat " + ShellQuote(bad) + " a x.bin");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("taco: sample 'x.bin': "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("CRC-32 mismatch"), std::string::npos) << r.err;
  auto unchecked = RunTaco("cat --no-crc " + ShellQuote(bad) + " a x.bin");
  EXPECT_EQ(unchecked.exit_code, 0) << unchecked.err;
  EXPECT_EQ(unchecked.out[0], '!');
}

TEST(CrcOnRead, LocalHeaderChecks) {
  // A hand-made window: a local header for "DATA/x" of 3 bytes with the CRC of "abc".
  std::string lfh(30, '\0');
  const std::string name = "DATA/x";
  auto put16 = [&](size_t at, uint16_t v) { lfh[at] = char(v & 0xff), lfh[at + 1] = char(v >> 8); };
  auto put32 = [&](size_t at, uint32_t v) { put16(at, v & 0xffff), put16(at + 2, v >> 16); };
  put32(0, 0x04034b50);
  put32(14, 0x352441c2);  // crc32("abc")
  put32(18, 3);
  put32(22, 3);
  put16(26, static_cast<uint16_t>(name.size()));
  const std::string window = "previous member bytes" + lfh + name;
  auto info = zip::FindLocalHeader(window, 3, {}, "t");
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  zip::MemberCheck check(*info, "t");
  check.Update("ab");
  check.Update("c");
  EXPECT_TRUE(check.Finish().ok());
  zip::MemberCheck wrong(*info, "t");
  wrong.Update("abd");
  EXPECT_EQ(wrong.Finish().code(), StatusCode::kCorruption);
  auto size = zip::FindLocalHeader(window, 4, {}, "t");
  ASSERT_FALSE(size.ok());
  EXPECT_EQ(size.status().message(), "t: the ZIP local header says 3 bytes, the metadata 4");
  auto shifted = zip::FindLocalHeader(window + "?", 3, {}, "t");  // the offset points one byte late
  ASSERT_FALSE(shifted.ok());
  EXPECT_NE(shifted.status().message().find("no ZIP local header ends where the data starts"), std::string::npos);
  std::string deflated = window;
  deflated[window.size() - name.size() - 30 + 8] = 8;
  EXPECT_NE(zip::FindLocalHeader(deflated, 3, {}, "t").status().message().find("compressed (ZIP method 8)"),
            std::string::npos);
}

TEST(ValidateCrc, EveryMemberIsCheckedUnlessFast) {
  TempDir tmp;
  const std::string good = MakeZip(tmp);
  auto clean = Validate(good);
  ASSERT_TRUE(clean.ok()) << clean.status().ToString();
  EXPECT_TRUE(clean->ok());
  const VsiSubfile ref = RangeOf(good, {std::string("c"), std::string("x.bin")});
  const std::string bad = tmp / "bad.tacozip";
  CopyWithByte(good, bad, ref.offset + 1, 'Z');
  auto report = Validate(bad);
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->violations.size(), 1u);
  EXPECT_EQ(report->violations[0].rule, "member-crc");
  EXPECT_EQ(report->violations[0].where, "DATA/c/x.bin");
  ValidateOptions fast;
  fast.check_data = false;
  auto skipped = Validate(bad, fast);
  ASSERT_TRUE(skipped.ok());
  EXPECT_TRUE(skipped->ok());
  auto cli = RunTaco("validate " + ShellQuote(bad));
  EXPECT_EQ(cli.exit_code, 1);
  EXPECT_NE(cli.out.find("member-crc  DATA/c/x.bin: data with CRC-32 0x"), std::string::npos) << cli.out;
  EXPECT_EQ(RunTaco("validate --fast " + ShellQuote(bad)).exit_code, 0);
}

}  // namespace
}  // namespace taco
