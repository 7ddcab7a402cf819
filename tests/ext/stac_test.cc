// STAC / ISTAC extensions and the --ext registry.
#include <algorithm>
#include <filesystem>
#include <memory>

#include <gtest/gtest.h>
#include <ogr_spatialref.h>

#include "ext/raster_fixture.h"
#include "support/paths.h"
#include "taco/extensions.h"

namespace taco::ext {
namespace {

using testing::FindField;
using testing::ParseWkbPolygon;
using testing::PointOf;
using testing::RasterSpec;
using testing::TempDir;

RasterSpec Geographic() {
  RasterSpec spec;
  spec.cols = 20;
  spec.rows = 8;
  spec.epsg = 4326;
  spec.geotransform = {-10, 0.5, 0, 50, 0, -0.25};
  spec.bands.assign(3, std::vector<double>(160, 1.0));
  return spec;
}

RasterSpec Utm30() {
  RasterSpec spec;
  spec.cols = 30;
  spec.rows = 10;
  spec.epsg = 32630;
  spec.geotransform = {440000, 10, 0, 4480000, 0, -20};
  spec.bands.assign(1, std::vector<double>(300, 2.0));
  return spec;
}

// Expected lon/lat of a UTM point, via OGR directly.
std::pair<double, double> UtmToLonLat(int epsg, double x, double y) {
  OGRSpatialReference src, dst;
  EXPECT_EQ(src.importFromEPSG(epsg), OGRERR_NONE);
  EXPECT_EQ(dst.importFromEPSG(4326), OGRERR_NONE);
  src.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  dst.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  std::unique_ptr<OGRCoordinateTransformation> ct(OGRCreateCoordinateTransformation(&src, &dst));
  EXPECT_NE(ct, nullptr);
  EXPECT_TRUE(ct->Transform(1, &x, &y));
  return {x, y};
}

TEST(StacTest, SchemaNamesAndTypes) {
  const std::vector<Field> schema = StacSchema();
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"stac:crs", "string"},
      {"stac:tensor_shape", "list<item: int64>"},
      {"stac:geotransform", "list<item: double>"},
      {"stac:time_start", "timestamp[us]"},
      {"stac:centroid", "binary"},
      {"stac:time_end", "timestamp[us]"},
      {"stac:time_middle", "timestamp[us]"},
  };
  ASSERT_EQ(schema.size(), expected.size());
  for (size_t i = 0; i < schema.size(); ++i) {
    EXPECT_EQ(schema[i].name, expected[i].first);
    EXPECT_EQ(schema[i].type.ToString(), expected[i].second) << schema[i].name;
    EXPECT_TRUE(schema[i].value.is_null());
    EXPECT_FALSE(schema[i].description.empty());
  }
}

TEST(StacTest, GeographicRaster) {
  TempDir tmp;
  const std::string path = tmp / "geo.tif";
  testing::WriteRaster(path, Geographic());
  auto r = Stac(path, int64_t{1000}, int64_t{3001});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const std::vector<Field>& f = *r;
  ASSERT_EQ(f.size(), 7u);
  for (size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i].type, StacSchema()[i].type) << f[i].name;
  EXPECT_EQ(FindField(f, "stac:crs")->value, Value("EPSG:4326"));
  EXPECT_EQ(FindField(f, "stac:tensor_shape")->value,
            Value(ValueList{Value(int64_t{3}), Value(int64_t{8}), Value(int64_t{20})}));
  EXPECT_EQ(testing::Doubles(FindField(f, "stac:geotransform")->value),
            (std::vector<double>{-10, 0.5, 0, 50, 0, -0.25}));
  // Centre: x = -10 + 20/2 * 0.5 = -5, y = 50 + 8/2 * -0.25 = 49; lon/lat order.
  const auto [lon, lat] = PointOf(FindField(f, "stac:centroid")->value);
  EXPECT_NEAR(lon, -5.0, 1e-6);
  EXPECT_NEAR(lat, 49.0, 1e-6);
  EXPECT_EQ(FindField(f, "stac:time_start")->value, Value(TimestampUs{1000}));
  EXPECT_EQ(FindField(f, "stac:time_end")->value, Value(TimestampUs{3001}));
  EXPECT_EQ(FindField(f, "stac:time_middle")->value, Value(TimestampUs{2000}));
}

