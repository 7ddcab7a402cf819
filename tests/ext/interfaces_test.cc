// SampleExtension / TortillaExtension / TacoExtension and the built-in classes.
#include <gtest/gtest.h>

#include "ext/raster_fixture.h"
#include "support/paths.h"
#include "taco/extensions.h"
#include "taco/model.h"

namespace taco::ext {
namespace {

using testing::FindField;
using testing::ParseWkbPolygon;
using testing::PointOf;
using testing::RasterSpec;
using testing::TempDir;

// A 4x4 EPSG:4326 raster of 0.1° pixels centred on (lon, lat).
std::string GeoRaster(const TempDir& tmp, const std::string& name, double lon, double lat, double value = 1) {
  RasterSpec spec;
  spec.geotransform = {lon - 0.2, 0.1, 0, lat + 0.2, 0, -0.1};
  spec.bands = {std::vector<double>(16, value)};
  const std::string path = tmp / name;
  testing::WriteRaster(path, spec);
  return path;
}

Sample FileSample(const std::string& id, const std::string& path) {
  auto s = Sample::FromFile(id, path);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return *s;
}

TEST(SampleExtensionTest, StacOnFileAndOnBytesAgree) {
  TempDir tmp;
  const std::string path = GeoRaster(tmp, "a.tif", 12.5, -7.25);
  auto from_file = ExtendWith(FileSample("a", path), StacExtension(int64_t{0}, int64_t{100}));
  ASSERT_TRUE(from_file.ok()) << from_file.status().ToString();
  auto bytes = Sample::FromBytes("b", testing::ReadFile(path));
  ASSERT_TRUE(bytes.ok());
  auto from_bytes = ExtendWith(*bytes, StacExtension());
  ASSERT_TRUE(from_bytes.ok()) << from_bytes.status().ToString();

  const auto& f = from_file->extensions();
  ASSERT_EQ(f.size(), 7u);
  EXPECT_EQ(f[0].name, "stac:crs");
  EXPECT_FALSE(f[0].description.empty());
  const auto [lon, lat] = PointOf(FindField(f, "stac:centroid")->value);
  EXPECT_NEAR(lon, 12.5, 1e-9);
  EXPECT_NEAR(lat, -7.25, 1e-9);
  EXPECT_EQ(FindField(f, "stac:time_middle")->value, Value(TimestampUs{50}));
  EXPECT_EQ(FindField(from_bytes->extensions(), "stac:centroid")->value, FindField(f, "stac:centroid")->value);
  EXPECT_EQ(FindField(from_bytes->extensions(), "stac:crs")->value, Value("EPSG:4326"));
}

TEST(SampleExtensionTest, FolderIsComputedFromItsChildrenGarbageIsAnErrorUnlessSchemaOnly) {
  TempDir tmp;
  IstacExtension istac;
  // A FOLDER gets ISTAC from its (extended) children: their lon/lat box, its centre.
  auto child = ExtendWith(FileSample("x", GeoRaster(tmp, "x.tif", 0, 0)), istac);
  ASSERT_TRUE(child.ok()) << child.status().ToString();
  auto children = Tortilla::Make({*child});
  ASSERT_TRUE(children.ok());
  auto folder = Sample::FromTortilla("dir", *children);
  ASSERT_TRUE(folder.ok());
  auto r = istac.Run(*folder);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(FindField(*r, "istac:crs")->value.get<std::string>(), "EPSG:4326");
  const auto c = PointOf(FindField(*r, "istac:centroid")->value);
  const auto expected = PointOf(FindField(child->extensions(), "istac:centroid")->value);
  EXPECT_NEAR(c.first, expected.first, 1e-9);
  EXPECT_NEAR(c.second, expected.second, 1e-9);
  EXPECT_EQ(ParseWkbPolygon(FindField(*r, "istac:geometry")->value).size(), 5u);
  // Children without ISTAC/STAC columns: nulls (nothing to aggregate), not an error.
  auto bare = Sample::FromTortilla("bare", *Tortilla::Make({FileSample("y", GeoRaster(tmp, "y.tif", 0, 0))}));
  ASSERT_TRUE(bare.ok());
  r = istac.Run(*bare);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(FindField(*r, "istac:geometry")->value.is_null());

  auto garbage = Sample::FromBytes("g", "definitely not a tiff");
  ASSERT_TRUE(garbage.ok());
  EXPECT_FALSE(istac.Run(*garbage).ok());
  istac.set_schema_only(true);
  auto nulls = istac.Run(*garbage);
  ASSERT_TRUE(nulls.ok());
  ASSERT_EQ(nulls->size(), 6u);
  for (const Field& f : *nulls) {
    EXPECT_TRUE(f.value.is_null()) << f.name;
    EXPECT_FALSE(f.description.empty()) << f.name;
  }
  EXPECT_EQ(istac.SchemaOnly().size(), istac.Schema().size());
}

TEST(SampleExtensionTest, GeotiffStatsUsesTheSampleScaling) {
  TempDir tmp;
  const std::string path = GeoRaster(tmp, "s.tif", 0, 0, 100);
  auto scaled = ExtendWith(FileSample("s", path), ScalingExtension(0.01f, 1.0f));
  ASSERT_TRUE(scaled.ok()) << scaled.status().ToString();
  auto stats = ExtendWith(*scaled, GeotiffStatsExtension());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  const Value& v = FindField(stats->extensions(), "geotiff:stats")->value;
  const auto band = testing::Doubles(v.get<ValueList>().at(0));
  EXPECT_NEAR(band[0], 2.0, 1e-6);  // 100 * 0.01 + 1
  EXPECT_NEAR(band[2], 2.0, 1e-6);
  EXPECT_NEAR(band[4], 100.0, 1e-6);
}

TEST(SampleExtensionTest, SplitAndDuplicateKeys) {
  TempDir tmp;
  auto s = ExtendWith(FileSample("s", GeoRaster(tmp, "s.tif", 0, 0)), SplitExtension("train"));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(FindField(s->extensions(), "split")->value, Value("train"));
  EXPECT_FALSE(ExtendWith(*s, SplitExtension("test")).ok());  // key already present
  EXPECT_EQ(ExtendWith(FileSample("t", GeoRaster(tmp, "t.tif", 0, 0)), SplitExtension("dev")).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(TortillaExtensionTest, MajorTomAndSpatialGroupsFromCentroids) {
  TempDir tmp;
  const std::vector<std::pair<double, double>> places = {{90, 45}, {-90, -45}, {-90, 45}, {90, -45}};
  std::vector<Sample> samples;
  for (size_t i = 0; i < places.size(); ++i) {
    std::string id = "s";
    id += std::to_string(i);
    auto s =
        ExtendWith(FileSample(id, GeoRaster(tmp, id + ".tif", places[i].first, places[i].second)), StacExtension());
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    samples.push_back(*s);
  }
  TortillaOptions options;
  options.pad_to = 3;  // 4 samples + 2 padding
  auto tortilla = Tortilla::Make(samples, options);
  ASSERT_TRUE(tortilla.ok()) << tortilla.status().ToString();
  ASSERT_EQ(tortilla->size(), 6u);

  auto with_tom = ExtendWith(*tortilla, MajorTomExtension(100));
  ASSERT_TRUE(with_tom.ok()) << with_tom.status().ToString();
  auto with_groups = ExtendWith(*with_tom, SpatialGroupingExtension(2));
  ASSERT_TRUE(with_groups.ok()) << with_groups.status().ToString();
  ASSERT_EQ(with_groups->size(), 6u);
  const std::vector<std::string> groups = {"sg0001", "sg0000", "sg0001", "sg0000"};
  for (size_t i = 0; i < 6; ++i) {
    const Sample& s = with_groups->samples()[i];
    const Field* tom = FindField(s.extensions(), "majortom:code");
    const Field* group = FindField(s.extensions(), "spatialgroup:code");
    ASSERT_NE(tom, nullptr);
    ASSERT_NE(group, nullptr);
    if (i >= places.size()) {
      EXPECT_TRUE(s.is_padding());
      EXPECT_TRUE(tom->value.is_null());
      EXPECT_TRUE(group->value.is_null());
      continue;
    }
    EXPECT_EQ(tom->value, Value(*MajorTomCode(places[i].first, places[i].second, 100)));
    EXPECT_EQ(group->value, Value(groups[i]));
    EXPECT_FALSE(tom->description.empty());
  }
  // The same column twice is refused.
  auto again = ExtendWith(*with_groups, MajorTomExtension(100));
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("majortom:code"), std::string::npos);
}

TEST(TortillaExtensionTest, NeedsCentroids) {
  TempDir tmp;
  auto tortilla = Tortilla::Make({FileSample("a", GeoRaster(tmp, "a.tif", 0, 0))});
  ASSERT_TRUE(tortilla.ok());
  auto r = ExtendWith(*tortilla, MajorTomExtension());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("stac:centroid"), std::string::npos);
}

TEST(TacoExtensionTest, AddsCollectionKeysOnce) {
  TempDir tmp;
  auto tortilla = Tortilla::Make({FileSample("a", GeoRaster(tmp, "a.tif", 0, 0))});
  ASSERT_TRUE(tortilla.ok());
  auto taco = Taco::Make(*tortilla, nlohmann::ordered_json::parse(R"({
    "id": "t", "dataset_version": "1.0.0", "description": "d", "licenses": ["CC-BY-4.0"],
    "providers": [{"name": "P", "organization": null, "email": null, "role": null}],
    "tasks": ["classification"]})"));
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  auto labels = Labels({{"water", "", ""}, {"land", "", ""}});
  ASSERT_TRUE(labels.ok());
  const JsonTacoExtension ext("labels", *labels);
  auto extended = ExtendWith(*taco, ext);
  ASSERT_TRUE(extended.ok()) << extended.status().ToString();
  EXPECT_EQ(extended->collection()["labels:num_classes"], 2);
  EXPECT_EQ(extended->collection()["id"], "t");
  auto twice = ExtendWith(*extended, ext);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("labels:classes"), std::string::npos);
  auto optical = OpticalData("sentinel2msi[B04,B03,B02]");
  ASSERT_TRUE(optical.ok());
  auto with_optical = ExtendWith(*extended, JsonTacoExtension("optical", *optical));
  ASSERT_TRUE(with_optical.ok()) << with_optical.status().ToString();
  EXPECT_EQ(with_optical->collection()["optical:num_bands"], 3);
}

TEST(WkbTest, ParsesPointsInBothByteOrders) {
  auto le = ParseWkbPoint(std::string("\x01\x01\x00\x00\x00", 5) + std::string(8, '\0') + std::string(8, '\0'));
  ASSERT_TRUE(le.ok());
  EXPECT_EQ(*le, std::make_pair(0.0, 0.0));
  // Big-endian point (1.0, 2.0): 3FF0000000000000, 4000000000000000.
  std::string be("\x00\x00\x00\x00\x01", 5);
  be += std::string("\x3F\xF0\0\0\0\0\0\0", 8) + std::string("\x40\x00\0\0\0\0\0\0", 8);
  auto p = ParseWkbPoint(be);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(*p, std::make_pair(1.0, 2.0));
  EXPECT_FALSE(ParseWkbPoint("\x01\x03\x00\x00\x00").ok());
  EXPECT_FALSE(ParseWkbPoint("").ok());
}

}  // namespace
}  // namespace taco::ext
