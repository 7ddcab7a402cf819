// Remote TACOCAT reads (io/object_folder.h, io/container_reader.h) against nginx and the fault server: request
// budgets, parallel level fetches, same answers as local, the disk cache, and s3:// through
// GDAL (ZIP and TACOCAT, with the cache).
#include <cpl_conv.h>
#include <cpl_vsi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "format/folder/collection_levels.h"
#include "remote_env.h"
#include "taco/dataset.h"
#include "taco/io.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

const char* kFolder = "cat/.tacocat";
const char* kSingle = "cat1/__TACOCAT__";

// The nginx log line fields: METHOD URI STATUS BYTES "RANGE".
struct LogLine {
  std::string method, uri, status, range;
  uint64_t bytes = 0;
};

LogLine Parse(const std::string& line) {
  LogLine l;
  std::istringstream in(line);
  in >> l.method >> l.uri >> l.status >> l.bytes >> l.range;
  return l;
}

class TacocatRemoteTest : public RemoteTest {
 protected:
  // The nginx log lines written while `fn` ran.
  template <typename F>
  std::vector<std::string> Logged(F&& fn) {
    const std::string before = e->LogText();
    fn();
    const std::string after = e->LogText();
    return Lines(after.substr(std::min(before.size(), after.size())));
  }

  // A private copy of cat/ (the ZIPs and .tacocat/) or cat1/ under `name`, so that tests
  // that rewrite files do not disturb the others.
  void CopyDataset(const std::string& from, const std::string& name) {
    std::error_code ec;
    fs::remove_all(e->Local(name), ec);
    fs::copy(e->Local(from), e->Local(name), fs::copy_options::recursive);
  }

  // A new version of the file for nginx (new mtime → new ETag and Last-Modified), same bytes.
  static void Touch(const std::string& path) {
    fs::last_write_time(path, fs::last_write_time(path) + std::chrono::hours(1));
  }

  static void ExpectSameAsLocal(Dataset& remote, Dataset& local) {
    EXPECT_EQ(remote.num_levels(), local.num_levels());
    EXPECT_EQ(*remote.RowCount(), *local.RowCount());
    EXPECT_EQ(remote.collection(), local.collection());
    for (int level = 0; level < local.num_levels(); ++level) {
      auto a = remote.DescribeLevel(level);
      auto b = local.DescribeLevel(level);
      ASSERT_TRUE(a.ok()) << a.status().ToString();
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      EXPECT_EQ(a->rows, b->rows) << "level " << level;
      EXPECT_EQ(a->columns.size(), b->columns.size()) << "level " << level;
    }
  }

  void UseNginxAsS3() {
    CPLSetConfigOption("AWS_S3_ENDPOINT", ("127.0.0.1:" + std::to_string(e->nginx.port())).c_str());
    CPLSetConfigOption("AWS_HTTPS", "NO");
    CPLSetConfigOption("AWS_VIRTUAL_HOSTING", "FALSE");
    CPLSetConfigOption("AWS_NO_SIGN_REQUEST", "YES");
  }
};

// ---- unit: the level count from COLLECTION.json -------------------------------------------

TEST(TacocatMaxDepthTest, LargestHierarchyKeyElseZero) {
  EXPECT_EQ(*format::PitSchemaMaxDepth(R"({"taco:pit_schema": {"root": {"n": 2, "type": "FOLDER"},
      "hierarchy": {"1": [], "2": []}}})",
                                       "c"),
            2);
  EXPECT_EQ(
      *format::PitSchemaMaxDepth(R"({"taco:pit_schema": {"root": {"n": 2, "type": "FILE"}, "hierarchy": {}}})", "c"),
      0);
  EXPECT_EQ(*format::PitSchemaMaxDepth(R"({"id": "x"})", "c"), 0);
  EXPECT_EQ(*format::PitSchemaMaxDepth(R"({"taco:pit_schema": {"hierarchy": {"2": [], "1": []}}})", "c"), 2);
  auto bad = format::PitSchemaMaxDepth(R"({"taco:pit_schema": {"hierarchy": {"one": []}}})", "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("c.json"), std::string::npos);
  EXPECT_FALSE(format::PitSchemaMaxDepth(R"({"taco:pit_schema": {"hierarchy": {"6": []}}})", "c").ok());
  EXPECT_FALSE(format::PitSchemaMaxDepth("[1, 2]", "c").ok());
  EXPECT_FALSE(format::PitSchemaMaxDepth("{not json", "c").ok());
}

// ---- request budget -----------------------------------------------------------------------

