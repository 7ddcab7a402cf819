// Byte ranges of remote level views by archive path (FORMAT §1.5 step 5). tacotoolbox attaches
// the ranges of levels >= 1 by position, which gives rows another member's range when the
// FOLDERs above them are not in archive-path order. Over http(s) the views keep the stored
// ranges where the writer's rule (read/shifted_ranges.h) says they are right (no request) and
// look the others up in the ZIP's central directory (one request per ZIP). Datasets: the
// upstream fixtures of scripts/upstream_fixtures.py (zip/, shifted/).
#include <cpl_vsi.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "remote_env.h"
#include "support/paths.h"
#include "taco/dataset.h"

namespace taco::testing {
namespace {

// One line per row of `relation` (a level view or a stored levelN_table) in archive-path
// order: "<relative path, or id at level 0>|<offset>|<size>|<internal:gdal_vsi or ''>".
std::vector<std::string> Ranges(Dataset& ds, int level, bool stored = false) {
  const std::string path = level == 0 ? "id" : "\"internal:relative_path\"";
  const std::string relation = "level" + std::to_string(level) + (stored ? "_table" : "");
  auto rows = ds.QueryRaw("SELECT " + path + " || '|' || \"internal:offset\" || '|' || \"internal:size\" || '|' || " +
                          (stored ? "''" : "\"internal:gdal_vsi\"") + " AS r FROM " + relation + " ORDER BY " + path);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  std::vector<std::string> out;
  if (!rows.ok()) return out;
  for (const Value& v : rows->columns.at(0).values) out.push_back(v.is<std::string>() ? v.get<std::string>() : "");
  return out;
}

// A row without its gdal_vsi (which names the dataset's location), its path, its gdal_vsi.
std::string Range(const std::string& row) { return row.substr(0, row.rfind('|')); }
std::string PathOf(const std::string& row) { return row.substr(0, row.find('|')); }
std::string GdalPathOf(const std::string& row) { return row.substr(row.rfind('|') + 1); }
std::vector<std::string> RangesOnly(const std::vector<std::string>& rows) {
  std::vector<std::string> out;
  for (const std::string& r : rows) out.push_back(Range(r));
  return out;
}

// The bytes GDAL reads at `path` (a /vsisubfile/ path); "" when it cannot open it.
std::string ReadThroughGdal(const std::string& path) {
  VSILFILE* f = VSIFOpenL(path.c_str(), "rb");
  if (f == nullptr) return "";
  std::string out;
  char buf[4096];
  for (size_t n; (n = VSIFReadL(buf, 1, sizeof(buf), f)) > 0;) out.append(buf, n);
  VSIFCloseL(f);
  return out;
}

std::unique_ptr<Dataset> OpenOrFail(const std::string& path, const OpenOptions& options = {}) {
  auto ds = Dataset::Open(path, options);
  EXPECT_TRUE(ds.ok()) << path << ": " << ds.status().ToString();
  return ds.ok() ? std::move(*ds) : nullptr;
}

// The upstream nested fixture: level 0 lists europe, americas, asia, and every level-1 range
// is another region's. By URL the views give the members' ranges, as locally, for one request.
TEST_F(RemoteTest, RemoteLevelViewsGiveTheMembersRangesOfAShiftedUpstreamZip) {
  const std::string rel = "zip/nested/nested.tacozip";
  auto local = OpenOrFail(e->Local(rel));
  auto remote = OpenOrFail(e->Url(rel), NoCache());
  ASSERT_TRUE(local && remote);
  EXPECT_EQ(Count([&] { EXPECT_EQ(RangesOnly(Ranges(*remote, 0)), RangesOnly(Ranges(*local, 0))); }), 0u);
  std::vector<std::string> got;
  EXPECT_EQ(Count([&] { got = Ranges(*remote, 1); }), 1u) << e->LogText();  // the central directory
  const std::vector<std::string> want = Ranges(*local, 1);
  ASSERT_EQ(got.size(), 9u);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_NE(RangesOnly(Ranges(*remote, 1, /*stored=*/true)), RangesOnly(want));  // still shifted on disk
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(got[i]);
    EXPECT_EQ(Range(got[i]), Range(want[i]));
    EXPECT_EQ(GdalPathOf(got[i]), Replace(GdalPathOf(want[i]), e->Local(rel), "/vsicurl/" + e->Url(rel)));
    // GDAL reads the sample's own bytes through the remote path ("data_<region>_<j>").
    const std::string path = PathOf(got[i]);
    EXPECT_EQ(ReadThroughGdal(GdalPathOf(got[i])), "data_" + path.substr(0, path.find('/')) + "_" + path.back());
  }
}

// `taco sql URL` prints the local answer (the location aside).
TEST_F(RemoteTest, TacoSqlOfAShiftedUpstreamZipByUrlPrintsTheLocalRanges) {
  const std::string rel = "zip/nested/nested.tacozip";
  const std::string q =
      " --format csv 'SELECT \"internal:relative_path\", \"internal:gdal_vsi\" FROM level1 ORDER BY 1'";
  CommandResult local = RunTaco("--no-cache sql " + ShellQuote(e->Local(rel)) + q);
  CommandResult remote = RunTaco("--no-cache sql " + ShellQuote(e->Url(rel)) + q);
  ASSERT_EQ(local.exit_code, 0) << local.err;
  ASSERT_EQ(remote.exit_code, 0) << remote.err;
  EXPECT_NE(local.out.find("europe/item_0,\"/vsisubfile/205_13,"), std::string::npos) << local.out;
  EXPECT_EQ(remote.out, Replace(local.out, e->Local(rel), "/vsicurl/" + e->Url(rel)));
}

// The rule of read/shifted_ranges.h is exact on tacotoolbox's ZIPs: for every level >= 1 of
// every case, the remote view makes a request (the central directory) exactly when the stored
// ranges are not the members' (compared locally, where every range is looked up), and gives
// the members' ranges either way. The cases name which levels the writer shifted.
TEST_F(RemoteTest, RemoteViewsLookUpExactlyTheLevelsTacotoolboxShifted) {
  const std::map<std::string, std::vector<int>> shifted_levels = {
      {"zip/flat/flat.tacozip", {}},
      {"zip/nested/nested.tacozip", {1}},
      {"shifted/zip/level0_unsorted.tacozip", {1}},   // FOLDERs b, a
      {"shifted/zip/dot_before_slash.tacozip", {1}},  // a, a.b: "a.b/" < "a/"
      {"shifted/zip/file_first.tacozip", {}},         // FILE z before FOLDER m at level 1
      {"shifted/zip/files_unsorted.tacozip", {}},     // FILEs y, x inside each FOLDER
      {"shifted/zip/deep.tacozip", {2}},              // a, b in order; n before m below each
  };
  for (const auto& [rel, expected] : shifted_levels) {
    auto local = OpenOrFail(e->Local(rel));
    ASSERT_TRUE(local);
    std::vector<int> shifted;
    for (int level = 1; level < local->num_levels(); ++level) {
      SCOPED_TRACE(rel + " level " + std::to_string(level));
      const std::vector<std::string> want = Ranges(*local, level);
      ASSERT_FALSE(want.empty());
      const bool right = RangesOnly(Ranges(*local, level, /*stored=*/true)) == RangesOnly(want);
      if (!right) shifted.push_back(level);
      auto remote = OpenOrFail(e->Url(rel), NoCache());
      ASSERT_TRUE(remote);
      std::vector<std::string> got;
      EXPECT_EQ(Count([&] { got = Ranges(*remote, level); }), right ? 0u : 1u) << e->LogText();
      EXPECT_EQ(RangesOnly(got), RangesOnly(want));
      for (const std::string& row : got) {
        const std::string path = PathOf(row);
        if (path.back() == '/' || rel.rfind("shifted/", 0) != 0) continue;  // a FOLDER (its __meta__); zip/
        // Each FILE holds its archive path, repeated to 6,000 bytes.
        const std::string bytes = ReadThroughGdal(GdalPathOf(row));
        EXPECT_EQ(bytes.substr(0, path.size() + 5), "DATA/" + path) << row;
        EXPECT_GE(bytes.size(), 6000u) << row;
      }
    }
    EXPECT_EQ(shifted, expected) << rel;
  }
}

// A TACOCAT of two tacotoolbox parts: cat_part0001 (FOLDERs b, a: shifted) and cat_part0002
// (c, d: right). Only the first part's central directory is read (its opening GET: the part
// is smaller than 64 KiB), and the rows are the local ones.
TEST_F(RemoteTest, RemoteTacocatLooksUpOnlyThePartsTacotoolboxShifted) {
  const std::string rel = "shifted/cat/.tacocat";
  auto local = OpenOrFail(e->Local(rel));
  auto remote = OpenOrFail(e->Url(rel), NoCache());
  ASSERT_TRUE(local && remote);
  EXPECT_EQ(Count([&] { EXPECT_EQ(RangesOnly(Ranges(*remote, 0)), RangesOnly(Ranges(*local, 0))); }), 0u);
  const size_t before = Lines(e->LogText()).size();
  std::vector<std::string> got;
  EXPECT_EQ(Count([&] { got = Ranges(*remote, 1); }), 1u) << e->LogText();
  const std::vector<std::string> lines = Lines(e->LogText());
  for (size_t i = before; i < lines.size(); ++i)
    EXPECT_NE(lines[i].find("cat_part0001.tacozip"), std::string::npos) << lines[i];
  const std::vector<std::string> want = Ranges(*local, 1);
  EXPECT_EQ(RangesOnly(got), RangesOnly(want));
  EXPECT_NE(RangesOnly(Ranges(*remote, 1, /*stored=*/true)), RangesOnly(want));
  ASSERT_EQ(got.size(), 8u);
  for (const std::string& row : got) {
    const std::string path = PathOf(row);
    // 700 bytes of the archive path repeated (scripts/upstream_fixtures.py payload()).
    const std::string bytes = ReadThroughGdal(GdalPathOf(row));
    EXPECT_EQ(bytes.substr(0, path.size() + 5), "DATA/" + path) << row;
  }
}

// Datasets whose stored ranges are right cost no request in their views: our writer's ZIP and
// TACOCAT (3 levels each).
TEST_F(RemoteTest, RemoteViewsOfRightRangesCostNoRequest) {
  for (const std::string rel : {"ours3.tacozip", "cat/.tacocat", "cat1/__TACOCAT__"}) {
    SCOPED_TRACE(rel);
    auto remote = OpenOrFail(e->Url(rel), NoCache());
    ASSERT_TRUE(remote);
    for (int level = 0; level < 3; ++level) {
      EXPECT_EQ(Count([&] { EXPECT_FALSE(Ranges(*remote, level).empty()); }), 0u) << "level " << level;
    }
  }
}

// A concatenation of the TACOCAT fixture's two ZIPs by URL (cat_part0001: FOLDERs b, a,
// shifted; cat_part0002: c, d, right): its level 1 gives each sample its own range, as each
// ZIP opened alone locally does, and as the same concatenation of the local files. Reading
// it costs no request: each 14 KB ZIP came whole with its opening GET (the cost of a bigger
// one: the next test). Before, a concatenation kept the stored ranges (a/x read b/x's bytes),
// by URL and locally.
TEST_F(RemoteTest, RemoteConcatLooksUpOnlyTheSourcesTacotoolboxShifted) {
  const std::vector<std::string> rels = {"shifted/cat/cat_part0001.tacozip", "shifted/cat/cat_part0002.tacozip"};
  std::vector<std::string> want;  // each ZIP alone, locally: every range looked up
  for (const std::string& rel : rels) {
    auto alone = OpenOrFail(e->Local(rel));
    ASSERT_TRUE(alone);
    for (const std::string& r : RangesOnly(Ranges(*alone, 1))) want.push_back(r);
  }
  auto local = Dataset::OpenList({e->Local(rels[0]), e->Local(rels[1])});
  auto remote = Dataset::OpenList({e->Url(rels[0]), e->Url(rels[1])}, NoCache());
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  EXPECT_EQ(RangesOnly(Ranges(**local, 1)), want);
  EXPECT_NE(RangesOnly(Ranges(**remote, 1, /*stored=*/true)), want);  // still shifted on disk
  EXPECT_EQ(Count([&] { EXPECT_EQ(RangesOnly(Ranges(**remote, 0)), RangesOnly(Ranges(**local, 0))); }), 0u);
  std::vector<std::string> got;
  EXPECT_EQ(Count([&] { got = Ranges(**remote, 1); }), 0u) << e->LogText();
  EXPECT_EQ(RangesOnly(got), want);
  ASSERT_EQ(got.size(), 8u);
  for (const std::string& row : got) {
    const std::string path = PathOf(row);
    const std::string bytes = ReadThroughGdal(GdalPathOf(row));
    EXPECT_EQ(bytes.substr(0, path.size() + 5), "DATA/" + path) << row;
  }
}

// The upstream nested ZIP (30 KB, every level-1 range shifted) given twice by URL: each source
// reads its central directory once (one request each, after the opening GETs), and the rows
// are the ZIP's own ranges, locally looked up.
TEST_F(RemoteTest, RemoteConcatReadsEachShiftedSourcesDirectoryOnce) {
  const std::string rel = "zip/nested/nested.tacozip";
  auto alone = OpenOrFail(e->Local(rel));
  ASSERT_TRUE(alone);
  const std::vector<std::string> once = RangesOnly(Ranges(*alone, 1));
  auto remote = Dataset::OpenList({e->Url(rel), e->Url(rel)}, NoCache());
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  std::vector<std::string> got;
  EXPECT_EQ(Count([&] { got = RangesOnly(Ranges(**remote, 1)); }), 2u) << e->LogText();
  ASSERT_EQ(got.size(), 18u);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], once[i / 2]) << i;  // ORDER BY path: pairs
  EXPECT_EQ(Count([&] { Ranges(**remote, 1); }), 0u) << e->LogText();           // read once per source
}

