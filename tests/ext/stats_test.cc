// geotiff:stats (continuous and categorical), Scaling and Split.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <gtest/gtest.h>

#include "ext/raster_fixture.h"
#include "support/paths.h"
#include "taco/extensions.h"

namespace taco::ext {
namespace {

using testing::RasterSpec;
using testing::TempDir;

// The per-band inner lists of a geotiff:stats value.
std::vector<std::vector<double>> Bands(const std::vector<Field>& fields) {
  EXPECT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].name, "geotiff:stats");
  EXPECT_EQ(fields[0].type.ToString(), "list<item: list<item: float>>");
  std::vector<std::vector<double>> out;
  for (const Value& band : fields[0].value.get<ValueList>()) {
    for (const Value& v : band.get<ValueList>()) EXPECT_TRUE(v.is<float>());
    out.push_back(testing::Doubles(band));
  }
  return out;
}

double NearestRankPercentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const size_t k = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::max<size_t>(k, 1) - 1];
}

TEST(GeotiffStatsTest, ContinuousWithNoData) {
  TempDir tmp;
  const std::string path = tmp / "c.tif";
  RasterSpec spec;
  spec.cols = 10;
  spec.rows = 12;
  spec.nodata = -9999;
  std::vector<double> px(120), valid;
  for (size_t i = 0; i < px.size(); ++i) {
    if (i % 6 == 5) {
      px[i] = -9999;  // 20 of 120 are NoData
    } else {
      px[i] = std::fmod(static_cast<double>(i) * 37.0, 101.0) * 1.5 - 20.0;
      valid.push_back(px[i]);
    }
  }
  spec.bands = {px, std::vector<double>(120, 7.0)};
  testing::WriteRaster(path, spec);

  auto r = GeotiffStats(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto bands = Bands(*r);
  ASSERT_EQ(bands.size(), 2u);
  ASSERT_EQ(bands[0].size(), 9u);

  const double n = static_cast<double>(valid.size());
  const double mn = *std::min_element(valid.begin(), valid.end());
  const double mx = *std::max_element(valid.begin(), valid.end());
  const double mean = std::accumulate(valid.begin(), valid.end(), 0.0) / n;
  double ss = 0;
  for (double v : valid) ss += (v - mean) * (v - mean);
  const double sd = std::sqrt(ss / n);
  EXPECT_FLOAT_EQ(bands[0][0], static_cast<float>(mn));
  EXPECT_FLOAT_EQ(bands[0][1], static_cast<float>(mx));
  EXPECT_FLOAT_EQ(bands[0][2], static_cast<float>(mean));
  EXPECT_FLOAT_EQ(bands[0][3], static_cast<float>(sd));
  EXPECT_FLOAT_EQ(bands[0][4], 100.0f * 100.0f / 120.0f);
  // Percentiles come from 100 buckets over [min, max]: within one bucket of the exact value.
  const double width = (mx - mn) / 100.0;
  const double ps[] = {25, 50, 75, 95};
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(bands[0][5 + static_cast<size_t>(k)], NearestRankPercentile(valid, ps[k]), width * 1.0001)
        << "p" << ps[k];
  }
  EXPECT_LE(bands[0][5], bands[0][6]);
  EXPECT_LE(bands[0][6], bands[0][7]);
  EXPECT_LE(bands[0][7], bands[0][8]);
  // A uniform band: every statistic is the value, std 0, all valid.
  EXPECT_EQ(bands[1], (std::vector<double>{7, 7, 7, 0, 100, 7, 7, 7, 7}));
}

TEST(GeotiffStatsTest, PercentileBucketCentres) {
  // Values 0..99: bucket i of width 0.99 holds exactly value i; p25 is reached in bucket 24.
  TempDir tmp;
  const std::string path = tmp / "ramp.tif";
  RasterSpec spec;
  spec.cols = 10;
  spec.rows = 10;
  std::vector<double> px(100);
  std::iota(px.begin(), px.end(), 0.0);
  spec.bands = {px};
  testing::WriteRaster(path, spec);
  auto r = GeotiffStats(path);
  ASSERT_TRUE(r.ok());
  const auto bands = Bands(*r);
  EXPECT_FLOAT_EQ(bands[0][5], static_cast<float>(24.5 * 0.99));
  EXPECT_FLOAT_EQ(bands[0][6], static_cast<float>(49.5 * 0.99));
  EXPECT_FLOAT_EQ(bands[0][7], static_cast<float>(74.5 * 0.99));
  EXPECT_FLOAT_EQ(bands[0][8], static_cast<float>(94.5 * 0.99));
}