TEST_F(TacocatRemoteTest, OpeningTheFolderFormCostsOnePlusLevelsRequests) {
  auto local = Dataset::Open(e->Local(kFolder));
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  const int levels = (*local)->num_levels();
  ASSERT_EQ(levels, 3);
  std::unique_ptr<Dataset> remote;
  const auto lines = Logged([&] {
    auto ds = Dataset::Open(e->Url(kFolder), NoCache());
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    remote = std::move(*ds);
    ASSERT_TRUE(remote->RowCount().ok());
    for (int level = 0; level < levels; ++level) ASSERT_TRUE(remote->DescribeLevel(level).ok());
  });
  EXPECT_EQ(lines.size(), 1u + static_cast<size_t>(levels)) << Joined(lines);
  for (const auto& line : lines) {
    const LogLine l = Parse(line);
    EXPECT_EQ(l.status, "200") << line;  // whole-object GETs, no 404 probes
    EXPECT_EQ(l.range, "\"-\"") << line;
  }
  ASSERT_NE(remote, nullptr);
  ExpectSameAsLocal(*remote, **local);
}

TEST_F(TacocatRemoteTest, OpeningTheSingleFileFormCostsAtMostTwoRequests) {
  auto local = Dataset::Open(e->Local(kSingle));
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  std::unique_ptr<Dataset> remote;
  const auto lines = Logged([&] {
    auto ds = Dataset::Open(e->Url(kSingle), NoCache());
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    remote = std::move(*ds);
    ASSERT_TRUE(remote->RowCount().ok());
    for (int level = 0; level < remote->num_levels(); ++level) ASSERT_TRUE(remote->DescribeLevel(level).ok());
  });
  EXPECT_GE(lines.size(), 1u);
  EXPECT_LE(lines.size(), 2u) << Joined(lines);
  for (const auto& line : lines) EXPECT_EQ(Parse(line).status, "206") << line;
  ASSERT_NE(remote, nullptr);
  ExpectSameAsLocal(*remote, **local);
}

TEST_F(TacocatRemoteTest, LevelFilesAreFetchedInParallel) {
  const std::string inflight = e->fault_log + ".inflight";
  auto max_in_flight = [&]() -> std::vector<int> {
    std::vector<int> counts;
    if (!fs::exists(inflight)) return counts;
    for (const auto& line : Lines(ReadFile(inflight))) counts.push_back(std::stoi(line));
    return counts;
  };
  const size_t before = max_in_flight().size();
  auto ds = Dataset::Open(e->FaultUrl("delay", kFolder), NoCache());
  ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  std::vector<int> counts = max_in_flight();
  ASSERT_GE(counts.size(), before);
  counts.erase(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(before));
  ASSERT_EQ(counts.size(), 4u);  // COLLECTION.json, then the three levels
  EXPECT_EQ(counts[0], 1);       // COLLECTION.json alone: it says how many levels there are
  EXPECT_GE(*std::max_element(counts.begin(), counts.end()), 2) << "the level files were fetched one at a time";
  auto local = Dataset::Open(e->Local(kFolder));
  ASSERT_TRUE(local.ok());
  ExpectSameAsLocal(**ds, **local);
}

TEST_F(TacocatRemoteTest, ALevelNamedByThePitSchemaButMissingIsAClearError) {
  CopyDataset("cat", "cat_missing");
  fs::remove(e->Local("cat_missing/.tacocat/level2.parquet"));
  const std::string url = e->Url("cat_missing/.tacocat");
  auto ds = Dataset::Open(url, NoCache());
  ASSERT_FALSE(ds.ok());
  EXPECT_EQ(ds.status().code(), StatusCode::kNotFound) << ds.status().ToString();
  EXPECT_NE(ds.status().message().find(url + "/level2.parquet"), std::string::npos) << ds.status().ToString();
  EXPECT_NE(ds.status().message().find("HTTP 404"), std::string::npos) << ds.status().ToString();
  EXPECT_NE(ds.status().message().find("pit_schema"), std::string::npos) << ds.status().ToString();

  auto none = Dataset::Open(e->Url("cat_nothing_here/.tacocat"), NoCache());
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kNotFound) << none.status().ToString();
  EXPECT_NE(none.status().message().find("COLLECTION.json"), std::string::npos) << none.status().ToString();
}

// ---- same answers as local, through the CLI ------------------------------------------------

