// Collection-level fragments: Labels, OpticalData, Publications, SplitStrategy.
#include <set>

#include <gtest/gtest.h>

#include "taco/extensions.h"

namespace taco::ext {
namespace {

using json = nlohmann::ordered_json;

TEST(OpticalDataTest, Sentinel2FullTable) {
  auto r = OpticalData("sentinel2msi");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const json& j = *r;
  EXPECT_EQ(j["optical:sensor"], "sentinel2msi");
  EXPECT_EQ(j["optical:num_bands"], 13);
  const json& bands = j["optical:bands"];
  ASSERT_EQ(bands.size(), 13u);
  std::vector<std::string> names;
  for (size_t i = 0; i < bands.size(); ++i) {
    EXPECT_EQ(bands[i]["index"], static_cast<int>(i));
    names.push_back(bands[i]["name"]);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"B01", "B02", "B03", "B04", "B05", "B06", "B07", "B08", "B8A", "B09",
                                             "B10", "B11", "B12"}));
  const json& red = bands[3];
  EXPECT_EQ(red["common_name"], "red");
  EXPECT_GT(red["center_wavelength"].get<double>(), 660);
  EXPECT_LT(red["center_wavelength"].get<double>(), 670);
  EXPECT_EQ(bands[7]["common_name"], "nir");
  EXPECT_EQ(bands[12]["common_name"], "swir22");
  for (const char* key :
       {"name", "index", "common_name", "description", "unit", "center_wavelength", "full_width_half_max"}) {
    EXPECT_TRUE(red.contains(key)) << key;
  }
}

TEST(OpticalDataTest, EveryKnownSensorIsPlausible) {
  const auto sensors = KnownSensors();
  EXPECT_GE(sensors.size(), 2u);
  for (const std::string& s : sensors) {
    auto bands = SensorBands(s);
    ASSERT_TRUE(bands.ok()) << s;
    std::set<std::string> names;
    for (const SpectralBand& b : *bands) {
      EXPECT_TRUE(names.insert(b.name).second) << s << " " << b.name;
      EXPECT_FALSE(b.common_name.empty()) << s << " " << b.name;
      EXPECT_GT(b.center_wavelength, 400) << s << " " << b.name;
      EXPECT_LT(b.center_wavelength, 13000) << s << " " << b.name;
      EXPECT_GT(b.full_width_half_max, 0) << s << " " << b.name;
      EXPECT_LT(b.full_width_half_max, b.center_wavelength) << s << " " << b.name;
    }
  }
  auto oli = SensorBands("landsat8oli");
  ASSERT_TRUE(oli.ok());
  ASSERT_EQ(oli->size(), 11u);
  EXPECT_EQ((*oli)[4].name, "B05");
  EXPECT_EQ((*oli)[4].common_name, "nir08");
  EXPECT_NEAR((*oli)[4].center_wavelength, 865, 5);
}

TEST(OpticalDataTest, SubsetSyntax) {
  auto r = OpticalData("landsat8oli[B04, B03,B02]");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)["optical:sensor"], "landsat8oli");
  EXPECT_EQ((*r)["optical:num_bands"], 3);
  const json& bands = (*r)["optical:bands"];
  EXPECT_EQ(bands[0]["name"], "B04");
  EXPECT_EQ(bands[0]["common_name"], "red");
  EXPECT_EQ(bands[0]["index"], 0);
  EXPECT_EQ(bands[2]["name"], "B02");
  EXPECT_EQ(bands[2]["index"], 2);

  EXPECT_EQ(OpticalData("sentinel2msi[B02,B13]").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(OpticalData("sentinel2msi[B02,B02]").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(OpticalData("sentinel2msi[B02").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(OpticalData("sentinel2msi[]").status().code(), StatusCode::kInvalidArgument);
  auto unknown = OpticalData("worldview3");
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);
  EXPECT_NE(unknown.status().message().find("sentinel2msi"), std::string::npos);
}

TEST(OpticalDataTest, CustomBands) {
  auto r = OpticalData("mycam", {SpectralBand{"R", "red", "", "nm", 650, 40}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)["optical:bands"][0]["description"], nullptr);
  EXPECT_EQ((*r)["optical:num_bands"], 1);
  EXPECT_FALSE(OpticalData("mycam", {}).ok());
}

TEST(LabelsTest, FragmentAndValidation) {
  auto r = Labels({{"water", "natural", "Open water"}, {"urban", "", ""}}, "Land cover");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)["labels:num_classes"], 2);
  EXPECT_EQ((*r)["labels:description"], "Land cover");
  EXPECT_EQ((*r)["labels:classes"][0]["name"], "water");
  EXPECT_EQ((*r)["labels:classes"][0]["category"], "natural");
  EXPECT_EQ((*r)["labels:classes"][1]["category"], nullptr);
  EXPECT_EQ(Labels({}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Labels({{"a", "", ""}, {"a", "", ""}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Labels({{"", "", ""}}).status().code(), StatusCode::kInvalidArgument);
}

TEST(PublicationsTest, FragmentAndValidation) {
  auto r = Publications({{"10.1000/xyz", "Doe et al. (2024)", ""}});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ((*r)["publications"].size(), 1u);
  EXPECT_EQ((*r)["publications"][0]["doi"], "10.1000/xyz");
  EXPECT_EQ((*r)["publications"][0]["summary"], nullptr);
  EXPECT_EQ(Publications({{"", "x", ""}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Publications({})->at("publications").empty());
}

TEST(SplitStrategyTest, Validated) {
  for (const char* s : {"random", "stratified", "manual", "other", "none", "unknown"}) {
    auto r = SplitStrategy(s);
    ASSERT_TRUE(r.ok()) << s;
    EXPECT_EQ(*r, (json{{"split:strategy", s}}));
  }
  EXPECT_EQ(SplitStrategy("kfold").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(SplitStrategy("").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace taco::ext
