// Every read command on synthesised legacy files, and `taco validate` on the negative cases
// of spec/LEGACY.md §12.3.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "legacy/legacy_files.h"
#include "support/paths.h"
#include "taco/io.h"

namespace taco::testing {
namespace {

std::string Q(const std::string& s) { return ShellQuote(s); }

TEST(LegacyCli, InfoNamesTheLayout) {
  CommandResult r = RunTaco("info " + Q(Files().taco));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("format:        legacy\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("layout:        TACO v1 (WX)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("id:            demo\n"), std::string::npos);
  EXPECT_NE(r.out.find("level 0:       3 rows"), std::string::npos);
  EXPECT_NE(r.out.find("level 1:       9 rows"), std::string::npos);
  EXPECT_NE(r.out.find("level 2:       6 rows"), std::string::npos);
  r = RunTaco("info --json " + Q(Files().part1));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["layout"], "TACO v1 (WX), 2 parts");
  ASSERT_EQ(j["parts"].size(), 2u);
  EXPECT_EQ(j["parts"][0]["partitions"], 2);
  EXPECT_EQ(j["levels"][0]["rows"], 3);
  r = RunTaco("info " + Q(Files().p2_taco));
  EXPECT_NE(r.out.find("layout:        TACO v1 P2 (#y + collection)\n"), std::string::npos) << r.out;
}

TEST(LegacyCli, LsReadCatSqlFilter) {
  const std::string t = Q(Files().taco);
  CommandResult r = RunTaco("ls " + t + " --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("s1,FOLDER"), std::string::npos) << r.out;
  r = RunTaco("ls " + t + " s2 sub --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')).substr(0, 7), "id,type");
  EXPECT_NE(r.out.find("\na,FILE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nb,FILE"), std::string::npos) << r.out;
  r = RunTaco("read " + t + " s1 image");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "/vsisubfile/400_" + std::to_string(Files().image[0].size()) + "," + ToVsiPath(Files().taco) + "\n");
  r = RunTaco("cat " + t + " s2 notes");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "notes of sample 1");
  r = RunTaco("cat " + Q(Files().part0) + " s3 sub b");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Files().sub_b[2]);
  r = RunTaco("sql " + t +
              " 'SELECT id, \"tortilla:data_split\" AS split, \"rai:ele\" FROM data ORDER BY id' --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,split,rai:ele\ns1,train,600.5\ns2,test,601.5\ns3,validation,602.5\n");
  r = RunTaco("filter " + t + " --bbox 2,41,3,42 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\ns3,"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\ns1,"), std::string::npos) << r.out;
  r = RunTaco("filter " + t + " --datetime 2021-01-01 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\ns1,"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\ns2,"), std::string::npos) << r.out;
  // stats needs geotiff:stats, which no v1 writer produced: a clear error.
  r = RunTaco("stats " + t + " --band 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("taco: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

TEST(LegacyCli, ValidateAcceptsTheSynthesisedFiles) {
  for (const std::string& path : {Files().taco, Files().tortilla, Files().part0, Files().part1_1, Files().flat,
                                  Files().p2_tortilla, Files().p2_taco}) {
    CommandResult r = RunTaco("validate " + Q(path));
    EXPECT_EQ(r.exit_code, 0) << path << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find(": valid legacy "), std::string::npos) << r.out;
  }
}

std::string Patched(std::string bytes, size_t at, const std::string& with) {
  bytes.replace(at, with.size(), with);
  return bytes;
}

std::string U64(uint64_t v) {
  std::string b(8, '\0');
  for (size_t i = 0; i < 8; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  return b;
}

TEST(LegacyCli, ValidateReportsTheNegativeCases) {
  TempDir dir;
  const std::string taco = ReadFile(Files().taco);
  const uint64_t fo = U64At(taco, 2), fl = U64At(taco, 10);
  struct Case {
    std::string name, bytes, rule;
  };
  std::vector<SynthItem> three = {{"a", "BYTES", "aaaa"}, {"b", "BYTES", "bbbb"}, {"c", "BYTES", "cccc"}};
  SynthFooter overlapping;
  overlapping.offsets_override = {200, 202, 208};
  std::vector<Case> cases = {
      {"bad_magic.taco", Patched(taco, 0, "XY"), "legacy-header"},
      {"past_end.taco", Patched(taco, 10, U64(taco.size())), "legacy-header"},
      {"not_parquet.taco", Patched(taco, fo, "JUNK"), "legacy-footer"},
      {"overlap.tortilla", SynthTortilla(three, overlapping), "legacy-item-range"},
      {"nested_magic.tortilla", SynthTortilla({{"s", "TORTILLA", std::string(300, 'z')}}), "legacy-nested"},
      {"co.taco", Patched(taco, 26, U64(fo + fl - 1)), "legacy-file-end"},
      {"proto.tortilla", ReadFile(Files().proto), "legacy-header"},
      {"empty.tortilla", "", "legacy-header"},
      {"split.tortilla",
       SynthTortilla(
           three, SynthFooter{true, false, {{"tortilla:data_split", "VARCHAR", {"'train'", "'dev'", "NULL"}}}, {}, {}}),
       "legacy-value"},
  };
  for (const Case& c : cases) {
    WriteFile(dir / c.name, c.bytes);
    CommandResult r = RunTaco("validate " + Q(dir / c.name));
    EXPECT_EQ(r.exit_code, 1) << c.name << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.rfind(c.rule + "  ", 0), 0u) << c.name << "\n" << r.out;
    // Dataset::Open refuses the broken ones with a one-line error naming the file.
    if (c.rule != "legacy-value" && c.rule != "legacy-item-range") {
      CommandResult info = RunTaco("info " + Q(dir / c.name));
      EXPECT_EQ(info.exit_code, 2) << c.name << "\n" << info.out;
      EXPECT_NE(info.err.find(c.name), std::string::npos) << info.err;
    }
  }
}

}  // namespace
}  // namespace taco::testing