TEST_F(TacocatRemoteTest, CliGivesTheSameAnswersOnAUrlAsOnTheLocalPath) {
  for (const std::string rel : {kFolder, kSingle}) {
    SCOPED_TRACE(rel);
    const std::string local = e->Local(rel);
    const std::string url = e->Url(rel);
    // Paths in outputs: the dataset itself and the directory of the source ZIPs.
    const std::string dir = rel.substr(0, rel.find('/'));
    auto normalise = [&](std::string text, const std::string& path, const std::string& parent) {
      text = Replace(text, ToVsiPath(path), "<ROOT>");
      text = Replace(text, path, "<ROOT>");
      text = Replace(text, ToVsiPath(parent), "<DIR>");
      text = Replace(text, parent, "<DIR>");
      return DropGdalVsiColumn(text);
    };
    for (const std::string args : {"info", "sql", "read 0", "read 0 0", "cat 0 0 0"}) {
      SCOPED_TRACE(args);
      const auto [a, b] = RunOnLocalAndUrl(args, local, url);
      EXPECT_EQ(normalise(a, local, e->Local(dir)), normalise(b, url, e->Url(dir)));
      if (args.rfind("cat", 0) == 0) {
        EXPECT_EQ(b, std::string(20000, Ours3Byte(0, 0, 0)));
      }
    }
    // A sample of the second source ZIP (part_b: bytes shifted by 8).
    CommandResult b = RunTaco("--no-cache cat " + ShellQuote(url) + " 3 1 0");
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(b.out, std::string(20000, static_cast<char>(Ours3Byte(1, 1, 0) + 8)));
  }
}

// ---- disk cache ---------------------------------------------------------------------------

TEST_F(TacocatRemoteTest, CachedFolderIsRevalidatedWithOneSmallRequestPerFile) {
  CopyDataset("cat", "cat_cached");
  const std::string rel = "cat_cached/.tacocat";
  auto local = Dataset::Open(e->Local(rel));
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  const size_t files = 1 + static_cast<size_t>((*local)->num_levels());
  ASSERT_TRUE(ClearRemoteCache().ok());
  std::unique_ptr<Dataset> remote;
  auto open = [&] {
    auto ds = Dataset::Open(e->Url(rel));
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    remote = std::move(*ds);
  };

  // Miss: fetched and stored.
  auto lines = Logged(open);
  EXPECT_EQ(lines.size(), files) << Joined(lines);
  EXPECT_EQ(GetRemoteCacheInfo()->entries, 1u);
  ExpectSameAsLocal(*remote, **local);

  // Hit: one bytes=0-0 GET per file, no bodies.
  lines = Logged(open);
  EXPECT_EQ(lines.size(), files) << Joined(lines);
  for (const auto& line : lines) {
    const LogLine l = Parse(line);
    EXPECT_EQ(l.range, "\"bytes=0-0\"") << line;
    EXPECT_EQ(l.bytes, 1u) << line;
  }
  ExpectSameAsLocal(*remote, **local);

  // A new version of one level: that level alone is fetched again.
  Touch(e->Local(rel + "/level1.parquet"));
  lines = Logged(open);
  EXPECT_EQ(lines.size(), files + 1) << Joined(lines);
  size_t full = 0;
  for (const auto& line : lines) {
    const LogLine l = Parse(line);
    if (l.range == "\"-\"") {
      ++full;
      EXPECT_NE(l.uri.find("level1.parquet"), std::string::npos) << line;
    }
  }
  EXPECT_EQ(full, 1u) << Joined(lines);
  ExpectSameAsLocal(*remote, **local);
  // ... and the entry was rewritten: the next open is a hit again.
  lines = Logged(open);
  EXPECT_EQ(lines.size(), files) << Joined(lines);
  for (const auto& line : lines) EXPECT_EQ(Parse(line).range, "\"bytes=0-0\"") << line;

  // A changed COLLECTION.json is never served stale.
  const std::string collection_path = e->Local(rel + "/COLLECTION.json");
  auto collection = nlohmann::ordered_json::parse(ReadFile(collection_path));
  collection["description"] = "changed after caching";
  WriteFile(collection_path, collection.dump(2));
  lines = Logged(open);
  EXPECT_EQ(lines.size(), files + 1) << Joined(lines);
  EXPECT_EQ(remote->collection().value("description", ""), "changed after caching");
  EXPECT_EQ(*remote->RowCount(), *(*local)->RowCount());
  EXPECT_EQ(GetRemoteCacheInfo()->entries, 1u);

  // --no-cache: neither read (full GETs although an entry exists) nor written.
  lines = Logged([&] {
    CommandResult r = RunTaco("--no-cache info " + ShellQuote(e->Url(rel)));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  });
  EXPECT_EQ(lines.size(), files) << Joined(lines);
  for (const auto& line : lines) EXPECT_EQ(Parse(line).range, "\"-\"") << line;
  ASSERT_TRUE(ClearRemoteCache().ok());
  auto uncached = Dataset::Open(e->Url(rel), NoCache());
  ASSERT_TRUE(uncached.ok()) << uncached.status().ToString();
  CommandResult r = RunTaco("--no-cache info " + ShellQuote(e->Url(rel)));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(GetRemoteCacheInfo()->entries, 0u);
  // `taco cache clear` removes TACOCAT entries too.
  r = RunTaco("info " + ShellQuote(e->Url(rel)));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(GetRemoteCacheInfo()->entries, 1u);
  CommandResult cc = RunTaco("-q cache clear");
  ASSERT_EQ(cc.exit_code, 0) << cc.err;
  EXPECT_EQ(GetRemoteCacheInfo()->entries, 0u);
}

