// ComputeExtent: plain, across longitude 0, across the antimeridian, time formatting, and
// which columns are used.
#include <gtest/gtest.h>

#include "model/metadata.h"
#include "model_test_util.h"

namespace taco {
namespace {

using nlohmann::ordered_json;

struct Point {
  double lon, lat;
  int64_t micros;
};

Table ExtentTable(const std::string& prefix, const std::vector<Point>& points) {
  Column centroid{prefix + ":centroid", DataType::Binary(), {}};
  Column start{prefix + ":time_start", DataType::TimestampUs(), {}};
  for (const Point& p : points) {
    centroid.values.push_back(testing::WkbPointBytes(p.lon, p.lat));
    start.values.push_back(TimestampUs{p.micros});
  }
  Table t;
  t.columns = {Column{"id", DataType::String(), std::vector<Value>(points.size(), Value("x"))}, centroid, start};
  return t;
}

constexpr int64_t kJan2023 = 1672531200LL * 1000000;  // 2023-01-01T00:00:00

TEST(ExtentTest, Plain) {
  Result<ordered_json> e = model::ComputeExtent({ExtentTable(
      "istac", {{-77.0, -12.0, kJan2023}, {139.7, 48.85, kJan2023 + 86400000000LL * 120}, {10, 0, kJan2023 + 1}})});
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ((*e)["spatial"], ordered_json::array({-77.0, -12.0, 139.7, 48.85}));
  EXPECT_EQ((*e)["temporal"], ordered_json::array({"2023-01-01T00:00:00Z", "2023-05-01T00:00:00Z"}));
}

TEST(ExtentTest, StraddlesLongitudeZero) {
  Result<ordered_json> e = model::ComputeExtent({ExtentTable("stac", {{-3, 40, 0}, {5, 44, 0}, {1, 42, 0}})});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)["spatial"], ordered_json::array({-3.0, 40.0, 5.0, 44.0}));
}

TEST(ExtentTest, StraddlesAntimeridian) {
  Result<ordered_json> e = model::ComputeExtent({ExtentTable("stac", {{170, -20, 0}, {-170, -10, 0}, {179, -15, 0}})});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)["spatial"], ordered_json::array({170.0, -20.0, -170.0, -10.0}));
  // Wide but with the biggest gap across the antimeridian: a plain interval.
  Result<ordered_json> wide = model::ComputeExtent({ExtentTable("stac", {{-100, 0, 0}, {100, 0, 0}, {0, 0, 0}})});
  ASSERT_TRUE(wide.ok());
  EXPECT_EQ((*wide)["spatial"], ordered_json::array({-100.0, 0.0, 100.0, 0.0}));
  // -170, 0, 170: the interval 0 -> 180 -> -170 (190 degrees) beats [-170, 170] (340).
  Result<ordered_json> three = model::ComputeExtent({ExtentTable("stac", {{-170, 0, 0}, {170, 0, 0}, {0, 0, 0}})});
  ASSERT_TRUE(three.ok());
  EXPECT_EQ((*three)["spatial"], ordered_json::array({0.0, 0.0, -170.0, 0.0}));
  // One point: a point extent.
  Result<ordered_json> one = model::ComputeExtent({ExtentTable("stac", {{12.5, 41.9, 0}})});
  EXPECT_EQ((*one)["spatial"], ordered_json::array({12.5, 41.9, 12.5, 41.9}));
}

TEST(ExtentTest, TemporalFormattingAndColumnChoice) {
  Table t = ExtentTable("stac", {{0, 0, kJan2023 + 123456}, {1, 1, kJan2023 - 1000000}});
  // time_middle wins over time_start when it has values.
  t.columns.push_back(Column{"stac:time_middle", DataType::TimestampUs(), {Value(), TimestampUs{kJan2023 + 5}}});
  Result<ordered_json> e = model::ComputeExtent({t});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)["temporal"], ordered_json::array({"2023-01-01T00:00:00.000005Z", "2023-01-01T00:00:00.000005Z"}));
  t.columns.pop_back();
  e = model::ComputeExtent({t});
  EXPECT_EQ((*e)["temporal"], ordered_json::array({"2022-12-31T23:59:59Z", "2023-01-01T00:00:00.123456Z"}));
  // An all-null time_middle is skipped.
  t.columns.push_back(Column{"stac:time_middle", DataType::TimestampUs(), {Value(), Value()}});
  e = model::ComputeExtent({t});
  EXPECT_EQ((*e)["temporal"][0], "2022-12-31T23:59:59Z");
}

