// Issue 16 A: extents merged on the longitude circle by `taco tacollection` and in the
// .tacocat that `taco create --split-size` writes, as `taco create` does for one dataset:
// an input crossing the antimeridian keeps its Pacific part.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "ext/raster_fixture.h"
#include "support/paths.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;
using testing::WriteFile;

std::string CollectionWith(const std::string& id, const std::string& extent) {
  return R"({"id": ")" + id + R"(", "dataset_version": "1.0.0", "description": "extent test",
             "licenses": ["CC-BY-4.0"], "providers": [{"name": "Test"}], "tasks": ["classification"])" +
         (extent.empty() ? std::string() : ", \"extent\": " + extent) + "}";
}

TEST(ExtentMerge, TacollectionMergesAcrossTheAntimeridian) {
  TempDir dir;
  fs::create_directories(dir / "src");
  WriteFile(dir / "src/a.bin", "a");
  std::string inputs;
  int n = 0;
  for (const std::string spatial : {"[170, -20, -170, -10]", "[10, 40, 20, 50]"}) {
    const std::string name = "ds" + std::to_string(n++);
    WriteFile(dir / (name + ".json"), CollectionWith(name, "{\"spatial\": " + spatial + ", \"temporal\": null}"));
    auto made = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(dir / (name + ".tacozip")) +
                        " --collection " + ShellQuote(dir / (name + ".json")));
    ASSERT_EQ(made.exit_code, 0) << made.err;
    inputs += std::string(" ") + ShellQuote(dir / (name + ".tacozip"));
  }
  auto r = RunTaco("tacollection" + inputs + " -o " + ShellQuote(dir / "TACOLLECTION.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(ReadFile(dir / "TACOLLECTION.json"));
  // 10 → 180 → -170 (200°) rather than [-170, 170] or the whole of [10, 20] ∪ the Pacific lost.
  EXPECT_EQ(j["extent"]["spatial"], (nlohmann::json{10.0, -20.0, -170.0, 50.0}));
  EXPECT_EQ(j["taco:sources"]["extents"][0]["spatial"], (nlohmann::json{170.0, -20.0, -170.0, -10.0}));
}

TEST(ExtentMerge, SplitSizeTacocatMergesAcrossTheAntimeridian) {
  TempDir dir;
  fs::create_directories(dir / "src");
  // 4x4 rasters of 0.25° pixels centred on (175, 10), (-175, 12), (15, -5).
  struct Centre {
    std::string name;
    double lon, lat;
  };
  for (const Centre& c : {Centre{"a.tif", 175, 10}, Centre{"b.tif", -175, 12}, Centre{"c.tif", 15, -5}}) {
    testing::RasterSpec spec;
    spec.geotransform = {c.lon - 0.5, 0.25, 0, c.lat + 0.5, 0, -0.25};
    spec.bands = {std::vector<double>(16, 1.0)};
    testing::WriteRaster(dir / ("src/" + c.name), spec);
  }
  WriteFile(dir / "c.json", CollectionWith("split", ""));
  auto made = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(dir / "out/ds.tacozip") +
                      " --collection " + ShellQuote(dir / "c.json") + " --ext stac --split-size 1");
  ASSERT_EQ(made.exit_code, 0) << made.err;
  ASSERT_TRUE(fs::exists(dir / "out/ds_part0003.tacozip"));
  auto j = nlohmann::json::parse(ReadFile(dir / "out/.tacocat/COLLECTION.json"));
  const auto& spatial = j["extent"]["spatial"];
  ASSERT_EQ(spatial.size(), 4u) << j["extent"].dump();
  // The points 175, -175 and 15: the smallest arc is 15 → 180 → -175, not [-175, 175].
  EXPECT_DOUBLE_EQ(spatial[0].get<double>(), 15.0) << spatial.dump();
  EXPECT_DOUBLE_EQ(spatial[2].get<double>(), -175.0) << spatial.dump();
  EXPECT_DOUBLE_EQ(spatial[1].get<double>(), -5.0);
  EXPECT_DOUBLE_EQ(spatial[3].get<double>(), 12.0);
}

}  // namespace
}  // namespace taco
