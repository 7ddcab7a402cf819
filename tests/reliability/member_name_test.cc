// Every byte path checks that the ZIP member at a sample's offset is the sample's own
// (issue 29.6): with two samples' members swapped (equivalent to their offsets swapped in
// the metadata, CRCs intact), `cat`, ReadBytes, StreamBytes, navigation into a FOLDER and
// `convert` refuse with a Corruption error naming the sample, the expected and the found
// member, instead of serving the other sample's bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "format/zip/stored_member.h"
#include "reliability/reliability_util.h"

namespace taco {
namespace {

using reliability::MakeZip;
using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;

uint16_t U16(const std::string& b, size_t at) {
  return static_cast<uint16_t>(static_cast<unsigned char>(b[at]) | (static_cast<unsigned char>(b[at + 1]) << 8));
}
uint32_t U32(const std::string& b, size_t at) { return U16(b, at) | (static_cast<uint32_t>(U16(b, at + 2)) << 16); }

// [start, end) of the local header + data of member `name` in `zip` bytes.
std::pair<size_t, size_t> MemberBlock(const std::string& zip, const std::string& name) {
  const std::string needle = std::string("PK\x03\x04", 4);
  for (size_t p = zip.find(needle); p != std::string::npos; p = zip.find(needle, p + 1)) {
    if (p + 30 > zip.size()) break;
    const size_t n = U16(zip, p + 26), extra = U16(zip, p + 28);
    if (n == name.size() && zip.compare(p + 30, n, name) == 0) return {p, p + 30 + n + extra + U32(zip, p + 18)};
  }
  ADD_FAILURE() << "no member " << name;
  return {0, 0};
}

// `src` with the members `a` and `b` (same block size) exchanged, written to `dst`: the
// metadata offsets of `a` now lead to `b`'s member (name, CRC and bytes), and back.
void SwapMembers(const std::string& src, const std::string& dst, const std::string& a, const std::string& b) {
  std::string bytes = testing::ReadFile(src);
  const auto [a0, a1] = MemberBlock(bytes, a);
  const auto [b0, b1] = MemberBlock(bytes, b);
  ASSERT_EQ(a1 - a0, b1 - b0);
  const std::string block_a = bytes.substr(a0, a1 - a0);
  bytes.replace(a0, a1 - a0, bytes.substr(b0, b1 - b0));
  bytes.replace(b0, b1 - b0, block_a);
  testing::WriteFile(dst, bytes);
}

// A flat ZIP: FILE samples tile_00, tile_01 of 64 bytes each ("<id>" repeated).
std::string MakeFlatZip(const TempDir& dir) {
  const std::string src = dir / "flat_src";
  std::filesystem::create_directories(src);
  for (const char* id : {"tile_00", "tile_01"}) {
    std::string bytes;
    while (bytes.size() < 64) bytes += std::string(id) + ";";
    testing::WriteFile(src + "/" + id, bytes.substr(0, 64));
  }
  testing::WriteFile(dir / "flat.json",
                     R"({"id": "flat", "dataset_version": "1", "description": "member names",
                         "licenses": ["CC0-1.0"], "providers": [{"name": "taco-cpp"}], "tasks": ["other"]})");
  const std::string out = dir / "flat.tacozip";
  auto r =
      RunTaco("create " + ShellQuote(src) + " " + ShellQuote(out) + " --collection " + ShellQuote(dir / "flat.json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return out;
}

void ExpectWrongMember(const Status& st, const std::string& found, const std::string& expected) {
  EXPECT_EQ(st.code(), StatusCode::kCorruption) << st.ToString();
  EXPECT_NE(st.message().find("the ZIP member at offset "), std::string::npos) << st.message();
  EXPECT_NE(st.message().find(" is '" + found + "', not the sample's '" + expected + "'"), std::string::npos)
      << st.message();
}

// The archive path navigation recorded in the node's row (hidden internal column).
std::string ArchivePath(const Node& node) {
  const int c = node.row.FindColumn("internal:archive_path");
  if (c < 0 || !node.row.columns[static_cast<size_t>(c)].values[0].is<std::string>()) return "";
  return node.row.columns[static_cast<size_t>(c)].values[0].get<std::string>();
}

// The node a navigation of `good` returns for `keys`, pointed at the same range of `bad`
// (what ReadBytes would get from a navigation that does not check names).
Node NodeInto(const std::string& good, const std::string& bad, const std::vector<SampleKey>& keys) {
  auto ds = Dataset::Open(good);
  EXPECT_TRUE(ds.ok());
  auto node = (*ds)->ReadPath(keys);
  EXPECT_TRUE(node.ok()) << node.status().ToString();
  Node out = *node;
  const std::string root = ToVsiPath(good);
  out.gdal_path.replace(out.gdal_path.size() - root.size(), root.size(), ToVsiPath(bad));
  return out;
}

TEST(MemberName, SwappedLevelZeroMembersAreRefused) {
  TempDir tmp;
  const std::string good = MakeFlatZip(tmp);
  const std::string bad = tmp / "swapped.tacozip";
  SwapMembers(good, bad, "DATA/tile_00", "DATA/tile_01");
  const Node node = NodeInto(good, bad, {std::string("tile_00")});
  EXPECT_EQ(ArchivePath(node), "DATA/tile_00");
  for (bool crc : {true, false}) {
    OpenOptions options;
    options.verify_crc = crc;
    auto ds = Dataset::Open(bad, options);
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    // Navigation refuses to hand out the path (Python read(), `taco read`).
    auto read = (*ds)->Read(std::string("tile_00"));
    ASSERT_FALSE(read.ok()) << read->gdal_path;
    ExpectWrongMember(read.status(), "DATA/tile_01", "DATA/tile_00");
    EXPECT_EQ(read.status().message().rfind("sample 'tile_00': ", 0), 0u) << read.status().message();
    // ReadBytes and StreamBytes check it themselves.
    auto bytes = (*ds)->ReadBytes(node);
    ASSERT_FALSE(bytes.ok()) << "served: " << *bytes;
    ExpectWrongMember(bytes.status(), "DATA/tile_01", "DATA/tile_00");
    std::string streamed;
    Status st = (*ds)->StreamBytes(node, [&](std::string_view p) {
      streamed.append(p);
      return Status::OK();
    });
    ExpectWrongMember(st, "DATA/tile_01", "DATA/tile_00");
    EXPECT_TRUE(streamed.empty());
    // A view over the level-0 rows keeps the exact check.
    auto view = (*ds)->Sql("SELECT * FROM data WHERE id = 'tile_00'");
    ASSERT_TRUE(view.ok()) << view.status().ToString();
    ExpectWrongMember((*view)->Read(int64_t{0}).status(), "DATA/tile_01", "DATA/tile_00");
  }
  // The intact file reads as before.
  auto ds = Dataset::Open(good);
  ASSERT_TRUE(ds.ok());
  auto bytes = (*ds)->ReadBytes(*(*ds)->Read(std::string("tile_00")));
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(bytes->substr(0, 8), "tile_00;");
}

TEST(MemberName, SwappedChildMembersAreRefused) {
  TempDir tmp;
  const std::string good = MakeZip(tmp);
  const std::string bad = tmp / "swapped.tacozip";
  SwapMembers(good, bad, "DATA/a/x.bin", "DATA/b/x.bin");
  auto ds = Dataset::Open(bad);
  ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  auto read = (*ds)->ReadPath({std::string("a"), std::string("x.bin")});
  ASSERT_FALSE(read.ok()) << read->gdal_path;
  ExpectWrongMember(read.status(), "DATA/b/x.bin", "DATA/a/x.bin");
  const Node node = NodeInto(good, bad, {std::string("a"), std::string("x.bin")});
  EXPECT_EQ(ArchivePath(node), "DATA/a/x.bin");
  auto bytes = (*ds)->ReadBytes(node);
  ASSERT_FALSE(bytes.ok()) << "served: " << bytes->substr(0, 14);
  ExpectWrongMember(bytes.status(), "DATA/b/x.bin", "DATA/a/x.bin");
  // The untouched sibling still reads.
  auto sibling = (*ds)->ReadPath({std::string("a"), std::string("y.bin")});
  ASSERT_TRUE(sibling.ok());
  auto y = (*ds)->ReadBytes(*sibling);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->substr(0, 7), "a/y.bin");
  // Frame::ReadBytes (Python TacoFrame.read_bytes) too.
  auto folder = (*ds)->Read(std::string("a"));
  ASSERT_TRUE(folder.ok());
  ExpectWrongMember(folder->children->ReadBytes(std::string("x.bin")).status(), "DATA/b/x.bin", "DATA/a/x.bin");
}

TEST(MemberName, SwappedMetaMembersAreRefusedWhenNavigating) {
  TempDir tmp;
  const std::string good = MakeZip(tmp);
  const std::string bad = tmp / "swapped.tacozip";
  SwapMembers(good, bad, "DATA/a/__meta__", "DATA/b/__meta__");
  auto ds = Dataset::Open(bad);
  ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  auto folder = (*ds)->Read(std::string("a"));
  ASSERT_FALSE(folder.ok()) << "navigated into the wrong FOLDER";
  ExpectWrongMember(folder.status(), "DATA/b/__meta__", "DATA/a/__meta__");
}

TEST(MemberName, CatAndConvertRefuseSwappedMembers) {
  TempDir tmp;
  const std::string good = MakeZip(tmp);
  const std::string bad = tmp / "swapped.tacozip";
  SwapMembers(good, bad, "DATA/a/x.bin", "DATA/b/x.bin");
  auto ok = RunTaco("cat " + ShellQuote(good) + " a x.bin");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out.substr(0, 7), "a/x.bin");
  for (const char* flag : {"", "--no-crc "}) {
    auto r = RunTaco(std::string("cat ") + flag + ShellQuote(bad) + " a x.bin");
    EXPECT_EQ(r.exit_code, 2) << flag << r.out.substr(0, 20);
    EXPECT_TRUE(r.out.empty()) << flag;
    EXPECT_NE(r.err.find("taco: sample 'x.bin': "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("is 'DATA/b/x.bin', not the sample's 'DATA/a/x.bin'"), std::string::npos) << r.err;
  }
  const std::string out = tmp / "converted_folder";
  auto c = RunTaco("convert " + ShellQuote(bad) + " " + ShellQuote(out));
  EXPECT_EQ(c.exit_code, 2) << c.err;
  EXPECT_NE(c.err.find("is 'DATA/b/x.bin', not the sample's 'DATA/a/x.bin'"), std::string::npos) << c.err;
  EXPECT_FALSE(std::filesystem::exists(out)) << out;
  EXPECT_EQ(RunTaco("convert " + ShellQuote(good) + " " + ShellQuote(tmp / "good_folder")).exit_code, 0);
  // export rebuilds the same way.
  const std::string exported = tmp / "exported.tacozip";
  auto e = RunTaco("export " + ShellQuote(bad) + " " + ShellQuote(exported) +
                   " --sql \"SELECT * FROM data WHERE id = 'a'\"");
  EXPECT_EQ(e.exit_code, 2) << e.err;
  EXPECT_NE(e.err.find("not the sample's 'DATA/a/x.bin'"), std::string::npos) << e.err;
}

TEST(MemberName, NameChecks) {
  using zip::MemberName;
  EXPECT_TRUE(MemberName::Exact("DATA/a/x").matches("DATA/a/x"));
  EXPECT_FALSE(MemberName::Exact("DATA/a/x").matches("DATA/b/x"));
  EXPECT_TRUE(MemberName::LastPart("x").matches("DATA/a/x"));
  EXPECT_FALSE(MemberName::LastPart("x").matches("DATA/a/yx"));
  EXPECT_FALSE(MemberName::LastPart("x").matches("x"));
  EXPECT_TRUE(MemberName::None().matches("anything"));
}

}  // namespace
}  // namespace taco