TEST(StacTest, TimesOptionalAndMiddleFloors) {
  TempDir tmp;
  const std::string path = tmp / "geo.tif";
  testing::WriteRaster(path, Geographic());
  auto none = Stac(path, std::nullopt, std::nullopt);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(FindField(*none, "stac:time_start")->value.is_null());
  EXPECT_TRUE(FindField(*none, "stac:time_end")->value.is_null());
  EXPECT_TRUE(FindField(*none, "stac:time_middle")->value.is_null());

  auto only_start = Stac(path, int64_t{5}, std::nullopt);
  ASSERT_TRUE(only_start.ok());
  EXPECT_EQ(FindField(*only_start, "stac:time_start")->value, Value(TimestampUs{5}));
  EXPECT_TRUE(FindField(*only_start, "stac:time_middle")->value.is_null());

  auto negative = Stac(path, int64_t{-3}, int64_t{0});  // (-3 + 0) // 2 = -2
  ASSERT_TRUE(negative.ok());
  EXPECT_EQ(FindField(*negative, "stac:time_middle")->value, Value(TimestampUs{-2}));

  const int64_t big = int64_t{1} << 62;
  auto large = Stac(path, big, big + 10);
  ASSERT_TRUE(large.ok());
  EXPECT_EQ(FindField(*large, "stac:time_middle")->value, Value(TimestampUs{big + 5}));

  auto reversed = Stac(path, int64_t{10}, int64_t{9});
  ASSERT_FALSE(reversed.ok());
  EXPECT_EQ(reversed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(reversed.status().message().find(path), std::string::npos);
}

TEST(StacTest, UtmRasterCentroidMatchesOgr) {
  TempDir tmp;
  const std::string path = tmp / "utm.tif";
  testing::WriteRaster(path, Utm30());
  auto r = Stac(path, std::nullopt, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(FindField(*r, "stac:crs")->value, Value("EPSG:32630"));
  const auto expected = UtmToLonLat(32630, 440000 + 15 * 10, 4480000 - 5 * 20);
  const auto [lon, lat] = PointOf(FindField(*r, "stac:centroid")->value);
  EXPECT_NEAR(lon, expected.first, 1e-9);
  EXPECT_NEAR(lat, expected.second, 1e-9);
  // Sanity: UTM 30N around 440 km easting is west of the -3 degree central meridian, in Spain.
  EXPECT_LT(lon, -3.0);
  EXPECT_GT(lon, -5.0);
  EXPECT_GT(lat, 40.0);
  EXPECT_LT(lat, 41.0);
}

TEST(StacTest, CustomCrsIsWrittenAsWkt) {
  TempDir tmp;
  const std::string path = tmp / "custom.tif";
  RasterSpec spec = Utm30();
  // A transverse Mercator that no authority defines (central meridian 7.123°).
  OGRSpatialReference custom;
  ASSERT_EQ(custom.SetWellKnownGeogCS("WGS84"), OGRERR_NONE);
  ASSERT_EQ(custom.SetTM(0, 7.123, 0.9996, 500000, 0), OGRERR_NONE);
  char* wkt = nullptr;
  ASSERT_EQ(custom.exportToWkt(&wkt), OGRERR_NONE);
  spec.wkt = wkt;
  CPLFree(wkt);
  spec.geotransform = {500000, 10, 0, 4000000, 0, -10};
  testing::WriteRaster(path, spec);
  auto r = Stac(path, std::nullopt, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Value& crs = FindField(*r, "stac:crs")->value;
  ASSERT_TRUE(crs.is<std::string>());
  EXPECT_EQ(crs.get<std::string>().rfind("PROJCRS[", 0), 0u) << crs.get<std::string>();
  // Centre (501500, 3999950) in a TM on 7.123°E: just east of that meridian.
  const auto [lon, lat] = PointOf(FindField(*r, "stac:centroid")->value);
  EXPECT_GT(lon, 7.123);
  EXPECT_LT(lon, 7.15);
  EXPECT_NEAR(lat, 36.13, 0.05);
}

TEST(StacTest, RasterWithoutCrsHasNullCrsAndCentroid) {
  TempDir tmp;
  const std::string path = tmp / "plain.tif";
  RasterSpec spec = Geographic();
  spec.epsg = 0;
  spec.geotransform.clear();
  testing::WriteRaster(path, spec);
  auto r = Stac(path, std::nullopt, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(FindField(*r, "stac:crs")->value.is_null());
  EXPECT_TRUE(FindField(*r, "stac:centroid")->value.is_null());
  EXPECT_TRUE(FindField(*r, "stac:geotransform")->value.is_null());
  EXPECT_FALSE(FindField(*r, "stac:tensor_shape")->value.is_null());
}

TEST(StacTest, NotARasterIsAnErrorNamingThePath) {
  TempDir tmp;
  const std::string path = tmp / "notes.txt";
  testing::WriteFile(path, "hello, not a raster\n");
  auto r = Stac(path, std::nullopt, std::nullopt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message().rfind(path + ": ", 0), 0u) << r.status().message();
}

TEST(IstacTest, FootprintInSourceCrsAndCentroid) {
  TempDir tmp;
  const std::string path = tmp / "utm.tif";
  testing::WriteRaster(path, Utm30());
  auto r = Istac(path, int64_t{0}, int64_t{10});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const std::vector<Field>& f = *r;
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"istac:crs", "string"},
      {"istac:geometry", "binary"},
      {"istac:time_start", "timestamp[us]"},
      {"istac:time_end", "timestamp[us]"},
      {"istac:time_middle", "timestamp[us]"},
      {"istac:centroid", "binary"},
  };
  ASSERT_EQ(f.size(), expected.size());
  for (size_t i = 0; i < f.size(); ++i) {
    EXPECT_EQ(f[i].name, expected[i].first);
    EXPECT_EQ(f[i].type.ToString(), expected[i].second);
  }
  EXPECT_EQ(f[0].value, Value("EPSG:32630"));
  const auto ring = ParseWkbPolygon(f[1].value);
  ASSERT_EQ(ring.size(), 5u);
  EXPECT_EQ(ring.front(), ring.back());
  // Corners: x 440000..440300, y 4479800..4480000.
  std::vector<std::pair<double, double>> corners(ring.begin(), ring.end() - 1);
  std::sort(corners.begin(), corners.end());
  const std::vector<std::pair<double, double>> want = {
      {440000, 4479800}, {440000, 4480000}, {440300, 4479800}, {440300, 4480000}};
  EXPECT_EQ(corners, want);
  // Counter-clockwise: positive shoelace area.
  double area2 = 0;
  for (size_t i = 0; i + 1 < ring.size(); ++i) {
    area2 += ring[i].first * ring[i + 1].second - ring[i + 1].first * ring[i].second;
  }
  EXPECT_NEAR(area2 / 2, 300.0 * 200.0, 1e-3);
  EXPECT_EQ(f[4].value, Value(TimestampUs{5}));
  const auto centre = UtmToLonLat(32630, 440150, 4479900);
  const auto [lon, lat] = PointOf(f[5].value);
  EXPECT_NEAR(lon, centre.first, 1e-9);
  EXPECT_NEAR(lat, centre.second, 1e-9);
}

TEST(RegistryTest, ComputesKnownNames) {
  TempDir tmp;
  const std::string path = tmp / "geo.tif";
  testing::WriteRaster(path, Geographic());
  for (const std::string& name : KnownExtensionNames()) {
    auto r = ComputeByName(name, path);
    ASSERT_TRUE(r.ok()) << name << ": " << r.status().ToString();
    EXPECT_FALSE(r->empty());
  }
  auto stac = ComputeByName("stac", path);
  EXPECT_EQ(FindField(*stac, "stac:crs")->value, Value("EPSG:4326"));
  auto stats = ComputeByName("stats", path);
  ASSERT_EQ(stats->size(), 1u);
  EXPECT_EQ(stats->at(0).value.get<ValueList>().size(), 3u);
}

TEST(RegistryTest, CategoricalClassesAreTheSameForEveryFile) {
  TempDir tmp;
  RasterSpec spec = Geographic();
  spec.type = GDT_Byte;
  spec.cols = 4;
  spec.rows = 4;
  spec.bands = {std::vector<double>(16, 1.0)};
  for (size_t i = 0; i < 4; ++i) spec.bands[0][i] = 2.0;  // 4 of 16 pixels are class 2
  const std::string path = tmp / "labels.tif";
  testing::WriteRaster(path, spec);
  ExtensionSettings settings;
  settings.categorical_classes = {0, 1, 2, 7};
  auto fixed = ComputeByName("stats-categorical", path, settings);
  ASSERT_TRUE(fixed.ok()) << fixed.status().ToString();
  const ValueList& bands = fixed->at(0).value.get<ValueList>();
  ASSERT_EQ(bands.size(), 1u);
  const ValueList& p = bands[0].get<ValueList>();
  ASSERT_EQ(p.size(), 4u);
  EXPECT_FLOAT_EQ(p[0].get<float>(), 0.0f);
  EXPECT_FLOAT_EQ(p[1].get<float>(), 0.75f);
  EXPECT_FLOAT_EQ(p[2].get<float>(), 0.25f);
  EXPECT_FLOAT_EQ(p[3].get<float>(), 0.0f);
  // Without classes: this file's own values (1 and 2).
  auto own = ComputeByName("stats-categorical", path);
  ASSERT_TRUE(own.ok()) << own.status().ToString();
  EXPECT_EQ(own->at(0).value.get<ValueList>()[0].get<ValueList>().size(), 2u);
}

TEST(RegistryTest, NonRastersGetSchemaNulls) {
  TempDir tmp;
  const std::string text = tmp / "labels.csv";
  testing::WriteFile(text, "a,b\n1,2\n");
  std::filesystem::create_directories(tmp / "folder");
  for (const std::string& path : {text, tmp / "folder"}) {
    for (const std::string& name : KnownExtensionNames()) {
      auto r = ComputeByName(name, path);
      ASSERT_TRUE(r.ok()) << name << " " << path << ": " << r.status().ToString();
      ASSERT_FALSE(r->empty());
      for (const Field& f : *r) EXPECT_TRUE(f.value.is_null()) << name << " " << f.name;
    }
  }
  auto stac = ComputeByName("stac", text);
  ASSERT_EQ(stac->size(), StacSchema().size());
  for (size_t i = 0; i < stac->size(); ++i) EXPECT_EQ((*stac)[i].type, StacSchema()[i].type);
}

TEST(RegistryTest, UnknownNameListsKnownOnes) {
  auto r = ComputeByName("stak", "/nonexistent.tif");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("stak"), std::string::npos);
  EXPECT_NE(r.status().message().find("stac, istac, stats, stats-categorical"), std::string::npos);
}

}  // namespace
}  // namespace taco::ext