TEST(GeotiffStatsTest, NaNIsNotValidAndScalingApplies) {
  TempDir tmp;
  const std::string path = tmp / "nan.tif";
  RasterSpec spec;
  spec.cols = 2;
  spec.rows = 2;
  spec.bands = {{2, std::numeric_limits<double>::quiet_NaN(), 4, 6}};
  testing::WriteRaster(path, spec);
  GeotiffStatsOptions options;
  options.scale_factor = 0.5;
  options.scale_offset = 10;
  auto r = GeotiffStats(path, options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto bands = Bands(*r);
  EXPECT_FLOAT_EQ(bands[0][0], 11.0f);  // 2 * 0.5 + 10
  EXPECT_FLOAT_EQ(bands[0][1], 13.0f);
  EXPECT_FLOAT_EQ(bands[0][2], 12.0f);
  EXPECT_FLOAT_EQ(bands[0][3], static_cast<float>(std::sqrt(8.0 / 3.0) * 0.5));
  EXPECT_FLOAT_EQ(bands[0][4], 75.0f);
}

TEST(GeotiffStatsTest, AllNoDataIsNull) {
  TempDir tmp;
  const std::string path = tmp / "empty.tif";
  RasterSpec spec;
  spec.nodata = 0;
  spec.bands = {std::vector<double>(16, 0.0)};
  testing::WriteRaster(path, spec);
  for (bool categorical : {false, true}) {
    GeotiffStatsOptions options;
    options.categorical = categorical;
    auto r = GeotiffStats(path, options);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->size(), 1u);
    EXPECT_TRUE((*r)[0].value.is_null());
    EXPECT_EQ((*r)[0].type.ToString(), "list<item: list<item: float>>");
  }
}

RasterSpec Classes() {
  // 10 zeros, 6 ones, 4 threes.
  RasterSpec spec;
  spec.cols = 5;
  spec.rows = 4;
  spec.type = GDT_Byte;
  std::vector<double> px;
  px.insert(px.end(), 10, 0);
  px.insert(px.end(), 6, 1);
  px.insert(px.end(), 4, 3);
  std::rotate(px.begin(), px.begin() + 7, px.end());
  spec.bands = {px, std::vector<double>(20, 3)};
  return spec;
}

TEST(GeotiffStatsTest, CategoricalDefaultClasses) {
  TempDir tmp;
  const std::string path = tmp / "cls.tif";
  testing::WriteRaster(path, Classes());
  GeotiffStatsOptions options;
  options.categorical = true;
  auto r = GeotiffStats(path, options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto bands = Bands(*r);
  ASSERT_EQ(bands.size(), 2u);
  // Classes are the distinct values over all bands: 0, 1, 3.
  EXPECT_FLOAT_EQ(bands[0][0], 0.5f);
  EXPECT_FLOAT_EQ(bands[0][1], 0.3f);
  EXPECT_FLOAT_EQ(bands[0][2], 0.2f);
  EXPECT_EQ(bands[1], (std::vector<double>{0, 0, 1}));
}

TEST(GeotiffStatsTest, CategoricalExplicitClassesAndNoData) {
  TempDir tmp;
  const std::string path = tmp / "cls.tif";
  RasterSpec spec = Classes();
  spec.nodata = 0;
  testing::WriteRaster(path, spec);
  GeotiffStatsOptions options;
  options.categorical = true;
  options.class_values = {3, 1, 2};
  auto r = GeotiffStats(path, options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto bands = Bands(*r);
  // The zeros are NoData: 6 ones and 4 threes remain.
  ASSERT_EQ(bands[0].size(), 3u);
  EXPECT_FLOAT_EQ(bands[0][0], 0.4f);
  EXPECT_FLOAT_EQ(bands[0][1], 0.6f);
  EXPECT_FLOAT_EQ(bands[0][2], 0.0f);

  options.class_values = {7};
  auto none = GeotiffStats(path, options);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);
}

TEST(GeotiffStatsTest, CategoricalRefusesTooManyDistinctValues) {
  TempDir tmp;
  const std::string path = tmp / "many.tif";
  RasterSpec spec;
  spec.cols = 30;
  spec.rows = 30;
  std::vector<double> px(900);
  std::iota(px.begin(), px.end(), 0.0);
  spec.bands = {px};
  testing::WriteRaster(path, spec);
  GeotiffStatsOptions options;
  options.categorical = true;
  auto r = GeotiffStats(path, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
}

TEST(ScalingTest, FieldsAndValidation) {
  auto r = Scaling(0.0001f, -0.1f, {1, 2, 3, 4});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].name, "scaling:scale_factor");
  EXPECT_EQ((*r)[0].type.ToString(), "float");
  EXPECT_EQ((*r)[0].value, Value(0.0001f));
  EXPECT_EQ((*r)[1].name, "scaling:scale_offset");
  EXPECT_EQ((*r)[1].value, Value(-0.1f));
  EXPECT_EQ((*r)[2].name, "scaling:padding");
  EXPECT_EQ((*r)[2].type.ToString(), "list<item: int32>");
  EXPECT_EQ((*r)[2].value,
            Value(ValueList{Value(int32_t{1}), Value(int32_t{2}), Value(int32_t{3}), Value(int32_t{4})}));
  EXPECT_EQ(Scaling(0.0f, 0.0f).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Scaling(std::numeric_limits<float>::infinity(), 0.0f).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Scaling(1.0f, 0.0f, {0, -1, 0, 0}).status().code(), StatusCode::kInvalidArgument);
  for (const Field& f : ScalingSchema()) EXPECT_TRUE(f.value.is_null());
}

TEST(SplitTest, OnlyTrainTestValidation) {
  for (const char* s : {"train", "test", "validation"}) {
    auto r = Split(s);
    ASSERT_TRUE(r.ok()) << s;
    ASSERT_EQ(r->size(), 1u);
    EXPECT_EQ((*r)[0].name, "split");
    EXPECT_EQ((*r)[0].type.ToString(), "string");
    EXPECT_EQ((*r)[0].value, Value(s));
  }
  for (const char* s : {"val", "Train", "", "training"}) {
    auto r = Split(s);
    ASSERT_FALSE(r.ok()) << s;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace taco::ext
