// Helpers for the TACOCAT/TACOLLECTION tests: a nested Taco with STAC centroid/time columns,
// split into one part per root sample by our own create().
#ifndef TACO_TESTS_TACOCAT_TACOCAT_TEST_UTIL_H_
#define TACO_TESTS_TACOCAT_TACOCAT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "taco/model.h"
#include "taco/writer.h"

namespace taco::tacocattest {

// ISO little-endian WKB point (21 bytes).
inline std::string WkbPoint(double x, double y) {
  std::string out(21, '\0');
  out[0] = 1;
  out[1] = 1;
  std::memcpy(&out[5], &x, 8);
  std::memcpy(&out[13], &y, 8);
  return out;
}

struct Region {
  std::string id;
  double lon = 0, lat = 0;
  int64_t time_us = 0;  // stac:time_start
};

// Default regions: 2023-01-01, 2023-03-01, 2022-06-15, 2023-12-31 (UTC midnight).
inline std::vector<Region> DefaultRegions() {
  return {{"europe", 10.0, 47.5, 1672531200000000},
          {"americas", -70.0, -12.0, 1677628800000000},
          {"asia", 139.7, 35.6, 1655251200000000},
          {"africa", 20.0, -5.0, 1703980800000000}};
}

// The bytes of item j of a region (distinct per region/item, a few hundred bytes).
inline std::string ItemBytes(const std::string& region, int j) {
  std::string s;
  while (s.size() < 300) s += "data_" + region + "_" + std::to_string(j) + ";";
  return s;
}

// Regions as FOLDER samples with 3 FILE items each; `cloud_type` is the type of the
// level-0 "cloud_cover" column (Double or String) and `extra` adds a level-0 column.
inline Taco NestedTaco(const std::vector<Region>& regions, DataType cloud_type = DataType::Double(),
                       bool extra = false) {
  std::vector<Sample> roots;
  for (const Region& r : regions) {
    std::vector<Sample> items;
    for (int j = 0; j < 3; ++j) {
      Sample item = *Sample::FromBytes("item_" + std::to_string(j), ItemBytes(r.id, j));
      EXPECT_TRUE(item.Extend(Field{"band", DataType::Int64(), Value(static_cast<int64_t>(j)), ""}).ok());
      items.push_back(std::move(item));
    }
    Sample folder = *Sample::FromTortilla(r.id, *Tortilla::Make(std::move(items)));
    Value cloud = cloud_type.id == TypeId::kString ? Value(std::string("low")) : Value(12.5);
    EXPECT_TRUE(folder.Extend(Field{"cloud_cover", cloud_type, cloud, ""}).ok());
    EXPECT_TRUE(
        folder.Extend(Field{"stac:centroid", DataType::Binary(), Value(Binary{WkbPoint(r.lon, r.lat)}), ""}).ok());
    EXPECT_TRUE(
        folder.Extend(Field{"stac:time_start", DataType::TimestampUs(), Value(TimestampUs{r.time_us}), ""}).ok());
    if (extra) {
      EXPECT_TRUE(folder.Extend(Field{"zz_extra", DataType::String(), Value(r.id), ""}).ok());
    }
    roots.push_back(std::move(folder));
  }
  nlohmann::ordered_json collection = {
      {"id", "tacocat_test"},      {"dataset_version", "1.0.0"},        {"description", "tacocat test"},
      {"licenses", {"CC-BY-4.0"}}, {"providers", {{{"name", "Test"}}}}, {"tasks", {"classification"}}};
  auto taco = Taco::Make(*Tortilla::Make(std::move(roots)), collection);
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return *taco;
}

// create(..., split_size = 1 byte): one part per root sample, `{dir}/ds_partNNNN.tacozip`.
inline std::vector<std::string> WriteParts(const std::string& dir, const std::vector<Region>& regions,
                                           bool consolidate = false) {
  CreateOptions options;
  options.split_size = 1;
  options.consolidate = consolidate;
  auto parts = Create(NestedTaco(regions), dir + "/ds.tacozip", options);
  EXPECT_TRUE(parts.ok()) << parts.status().ToString();
  return parts.ok() ? *parts : std::vector<std::string>{};
}

}  // namespace taco::tacocattest

#endif  // TACO_TESTS_TACOCAT_TACOCAT_TEST_UTIL_H_
