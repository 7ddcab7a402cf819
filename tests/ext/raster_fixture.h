// Test helpers for tests/ext: write small GeoTIFFs with known pixels and georeferencing,
// and decode the WKB that the extensions produce.
#ifndef TACO_TESTS_EXT_RASTER_FIXTURE_H_
#define TACO_TESTS_EXT_RASTER_FIXTURE_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include <gtest/gtest.h>

#include "taco/value.h"

namespace taco::testing {

struct RasterSpec {
  int cols = 4;
  int rows = 4;
  GDALDataType type = GDT_Float32;
  int epsg = 4326;                                         // 0: no CRS (unless wkt is set)
  std::string wkt;                                         // used instead of epsg when not empty
  std::vector<double> geotransform = {0, 1, 0, 0, 0, -1};  // empty: none
  std::optional<double> nodata;
  std::vector<std::vector<double>> bands;  // row-major pixels per band
};

inline void WriteRaster(const std::string& path, const RasterSpec& spec) {
  GDALAllRegister();
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("GTiff");
  ASSERT_NE(driver, nullptr);
  GDALDataset* ds =
      driver->Create(path.c_str(), spec.cols, spec.rows, static_cast<int>(spec.bands.size()), spec.type, nullptr);
  ASSERT_NE(ds, nullptr) << path;
  if (!spec.geotransform.empty()) {
    std::vector<double> gt = spec.geotransform;
    ASSERT_EQ(ds->SetGeoTransform(gt.data()), CE_None);
  }
  if (!spec.wkt.empty()) {
    OGRSpatialReference srs;
    ASSERT_EQ(srs.importFromWkt(spec.wkt.c_str()), OGRERR_NONE);
    ASSERT_EQ(ds->SetSpatialRef(&srs), CE_None);
  } else if (spec.epsg != 0) {
    OGRSpatialReference srs;
    ASSERT_EQ(srs.importFromEPSG(spec.epsg), OGRERR_NONE);
    ASSERT_EQ(ds->SetSpatialRef(&srs), CE_None);
  }
  for (size_t b = 0; b < spec.bands.size(); ++b) {
    GDALRasterBand* band = ds->GetRasterBand(static_cast<int>(b) + 1);
    if (spec.nodata) band->SetNoDataValue(*spec.nodata);
    std::vector<double> px = spec.bands[b];
    ASSERT_EQ(px.size(), static_cast<size_t>(spec.cols * spec.rows));
    ASSERT_EQ(band->RasterIO(GF_Write, 0, 0, spec.cols, spec.rows, px.data(), spec.cols, spec.rows, GDT_Float64, 0, 0,
                             nullptr),
              CE_None);
  }
  GDALClose(GDALDataset::ToHandle(ds));
}

inline uint32_t LeU32(const std::string& b, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + static_cast<size_t>(i)]);
  return v;
}
inline double LeF64(const std::string& b, size_t at) {
  uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) bits = (bits << 8) | static_cast<uint8_t>(b[at + static_cast<size_t>(i)]);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// (x, y) of a little-endian WKB point; fails the test on anything else.
inline std::pair<double, double> PointOf(const Value& v) {
  EXPECT_TRUE(v.is<Binary>());
  if (!v.is<Binary>()) return {0, 0};
  const std::string& b = v.get<Binary>().bytes;
  EXPECT_EQ(b.size(), 21u);
  if (b.size() != 21) return {0, 0};
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(LeU32(b, 1), 1u);
  return {LeF64(b, 5), LeF64(b, 13)};
}

// The exterior ring of a little-endian single-ring WKB polygon.
inline std::vector<std::pair<double, double>> ParseWkbPolygon(const Value& v) {
  std::vector<std::pair<double, double>> ring;
  EXPECT_TRUE(v.is<Binary>());
  if (!v.is<Binary>()) return ring;
  const std::string& b = v.get<Binary>().bytes;
  EXPECT_GE(b.size(), 13u);
  if (b.size() < 13) return ring;
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(LeU32(b, 1), 3u);
  EXPECT_EQ(LeU32(b, 5), 1u);
  const uint32_t n = LeU32(b, 9);
  EXPECT_EQ(b.size(), 13u + 16u * n);
  if (b.size() != 13u + 16u * n) return ring;
  for (uint32_t i = 0; i < n; ++i) ring.emplace_back(LeF64(b, 13 + 16 * i), LeF64(b, 21 + 16 * i));
  return ring;
}

inline const Field* FindField(const std::vector<Field>& fields, const std::string& name) {
  for (const Field& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

inline std::vector<double> Doubles(const Value& v) {
  std::vector<double> out;
  for (const Value& item : v.get<ValueList>()) {
    if (item.is<double>())
      out.push_back(item.get<double>());
    else if (item.is<float>())
      out.push_back(item.get<float>());
    else if (item.is<int64_t>())
      out.push_back(static_cast<double>(item.get<int64_t>()));
    else if (item.is<int32_t>())
      out.push_back(item.get<int32_t>());
    else
      ADD_FAILURE() << "not a number: " << item.ToString();
  }
  return out;
}

}  // namespace taco::testing

#endif  // TACO_TESTS_EXT_RASTER_FIXTURE_H_