TEST_F(TacocatRemoteTest, CachedSingleFileCostsOneHeaderRequest) {
  CopyDataset("cat1", "cat1_cached");
  const std::string rel = "cat1_cached/__TACOCAT__";
  auto local = Dataset::Open(e->Local(rel));
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  ASSERT_TRUE(ClearRemoteCache().ok());
  std::unique_ptr<Dataset> remote;
  auto open = [&] {
    auto ds = Dataset::Open(e->Url(rel));
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    remote = std::move(*ds);
  };
  auto lines = Logged(open);
  EXPECT_LE(lines.size(), 2u) << Joined(lines);
  EXPECT_EQ(GetRemoteCacheInfo()->entries, 1u);
  lines = Logged(open);
  ASSERT_EQ(lines.size(), 1u) << Joined(lines);
  EXPECT_EQ(Parse(lines[0]).range, "\"bytes=0-127\"") << lines[0];
  ExpectSameAsLocal(*remote, **local);
  // A new version: refetched (header GET, then the metadata).
  Touch(e->Local(rel));
  lines = Logged(open);
  EXPECT_EQ(lines.size(), 2u) << Joined(lines);
  ExpectSameAsLocal(*remote, **local);
  lines = Logged(open);
  EXPECT_EQ(lines.size(), 1u) << Joined(lines);
  ASSERT_TRUE(ClearRemoteCache().ok());
}

// ---- s3:// through GDAL, pointed at nginx ---------------------------------------------------

TEST_F(TacocatRemoteTest, CachedS3ZipOpenCostsOneRequest) {
  UseNginxAsS3();
  fs::create_directories(e->Local("s3cache"));
  fs::copy_file(e->Local("ours3.tacozip"), e->Local("s3cache/ours3.tacozip"), fs::copy_options::overwrite_existing);
  const std::string url = "s3://bucket/s3cache/ours3.tacozip";
  auto local = Dataset::Open(e->Local("ours3.tacozip"));
  ASSERT_TRUE(local.ok());
  ASSERT_TRUE(ClearRemoteCache().ok());
  std::unique_ptr<Dataset> remote;
  auto open = [&] {
    VSICurlClearCache();  // what a new process would see
    auto ds = Dataset::Open(url);
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    remote = std::move(*ds);
    ASSERT_TRUE(remote->RowCount().ok());
  };
  auto lines = Logged(open);
  EXPECT_GE(lines.size(), 2u) << Joined(lines);
  EXPECT_EQ(GetRemoteCacheInfo()->entries, 1u);
  lines = Logged(open);
  EXPECT_EQ(lines.size(), 1u) << Joined(lines);
  ExpectSameAsLocal(*remote, **local);
  // Samples are still read from the object.
  auto node = remote->ReadPath(std::vector<SampleKey>{int64_t{1}, int64_t{0}, int64_t{1}});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  auto bytes = remote->ReadBytes(*node);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(*bytes, std::string(20000, Ours3Byte(1, 0, 1)));
  // A new version (new ETag): refetched, not served from the entry.
  fs::copy_file(e->Local("ours.tacozip"), e->Local("s3cache/ours3.tacozip"), fs::copy_options::overwrite_existing);
  lines = Logged(open);
  EXPECT_GE(lines.size(), 2u) << Joined(lines);
  EXPECT_EQ(*remote->RowCount(), 3);
  lines = Logged(open);
  EXPECT_EQ(lines.size(), 1u) << Joined(lines);
  EXPECT_EQ(*remote->RowCount(), 3);
  ASSERT_TRUE(ClearRemoteCache().ok());
}