TEST(ExtentTest, StacWinsAndLevelsAreWalked) {
  Table both = ExtentTable("istac", {{50, 50, 0}});
  Table stac = ExtentTable("stac", {{-5, -5, 0}});
  for (Column& c : stac.columns) {
    if (c.name != "id") both.columns.push_back(c);
  }
  Result<ordered_json> e = model::ComputeExtent({both});
  EXPECT_EQ((*e)["spatial"], ordered_json::array({-5.0, -5.0, -5.0, -5.0}));

  Table none;
  none.columns.push_back(Column{"id", DataType::String(), {Value("a")}});
  Result<ordered_json> deeper = model::ComputeExtent({none, ExtentTable("istac", {{7, 8, 0}})});
  EXPECT_EQ((*deeper)["spatial"], ordered_json::array({7.0, 8.0, 7.0, 8.0}));

  Result<ordered_json> global = model::ComputeExtent({none});
  EXPECT_EQ((*global)["spatial"], ordered_json::array({-180.0, -90.0, 180.0, 90.0}));
  EXPECT_TRUE((*global)["temporal"].is_null());
}

TEST(ExtentTest, NullsAndErrors) {
  Table t = ExtentTable("stac", {{1, 2, 0}});
  t.columns[1].values.push_back(Value());
  t.columns[2].values.push_back(Value());
  t.columns[0].values.push_back(Value("y"));
  Result<ordered_json> e = model::ComputeExtent({t});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)["spatial"], ordered_json::array({1.0, 2.0, 1.0, 2.0}));

  t.columns[1].values[1] = Binary{"\x01\x02"};
  e = model::ComputeExtent({t});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), StatusCode::kCorruption);
  EXPECT_EQ(e.status().message(), "level0: column 'stac:centroid' row 1: WKB: truncated at byte 1");

  Table wrong = ExtentTable("stac", {{1, 2, 0}});
  wrong.columns[1].type = DataType::String();
  e = model::ComputeExtent({wrong});
  EXPECT_EQ(e.status().message(), "level0: column 'stac:centroid' has type string, expected binary (WKB points)");
}

TEST(ExtentTest, MergeBoxesOnTheCircle) {
  using Box = std::array<double, 4>;
  // The case: the Pacific box survives.
  EXPECT_EQ(model::MergeBoxes({Box{170, -20, -170, -10}, Box{10, 40, 20, 50}}), (Box{10, -20, -170, 50}));
  // Plain boxes: as min/max.
  EXPECT_EQ(model::MergeBoxes({Box{-10, 0, 10, 5}, Box{20, -5, 30, 1}}), (Box{-10, -5, 30, 5}));
  // Two crossing boxes and one overlapping both.
  EXPECT_EQ(model::MergeBoxes({Box{170, 0, -175, 1}, Box{175, 0, -170, 1}}), (Box{170, 0, -170, 1}));
  // Covering the circle (or a global input) gives the whole circle.
  EXPECT_EQ(model::MergeBoxes({Box{-180, -90, 180, 90}, Box{10, 0, 20, 1}}), (Box{-180, -90, 180, 90}));
  EXPECT_EQ(model::MergeBoxes({Box{0, 0, 179, 1}, Box{179, 0, 0, 1}}), (Box{-180, 0, 180, 1}));
  EXPECT_EQ(model::MergeBoxes({}), (Box{-180, -90, 180, 90}));
  // Points are degenerate arcs: the same answer as ComputeExtent.
  EXPECT_EQ(model::CoverLongitudes({{175, 175}, {-175, -175}, {15, 15}}), (std::array<double, 2>{15, -175}));
}

}  // namespace
}  // namespace taco
