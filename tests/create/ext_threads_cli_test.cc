// `taco create --ext` computes the sample extensions on a pool of threads (TACO_EXT_THREADS)
// and merges them in sample order: the dataset is the same, byte for byte, at 1, 2 and 3
// threads, ZIP and FOLDER, with every --ext form (stac, istac, stats and stats-categorical
// with --classes through NAME:GLOB, majortom) and the FOLDER rows' STAC filled from their
// files. A damaged raster stops the command with the first one in sample order named, and
// nothing is written. (Named *ThreadStress so that `make test-tsan` runs it.)
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ext/raster_fixture.h"
#include "support/cli_expect.h"
#include "support/paths.h"
#include "support/zip_image.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kFolders = 40;  // × 2 files × 4 extensions: 320 computations (> the window of 2 threads)

constexpr const char* kCollection = R"({"id": "ext_threads", "dataset_version": "1.0.0",
  "description": "image and mask per sample", "licenses": ["CC-BY-4.0"],
  "providers": [{"name": "tests"}], "tasks": ["segmentation"]})";

constexpr const char* kExt = "--ext stac,istac,stats:image.tif,stats-categorical:mask.tif,majortom --classes 0,1,2";

// Sets an environment variable for the `taco` processes the test starts ("" unsets it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value.empty()) {
      ::unsetenv(name);
    } else {
      ::setenv(name, value.c_str(), 1);
    }
  }
  ~ScopedEnv() {
    if (old_.empty()) {
      ::unsetenv(name_);
    } else {
      ::setenv(name_, old_.c_str(), 1);
    }
  }

 private:
  const char* name_;
  std::string old_;
};

// A 16×16 GeoTIFF with 100 m pixels at (x, y) in `epsg`, pixels varying with `seed`.
void Raster(const std::string& path, int epsg, double x, double y, int bands, GDALDataType type, int modulo, int seed) {
  RasterSpec spec;
  spec.cols = spec.rows = 16;
  spec.type = type;
  spec.epsg = epsg;
  spec.geotransform = {x, 100, 0, y, 0, -100};
  for (int b = 0; b < bands; ++b) {
    std::vector<double> px;
    for (int i = 0; i < 256; ++i) px.push_back((i * (seed + 1) + b * 7 + seed) % modulo);
    spec.bands.push_back(px);
  }
  WriteRaster(path, spec);
}

// kFolders sample folders s000.. (in three UTM zones, so each thread reprojects several CRSs),
// each with image.tif (2 bands uint16) and mask.tif (1 band uint8, classes 0..2).
struct Tree {
  TempDir dir;
  std::string src = dir / "src";

  Tree() {
    const int zones[] = {32630, 32631, 32618};
    for (int i = 0; i < kFolders; ++i) {
      const std::string folder = src + "/" + Id(i);
      fs::create_directories(folder);
      const int epsg = zones[i % 3];
      const double x = 400000 + 1600.0 * i, y = 4500000 + 800.0 * i;
      Raster(folder + "/image.tif", epsg, x, y, 2, GDT_UInt16, 1000, i);
      Raster(folder + "/mask.tif", epsg, x, y, 1, GDT_Byte, 3, i);
    }
    WriteFile(dir / "collection.json", kCollection);
  }

  static std::string Id(int i) {
    std::string id = std::to_string(i);
    return "s" + std::string(3 - id.size(), '0') + id;
  }

  std::string Create(const std::string& out, const std::string& options) const {
    return "create " + ShellQuote(src) + " " + ShellQuote(out) + " --collection " +
           ShellQuote(dir / "collection.json") + " -q " + options;
  }
};

// Every regular file below `dir`, by relative path.
std::map<std::string, std::string> TreeBytes(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = ReadFile(e.path().string());
  }
  return out;
}

TEST(ExtThreadStress, CreateGivesTheSameBytesAtOneTwoAndThreeThreads) {
  Tree tree;
  std::string zip_ref;
  std::map<std::string, std::string> folder_ref;
  for (const std::string threads : {"1", "2", "3", ""}) {
    SCOPED_TRACE("TACO_EXT_THREADS=" + threads);
    ScopedEnv env("TACO_EXT_THREADS", threads);
    const std::string zip = tree.dir / ("out" + threads + ".tacozip");
    const std::string folder = tree.dir / ("out" + threads);
    CommandResult r = RunTaco(tree.Create(zip, kExt));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = RunTaco(tree.Create(folder, kExt));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (threads == "1") {
      zip_ref = ZipImage(zip);
      folder_ref = TreeBytes(folder);
      continue;
    }
    EXPECT_TRUE(ZipImage(zip) == zip_ref);
    const std::map<std::string, std::string> got = TreeBytes(folder);
    EXPECT_EQ(got.size(), folder_ref.size());
    for (const auto& [name, bytes] : folder_ref) {
      auto it = got.find(name);
      EXPECT_TRUE(it != got.end() && it->second == bytes) << name << " differs";
    }
  }

  // The extensions were computed (not all null): every file has its stats, every FOLDER row
  // a centroid filled from its files, every level-0 row a Major TOM cell.
  const std::string q = ShellQuote(tree.dir / "out2.tacozip");
  CommandResult r = RunTaco("sql " + q +
                            " 'select count(\"geotiff:stats\") AS stats, count(\"stac:centroid\") AS centroids, "
                            "count(\"istac:geometry\") AS footprints from level1' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = nlohmann::json::parse(r.out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["stats"], 2 * kFolders) << r.out;
  EXPECT_EQ(rows[0]["centroids"], 2 * kFolders) << r.out;
  EXPECT_EQ(rows[0]["footprints"], 2 * kFolders) << r.out;
  r = RunTaco("sql " + q +
              " 'select count(\"stac:centroid\") AS centroids, count(\"majortom:code\") AS cells from data' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rows = nlohmann::json::parse(r.out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["centroids"], kFolders) << r.out;
  EXPECT_EQ(rows[0]["cells"], kFolders) << r.out;
}

// Two truncated images (s005 and s031): their pixels cannot be read. At 2 threads the error
// names s005, the first in sample order, whichever thread met which first; nothing is left.
TEST(ExtThreadStress, ADamagedRasterIsNamedFirstInSampleOrderAndNothingIsWritten) {
  Tree tree;
  for (const std::string id : {"s005", "s031"}) {
    const std::string path = tree.src + "/" + id + "/image.tif";
    const std::string bytes = ReadFile(path);
    ASSERT_GT(bytes.size(), 1200u);
    WriteFile(path, bytes.substr(0, 1200));  // header and tags kept, strips cut
  }
  ScopedEnv env("TACO_EXT_THREADS", "2");
  fs::create_directories(tree.dir / "out");
  for (const std::string suffix : {".tacozip", "", ".tacozip", ""}) {
    SCOPED_TRACE("output suffix '" + suffix + "'");
    CommandResult r = RunTaco(tree.Create(tree.dir / "out/ds" + suffix, "--ext stac,stats"));
    ExpectOneLineError(r, tree.src + "/s005/image.tif: extension 'stats': ");
    EXPECT_EQ(r.err.find("s031"), std::string::npos) << r.err;
    std::vector<std::string> left;
    for (const auto& entry : fs::directory_iterator(tree.dir / "out")) left.push_back(entry.path().filename());
    EXPECT_TRUE(left.empty()) << "left behind: " << left.size() << " entries, first " << left.front();
  }
}

}  // namespace
}  // namespace taco::testing
