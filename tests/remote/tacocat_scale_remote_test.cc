// Remote metadata at scale (issue 17), through the CLI against nginx, requests counted from
// its access log: opening a TACOCAT of hundreds of parts (`.tacocat/` and `__TACOCAT__`),
// cold and with the disk cache, costs a fixed number of requests whatever the number of
// parts, and never touches a part ZIP; a sample's bytes touch only its own part. And the
// cache never trusts COLLECTION.json for the level files: a level file replaced on the
// server while COLLECTION.json stays as it was (as any tool other than ours may do) is seen
// at the next open, for a `.tacocat/` and for a FOLDER dataset (see src/io/cache.h).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "remote_env.h"
#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kParts = 300;

// The last non-empty line of `text`.
std::string LastLine(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

class TacocatScaleRemoteTest : public RemoteTest {
 protected:
  // The nginx log lines written while `taco <args>` ran; the command must succeed.
  std::vector<std::string> Taco(const std::string& args, std::string* out = nullptr) {
    const std::string before = e->LogText();
    CommandResult r = RunTaco(args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    if (out != nullptr) *out = r.out;
    const std::string after = e->LogText();
    return Lines(after.substr(std::min(before.size(), after.size())));
  }

  static size_t Mentioning(const std::vector<std::string>& lines, const std::string& what) {
    size_t n = 0;
    for (const auto& l : lines) n += l.find(what) != std::string::npos ? 1 : 0;
    return n;
  }

  // A new version for nginx (new mtime → new ETag and Last-Modified).
  static void Touch(const std::string& path) {
    fs::last_write_time(path, fs::last_write_time(path) + std::chrono::hours(1));
  }

  // many/p0000.tacozip … copies of cat/part_a (even) and cat/part_b (odd), consolidated into
  // many/.tacocat and many/__TACOCAT__ (made once per test binary).
  void MakeManyParts() {
    if (fs::exists(e->Local("many/__TACOCAT__"))) return;
    fs::create_directories(e->Local("many"));
    std::string args;
    for (int i = 0; i < kParts; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "many/p%04d.tacozip", i);
      fs::copy_file(e->Local(i % 2 == 0 ? "cat/part_a.tacozip" : "cat/part_b.tacozip"), e->Local(name));
      args += " " + ShellQuote(e->Local(name));
    }
    CommandResult folder = RunTaco("-q tacocat" + args);
    ASSERT_EQ(folder.exit_code, 0) << folder.err;
    CommandResult single = RunTaco("-q tacocat" + args + " --single-file");
    ASSERT_EQ(single.exit_code, 0) << single.err;
  }
};

TEST_F(TacocatScaleRemoteTest, ManyPartsOpenWithAFixedNumberOfRequestsAndNoPart) {
  MakeManyParts();
  for (const std::string rel : {"many/.tacocat", "many/__TACOCAT__"}) {
    SCOPED_TRACE(rel);
    const bool folder = rel == "many/.tacocat";
    const std::string url = ShellQuote(e->Url(rel));
    ASSERT_EQ(RunTaco("-q cache clear").exit_code, 0);
    // Cold: `.tacocat/` = COLLECTION.json + 3 levels; `__TACOCAT__` = its header GET, then
    // the metadata ranges beyond the first 64 KiB (grouped: at most 2 more here).
    std::string out;
    auto lines = Taco("sql " + url + " 'select count(*) from data' --format csv", &out);
    EXPECT_EQ(LastLine(out), std::to_string(2 * kParts));
    EXPECT_LE(lines.size(), folder ? 4u : 3u) << Joined(lines);
    EXPECT_EQ(Mentioning(lines, ".tacozip"), 0u) << Joined(lines);
    // Warm: one 1-byte revalidation per file (`.tacocat/`), the 128 header bytes
    // (`__TACOCAT__`); no part ZIP, whatever the number of parts.
    for (const std::string cmd : {"info", "ls", "sql"}) {
      SCOPED_TRACE(cmd);
      lines = Taco(cmd + " " + url + (cmd == "sql" ? " 'select id, type from data'" : ""));
      EXPECT_EQ(lines.size(), folder ? 4u : 1u) << Joined(lines);
      EXPECT_EQ(Mentioning(lines, folder ? "\"bytes=0-0\"" : "\"bytes=0-127\""), lines.size()) << Joined(lines);
      EXPECT_EQ(Mentioning(lines, ".tacozip"), 0u) << Joined(lines);
    }
    // A sample's bytes: only its own part (p0299 is a copy of part_b: bytes shifted by 8).
    lines = Taco("cat " + url + " @" + std::to_string(2 * kParts - 1) + " t1 f1.bin", &out);
    EXPECT_TRUE(out == std::string(20000, static_cast<char>(Ours3Byte(1, 1, 1) + 8)))
        << out.size() << " bytes starting with '" << out.substr(0, 1) << "'";
    EXPECT_EQ(Mentioning(lines, ".tacozip"), Mentioning(lines, "/many/p0299.tacozip")) << Joined(lines);
    EXPECT_GE(Mentioning(lines, "/many/p0299.tacozip"), 1u) << Joined(lines);
    EXPECT_LE(Mentioning(lines, "/many/p0299.tacozip"), 3u) << Joined(lines);
  }
  ASSERT_EQ(RunTaco("-q cache clear").exit_code, 0);
}

// A level file replaced on the server, COLLECTION.json left as it was: the cached level is
// not served. (An open that revalidated COLLECTION.json alone would print the old rows.)
TEST_F(TacocatScaleRemoteTest, AReplacedLevelFileIsSeenThoughCollectionIsUnchanged) {
  // `.tacocat/`: the levels of part_b + part_a over those of part_a + part_b.
  std::error_code ec;
  for (const std::string d : {"cat_swap", "cat_rev"}) fs::remove_all(e->Local(d), ec);
  fs::create_directories(e->Local("cat_swap"));
  fs::create_directories(e->Local("cat_rev"));
  for (const std::string p : {"part_a.tacozip", "part_b.tacozip"}) {
    fs::copy_file(e->Local("cat/" + p), e->Local("cat_swap/" + p));
    fs::copy_file(e->Local("cat/" + p), e->Local("cat_rev/" + p));
  }
  ASSERT_EQ(RunTaco("-q tacocat " + ShellQuote(e->Local("cat_swap/part_a.tacozip")) + " " +
                    ShellQuote(e->Local("cat_swap/part_b.tacozip")))
                .exit_code,
            0);
  ASSERT_EQ(RunTaco("-q tacocat " + ShellQuote(e->Local("cat_rev/part_b.tacozip")) + " " +
                    ShellQuote(e->Local("cat_rev/part_a.tacozip")))
                .exit_code,
            0);
  const std::string url = ShellQuote(e->Url("cat_swap/.tacocat"));
  const std::string first = " 'select \"internal:source_file\" from level0_table limit 1' --format csv";
  const std::string collection = ReadFile(e->Local("cat_swap/.tacocat/COLLECTION.json"));
  ASSERT_EQ(RunTaco("-q cache clear").exit_code, 0);
  std::string out;
  Taco("sql " + url + first, &out);  // cold: cached
  EXPECT_EQ(LastLine(out), "part_a.tacozip");
  auto lines = Taco("sql " + url + first, &out);  // warm
  EXPECT_EQ(LastLine(out), "part_a.tacozip");
  EXPECT_EQ(Mentioning(lines, "\"bytes=0-0\""), lines.size()) << Joined(lines);
  for (const std::string level : {"level0.parquet", "level1.parquet", "level2.parquet"}) {
    const std::string path = e->Local("cat_swap/.tacocat/" + level);
    fs::copy_file(e->Local("cat_rev/.tacocat/" + level), path, fs::copy_options::overwrite_existing);
    Touch(path);
  }
  ASSERT_EQ(ReadFile(e->Local("cat_swap/.tacocat/COLLECTION.json")), collection);
  lines = Taco("sql " + url + first, &out);
  EXPECT_EQ(LastLine(out), "part_b.tacozip") << Joined(lines);
  EXPECT_EQ(Mentioning(lines, "\"-\""), 3u) << Joined(lines);  // the three levels, whole
  Taco("cat " + url + " @0 t0 f0.bin", &out);
  EXPECT_TRUE(out == std::string(20000, static_cast<char>(Ours3Byte(0, 0, 0) + 8)))
      << "not part_b's bytes: " << out.size() << " bytes starting with '" << out.substr(0, 1) << "'";

  // FOLDER: METADATA/level0.parquet replaced by one with a `label` column.
  const std::string side = e->Local("folder_side"), tree = e->Local("folder_tree");
  for (const std::string d : {"folder_side", "folder_tree", "folder_swap", "folder_labels"}) {
    fs::remove_all(e->Local(d), ec);
  }
  fs::create_directories(side);
  fs::create_directories(tree);
  for (int i = 0; i < 3; ++i) WriteFile(tree + "/s" + std::to_string(i) + ".bin", std::string(20000, char('a' + i)));
  WriteFile(side + "/labels.csv", "path,label\ns0.bin,zero\ns1.bin,one\ns2.bin,two\n");
  WriteFile(side + "/collection.json",
            R"({"id": "remote", "dataset_version": "0.1.0", "description": "remote tests", "licenses": ["CC0-1.0"],)"
            R"( "providers": [{"name": "t"}], "tasks": ["other"]})");
  const std::string create = "-q create " + ShellQuote(tree) + " --collection " + ShellQuote(side + "/collection.json");
  CommandResult plain = RunTaco(create + " " + ShellQuote(e->Local("folder_swap")));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  CommandResult labelled =
      RunTaco(create + " " + ShellQuote(e->Local("folder_labels")) + " --metadata " + ShellQuote(side + "/labels.csv"));
  ASSERT_EQ(labelled.exit_code, 0) << labelled.err;
  const std::string furl = ShellQuote(e->Url("folder_swap"));
  const std::string labels = " 'select * from data order by id' --format csv";
  Taco("sql " + furl + labels, &out);  // cold: cached
  EXPECT_EQ(out.find("zero"), std::string::npos) << out;
  lines = Taco("sql " + furl + labels, &out);  // warm
  EXPECT_EQ(Mentioning(lines, "\"bytes=0-0\""), lines.size()) << Joined(lines);
  const std::string level0 = e->Local("folder_swap/METADATA/level0.parquet");
  fs::copy_file(e->Local("folder_labels/METADATA/level0.parquet"), level0, fs::copy_options::overwrite_existing);
  Touch(level0);
  lines = Taco("sql " + furl + labels, &out);
  EXPECT_NE(out.find("zero"), std::string::npos) << out << Joined(lines);
  EXPECT_NE(out.find("two"), std::string::npos) << out;
  ASSERT_EQ(RunTaco("-q cache clear").exit_code, 0);
}

}  // namespace
}  // namespace taco::testing