TEST_F(TacocatRemoteTest, S3TacocatOpensWithTheSameAnswersAsLocal) {
  UseNginxAsS3();
  for (const std::string rel : {kFolder, kSingle}) {
    SCOPED_TRACE(rel);
    auto local = Dataset::Open(e->Local(rel));
    ASSERT_TRUE(local.ok()) << local.status().ToString();
    for (bool use_cache : {false, true, true}) {
      SCOPED_TRACE(use_cache ? "cache" : "no cache");
      VSICurlClearCache();
      OpenOptions options;
      options.use_cache = use_cache;
      std::unique_ptr<Dataset> remote;
      const auto lines = Logged([&] {
        auto ds = Dataset::Open("s3://bucket/" + rel, options);
        ASSERT_TRUE(ds.ok()) << ds.status().ToString();
        remote = std::move(*ds);
      });
      for (const auto& line : lines) {
        EXPECT_NE(Parse(line).status, "404") << line;
        EXPECT_EQ(line.find("delimiter"), std::string::npos) << "a directory listing: " << line;
      }
      // `.tacocat/`: COLLECTION.json and 3 levels (a validator each when caching);
      // `__TACOCAT__`: its first 16 KiB hold everything.
      EXPECT_LE(lines.size(), rel == kFolder ? 4u : 1u) << Joined(lines);
      ASSERT_NE(remote, nullptr);
      ExpectSameAsLocal(*remote, **local);
      auto node = remote->ReadPath(std::vector<SampleKey>{int64_t{2}, int64_t{0}, int64_t{0}});
      ASSERT_TRUE(node.ok()) << node.status().ToString();
      auto bytes = remote->ReadBytes(*node);
      ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
      EXPECT_EQ(*bytes, std::string(20000, static_cast<char>(Ours3Byte(0, 0, 0) + 8)));
    }
  }
  ASSERT_TRUE(ClearRemoteCache().ok());
}

}  // namespace
}  // namespace taco::testing

namespace taco::testing {
namespace {

// A TACOLLECTION.json served over HTTP: its parts are fetched from beside it, and a routed
// filter never requests the part whose extent misses the box.
TEST_F(TacocatRemoteTest, TacollectionOverHttpOpensItsPartsAndRoutes) {
  const std::string json = "cat/TACOLLECTION_remote.json";
  std::error_code ec;
  fs::remove(e->Local(json), ec);
  CommandResult r = RunTaco("tacollection " + ShellQuote(e->Local("cat/part_a.tacozip")) + " " +
                            ShellQuote(e->Local("cat/part_b.tacozip")) + " -o " + ShellQuote(e->Local(json)));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto collection = nlohmann::ordered_json::parse(ReadWholeFile(e->Local(json)).value());
  collection["taco:sources"]["extents"][0]["spatial"] = {0.0, 0.0, 1.0, 1.0};
  collection["taco:sources"]["extents"][1]["spatial"] = {50.0, 50.0, 51.0, 51.0};
  {
    std::ofstream out(e->Local(json));
    out << collection.dump(4);
  }
  const auto [local, remote] = RunOnLocalAndUrl("sql", e->Local(json), e->Url(json));
  EXPECT_FALSE(remote.empty());
  EXPECT_EQ(DropGdalVsiColumn(Replace(local, ToVsiPath(e->Local("cat")), "<DIR>")),
            DropGdalVsiColumn(Replace(remote, ToVsiPath(e->Url("cat")), "<DIR>")));
  // Routed by the part extents (these parts have no geometry column to filter rows on, so
  // the routing is checked through the API): only part_b is listed, opened and requested.
  std::vector<std::string> lines = Logged([&] {
    auto parts = RouteTacollection(e->Url(json), std::array<double, 4>{50.2, 50.2, 50.4, 50.4});
    ASSERT_TRUE(parts.ok()) << parts.status().ToString();
    EXPECT_EQ(parts->total, 2u);
    EXPECT_EQ(parts->skipped, 1u);
    ASSERT_EQ(parts->paths, std::vector<std::string>{e->Url("cat/part_b.tacozip")});
    OpenOptions options;
    options.use_cache = false;
    auto ds = Dataset::OpenList(parts->paths, options);
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    auto local = Dataset::Open(e->Local("cat/part_b.tacozip"));
    ASSERT_TRUE(local.ok()) << local.status().ToString();
    EXPECT_EQ(*(*ds)->RowCount(), *(*local)->RowCount());
  });
  for (const std::string& line : lines) EXPECT_EQ(line.find("part_a.tacozip"), std::string::npos) << line;
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("part_b.tacozip") != std::string::npos;
  })) << Joined(lines);
}

}  // namespace
}  // namespace taco::testing
