// Thread safety (issue 14): 8 threads share ONE opened Dataset — ZIP and FOLDER, local and
// through nginx — and read, navigate and query it concurrently; every thread's answers must
// equal those of a single-threaded run. `make test-tsan` runs this under ThreadSanitizer.
// Also: GDAL options a caller sets for its own thread reach taco-cpp's parallel fetch
// threads, and the /vsitaco/ paths stay bounded (an LRU) in a loop over many samples.
#include <cpl_conv.h>
#include <gdal.h>
#include <gdal_alg.h>
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "remote_env.h"
#include "taco/io.h"

namespace taco::testing {
namespace {

constexpr int kThreads = 8;

std::string Describe(const Status& st) { return "ERROR " + st.ToString(); }

// A cheap fingerprint of bytes (size + FNV-1a).
std::string Fingerprint(std::string_view bytes) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return std::to_string(bytes.size()) + ":" + std::to_string(h);
}

std::string Ids(const Result<Table>& t) {
  if (!t.ok()) return Describe(t.status());
  std::string out;
  const int c = t->FindColumn("id");
  if (c < 0) return "no id";
  for (const auto& v : t->columns[static_cast<size_t>(c)].values)
    out += (v.is<std::string>() ? v.get<std::string>() : "?") + ",";
  return out;
}

// Walks every sample below `frame` (depth first): ids, types and FILE fingerprints, read
// whole and streamed.
std::string Walk(const Dataset& ds, const Frame& frame) {
  std::string out;
  for (size_t i = 0; i < frame.num_rows(); ++i) {
    auto node = frame.Read(static_cast<int64_t>(i));
    if (!node.ok()) return out + Describe(node.status());
    out += node->id + "(";
    if (node->children) {
      out += Walk(ds, *node->children);
    } else {
      auto bytes = ds.ReadBytes(*node);
      out += bytes.ok() ? Fingerprint(*bytes) : Describe(bytes.status());
      std::string streamed;
      Status st = ds.StreamBytes(*node, [&](std::string_view p) {
        streamed.append(p);
        return Status::OK();
      });
      if (!st.ok() || (bytes.ok() && streamed != *bytes)) out += " stream differs";
    }
    out += ")";
  }
  return out;
}

// The operations every thread runs (each returns a transcript of what it saw).
std::vector<std::function<std::string(const Dataset&)>> Operations() {
  return {
      [](const Dataset& ds) { return Ids(ds.Data()); },
      [](const Dataset& ds) {
        auto count = ds.RowCount();
        return count.ok() ? std::to_string(*count) : Describe(count.status());
      },
      [](const Dataset& ds) {
        auto view = ds.Sql("SELECT * FROM data WHERE id <> 'r0' ORDER BY id DESC");
        if (!view.ok()) return Describe(view.status());
        std::string out = Ids((*view)->Data());
        const auto& c = (*view)->collection();
        out += " n=" + std::to_string(c.at("taco:pit_schema").at("root").value("n", -1));
        auto first = (*view)->Read(int64_t{0});
        out += first.ok() ? " first=" + first->id : Describe(first.status());
        return out;
      },
      [](const Dataset& ds) {
        std::string out;
        for (int64_t i = 0;; ++i) {  // level 0 by position, then whole subtrees
          auto node = ds.Read(i);
          if (!node.ok()) break;
          out += node->id + "[";
          if (node->children) out += Walk(ds, *node->children);
          out += "]";
        }
        return out;
      },
      [](const Dataset& ds) {
        auto node = ds.ReadPath({std::string("r1"), std::string("t0"), std::string("f1.bin")});
        if (!node.ok()) return Describe(node.status());
        auto bytes = ds.ReadBytes(*node);
        return node->gdal_path.substr(0, 12) + (bytes.ok() ? Fingerprint(*bytes) : Describe(bytes.status()));
      },
      [](const Dataset& ds) {
        auto filtered = ds.Sql("SELECT * FROM data WHERE id = 'r1'");
        if (!filtered.ok()) return Describe(filtered.status());
        auto node = (*filtered)->Read(std::string("r1"));
        return node.ok() && node->children ? Walk(**filtered, *node->children) : std::string("no r1");
      },
  };
}

// Runs the operations once alone, then in kThreads threads (each several rounds, each
// thread starting at another operation), and compares.
void StressOneDataset(const std::string& path, int rounds) {
  SCOPED_TRACE(path);
  OpenOptions options;
  options.use_cache = false;
  auto opened = Dataset::Open(path, options);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  const Dataset& ds = **opened;
  const auto ops = Operations();
  std::vector<std::string> expected;
  {
    auto alone = Dataset::Open(path, options);
    ASSERT_TRUE(alone.ok());
    for (const auto& op : ops) expected.push_back(op(**alone));
  }
  for (const std::string& e : expected) ASSERT_EQ(e.find("ERROR"), std::string::npos) << e;
  std::vector<std::map<size_t, std::vector<std::string>>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r) {
        for (size_t k = 0; k < ops.size(); ++k) {
          const size_t op = (k + static_cast<size_t>(t)) % ops.size();
          seen[static_cast<size_t>(t)][op].push_back(ops[op](ds));
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    for (const auto& [op, answers] : seen[static_cast<size_t>(t)]) {
      for (const std::string& a : answers) EXPECT_EQ(a, expected[op]) << "thread " << t << ", operation " << op;
    }
  }
}

class ThreadStress : public RemoteTest {};

TEST_F(ThreadStress, EightThreadsShareALocalZip) { StressOneDataset(e->Local("ours3.tacozip"), 3); }
TEST_F(ThreadStress, EightThreadsShareALocalFolder) { StressOneDataset(e->Local("ours3_folder"), 3); }
TEST_F(ThreadStress, EightThreadsShareARemoteZip) { StressOneDataset(e->Url("ours3.tacozip"), 2); }
TEST_F(ThreadStress, EightThreadsShareARemoteFolder) { StressOneDataset(e->Url("ours3_folder"), 2); }

// GDAL reading the same dataset's samples from 8 threads through /vsitaco/ paths.
TEST_F(ThreadStress, GdalReadsSamplesFromEightThreads) {
  for (const std::string& path : {e->Local("demo/demo.tacozip"), e->Url("demo/demo.tacozip")}) {
    SCOPED_TRACE(path);
    OpenOptions options;
    options.use_cache = false;
    auto ds = Dataset::Open(path, options);
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    auto rows = (*ds)->RowCount();
    ASSERT_TRUE(rows.ok());
    const int64_t tiles = std::min<int64_t>(*rows, 6);
    auto checksums = [&](int64_t first) {
      std::vector<int> out(static_cast<size_t>(tiles), -1);
      for (int64_t k = 0; k < tiles; ++k) {
        const int64_t i = (first + k) % tiles;
        auto node = (*ds)->ReadPath({i, std::string("after.tif")});
        if (!node.ok()) continue;
        auto gdal_path = InProcessGdalPath(node->gdal_path, node->id);
        if (!gdal_path.ok()) continue;
        GDALDatasetH h = GDALOpen(gdal_path->c_str(), GA_ReadOnly);
        if (h == nullptr) continue;
        GDALRasterBandH band = GDALGetRasterBand(h, 1);
        out[static_cast<size_t>(i)] = GDALChecksumImage(band, 0, 0, GDALGetRasterXSize(h), GDALGetRasterYSize(h));
        GDALClose(h);
      }
      return out;
    };
    GDALAllRegister();
    const std::vector<int> expected = checksums(0);
    for (int c : expected) ASSERT_GE(c, 0);
    std::vector<std::vector<int>> got(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) threads.emplace_back([&, t] { got[static_cast<size_t>(t)] = checksums(t); });
    for (auto& th : threads) th.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(got[static_cast<size_t>(t)], expected) << "thread " << t;
  }
}

// Options the caller sets for its own thread only (here the header the "auth" server
// requires) hold in the threads that fetch a remote FOLDER's levels in parallel.
TEST_F(ThreadStress, ThreadLocalGdalOptionsReachTheParallelFetchThreads) {
  OpenOptions options;
  options.use_cache = false;
  const std::string url = e->FaultUrl("auth", "ours3_folder");
  auto refused = Dataset::Open(url, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("403"), std::string::npos) << refused.status().message();
  std::thread caller([&] {
    CPLSetThreadLocalConfigOption("GDAL_HTTP_HEADERS", "X-Taco-Token: secret");
    auto ds = Dataset::Open(url, options);  // COLLECTION.json, then 3 levels on 3 threads
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    auto count = (*ds)->RowCount();
    ASSERT_TRUE(count.ok()) << count.status().ToString();
    EXPECT_EQ(*count, 2);
    CPLSetThreadLocalConfigOption("GDAL_HTTP_HEADERS", nullptr);
  });
  caller.join();
}

// A loop over many samples keeps the /vsitaco/ registry bounded; a forgotten path is "not
// found" to GDAL, an explicitly released one too, and an open handle survives both.
TEST_F(ThreadStress, InProcessGdalPathsAreBounded) {
  OpenOptions options;
  options.use_cache = false;
  auto ds = Dataset::Open(e->Local("demo/demo.tacozip"), options);
  ASSERT_TRUE(ds.ok());
  auto node = (*ds)->ReadPath({int64_t{0}, std::string("after.tif")});
  ASSERT_TRUE(node.ok());
  auto first = InProcessGdalPath(node->gdal_path, "first.tif");
  ASSERT_TRUE(first.ok());
  GDALAllRegister();
  GDALDatasetH open = GDALOpen(first->c_str(), GA_ReadOnly);
  ASSERT_NE(open, nullptr);
  // 70,000 distinct sample paths (more than the 65,536 remembered).
  for (int i = 0; i < 70000; ++i) {
    std::string leaf = "s";  // built with += (GCC 12 warns falsely on "literal" + std::string)
    leaf += std::to_string(i) + ".tif";
    auto p = InProcessGdalPath(node->gdal_path, leaf);
    ASSERT_TRUE(p.ok());
  }
  EXPECT_LE(InProcessGdalPathCount(), 65536u);
  VSIStatBufL st;
  EXPECT_NE(VSIStatL(first->c_str(), &st), 0) << "the least recently used path is forgotten";
  GDALRasterBandH band = GDALGetRasterBand(open, 1);
  EXPECT_GE(GDALChecksumImage(band, 0, 0, GDALGetRasterXSize(open), GDALGetRasterYSize(open)), 0);
  GDALClose(open);
  auto again = InProcessGdalPath(node->gdal_path, "again.tif");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(VSIStatL(again->c_str(), &st), 0);
  EXPECT_TRUE(ReleaseInProcessGdalPath(*again));
  EXPECT_NE(VSIStatL(again->c_str(), &st), 0);
  EXPECT_FALSE(ReleaseInProcessGdalPath(*again));
}

}  // namespace
}  // namespace taco::testing
