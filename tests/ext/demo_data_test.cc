// SynthesizeDemoTree: 48 tiles x 3 readable, georeferenced rasters.
#include <filesystem>
#include <set>

#include <gdal_priv.h>
#include <gtest/gtest.h>

#include "ext/raster_fixture.h"
#include "support/paths.h"
#include "taco/demo_data.h"
#include "taco/extensions.h"

namespace taco {
namespace {

using testing::TempDir;

TEST(DemoDataTest, DefaultTree) {
  TempDir tmp;
  const std::string dir = tmp / "demo";
  auto r = SynthesizeDemoTree(dir);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 48u);

  std::set<std::string> countries, ids, crs;
  std::set<int> all_classes;
  int multi_class_tiles = 0;
  for (const DemoTile& t : *r) {
    EXPECT_TRUE(ids.insert(t.id).second) << t.id;
    countries.insert(t.country);
    EXPECT_GT(t.time_end_us, t.time_start_us);
    EXPECT_GE(t.lon, -180);
    EXPECT_LE(t.lon, 180);
    EXPECT_GE(t.lat, -85);
    EXPECT_LE(t.lat, 85);
    for (const char* name : {"before.tif", "after.tif", "label.tif"}) {
      const std::string path = dir + "/" + t.id + "/" + name;
      GDALDatasetUniquePtr ds(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
      ASSERT_NE(ds, nullptr) << path;
      EXPECT_EQ(ds->GetRasterXSize(), 64);
      EXPECT_EQ(ds->GetRasterYSize(), 64);
      const bool label = std::string(name) == "label.tif";
      ASSERT_EQ(ds->GetRasterCount(), label ? 1 : 4) << path;
      EXPECT_EQ(ds->GetRasterBand(1)->GetRasterDataType(), label ? GDT_Byte : GDT_UInt16);
      std::vector<double> px(64 * 64);
      ASSERT_EQ(ds->GetRasterBand(1)->RasterIO(GF_Read, 0, 0, 64, 64, px.data(), 64, 64, GDT_Float64, 0, 0, nullptr),
                CE_None);
      if (label) {
        std::set<int> classes;
        for (double v : px) classes.insert(static_cast<int>(v));
        EXPECT_LE(*classes.rbegin(), 3) << path;
        all_classes.insert(classes.begin(), classes.end());
        if (classes.size() >= 2) ++multi_class_tiles;
      } else {
        for (double v : px) {
          EXPECT_GE(v, 1) << path;
          EXPECT_LE(v, 10000) << path;
        }
      }
    }
    // The STAC centroid of the rasters is the tile's lon/lat, in a UTM CRS.
    auto stac = ext::Stac(dir + "/" + t.id + "/before.tif", t.time_start_us, t.time_end_us);
    ASSERT_TRUE(stac.ok()) << stac.status().ToString();
    const Value& crs_value = testing::FindField(*stac, "stac:crs")->value;
    ASSERT_TRUE(crs_value.is<std::string>());
    const std::string& code = crs_value.get<std::string>();
    EXPECT_TRUE(code.rfind("EPSG:326", 0) == 0 || code.rfind("EPSG:327", 0) == 0) << code;
    crs.insert(code);
    const auto [lon, lat] = testing::PointOf(testing::FindField(*stac, "stac:centroid")->value);
    EXPECT_NEAR(lon, t.lon, 1e-6);
    EXPECT_NEAR(lat, t.lat, 1e-6);
  }
  EXPECT_GE(countries.size(), 6u);
  EXPECT_GE(crs.size(), 6u);
  EXPECT_EQ(all_classes, (std::set<int>{0, 1, 2, 3}));
  EXPECT_GE(multi_class_tiles, 40);
  // Both hemispheres.
  bool north = false, south = false;
  for (const std::string& c : crs) (c.rfind("EPSG:326", 0) == 0 ? north : south) = true;
  EXPECT_TRUE(north && south);
}

TEST(DemoDataTest, OptionsAndDeterminism) {
  TempDir tmp;
  DemoOptions options;
  options.tiles = 3;
  options.size = 16;
  auto a = SynthesizeDemoTree(tmp / "a", options);
  auto b = SynthesizeDemoTree(tmp / "b", options);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ((*a)[i].id, (*b)[i].id);
    EXPECT_EQ((*a)[i].lon, (*b)[i].lon);
    auto sa = ext::GeotiffStats(tmp / "a" + "/" + (*a)[i].id + "/after.tif");
    auto sb = ext::GeotiffStats(tmp / "b" + "/" + (*b)[i].id + "/after.tif");
    ASSERT_TRUE(sa.ok() && sb.ok());
    EXPECT_EQ((*sa)[0].value, (*sb)[0].value);
  }
  EXPECT_FALSE(std::filesystem::exists(tmp / "a/tile_03"));
  options.tiles = 0;
  EXPECT_EQ(SynthesizeDemoTree(tmp / "c", options).status().code(), StatusCode::kInvalidArgument);
  options.tiles = 1;
  options.size = 2;
  EXPECT_EQ(SynthesizeDemoTree(tmp / "c", options).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace taco