// A concatenation whose sources keep the writer's rule costs no request in its level views
// (the right ZIP given twice: two sources).
TEST_F(RemoteTest, RemoteConcatOfRightRangesCostsNoRequest) {
  const std::string url = e->Url("shifted/cat/cat_part0002.tacozip");
  auto remote = Dataset::OpenList({url, url}, NoCache());
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  for (int level = 0; level < 2; ++level) {
    EXPECT_EQ(Count([&] { EXPECT_EQ(Ranges(**remote, level).size(), level == 0 ? 4u : 8u); }), 0u)
        << "level " << level << "\n"
        << e->LogText();
  }
}

// `taco sql URL1 URL2` prints the answer of the same command over the local files (the
// locations aside), and that answer holds the members' own ranges.
TEST_F(RemoteTest, TacoSqlOfAConcatByUrlPrintsTheLocalRanges) {
  const std::string a = "shifted/cat/cat_part0001.tacozip", b = "shifted/cat/cat_part0002.tacozip";
  const std::string q =
      " --format csv 'SELECT \"internal:relative_path\", \"internal:gdal_vsi\" FROM level1 ORDER BY 1'";
  CommandResult local = RunTaco("--no-cache sql " + ShellQuote(e->Local(a)) + " " + ShellQuote(e->Local(b)) + q);
  CommandResult remote = RunTaco("--no-cache sql " + ShellQuote(e->Url(a)) + " " + ShellQuote(e->Url(b)) + q);
  ASSERT_EQ(local.exit_code, 0) << local.err;
  ASSERT_EQ(remote.exit_code, 0) << remote.err;
  EXPECT_NE(local.out.find("a/x,\"/vsisubfile/1679_704,"), std::string::npos) << local.out;
  EXPECT_EQ(remote.out,
            Replace(Replace(local.out, e->Local(a), "/vsicurl/" + e->Url(a)), e->Local(b), "/vsicurl/" + e->Url(b)));
}

}  // namespace
}  // namespace taco::testing
