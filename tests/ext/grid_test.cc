// MajorTOM codes and Morton spatial groups.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>
#include <regex>

#include <gtest/gtest.h>

#include "taco/extensions.h"

namespace taco::ext {
namespace {

std::string Code(double lon, double lat, double dist = 100) {
  auto r = MajorTomCode(lon, lat, dist);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : "";
}

// Expected values worked out by hand from the grid definition (see grid.cc):
// dist 100 km: n_rows = ceil(pi * 6378.137 / 100) = 201, dlat = 180 / 201 = 0.89552°.
TEST(MajorTomTest, HandComputedCells) {
  // On both zero lines: the cell below and to the west.
  EXPECT_EQ(Code(0, 0), "0100km_0001D_0001L");
  // lat 45: ceil(45 / 0.89552) - 1 = 50 -> row 0050U at 44.776°, where
  // n_cols = ceil(2 pi 6378.137 cos(44.776°) / 100) = 285, dlon = 1.26316°,
  // lon 10: ceil(10 / 1.26316) - 1 = 7.
  EXPECT_EQ(Code(10, 45), "0100km_0050U_0007R");
  // 10 km: n_rows = 2004, dlat = 0.08982°; ±0.5° is 5.567 spacings.
  EXPECT_EQ(Code(0.5, 0.5, 10), "0010km_0005U_0005R");
  EXPECT_EQ(Code(-0.5, -0.5, 10), "0010km_0006D_0006L");
  // lon -180 lies west of the first meridian of row 0001D (401 columns, the first at
  // -200 * 0.89776°): it wraps to the easternmost column.
  EXPECT_EQ(Code(-180, 0), "0100km_0001D_0200R");
  // Beyond ±85° the rows are clamped to the last kept row (94 * 0.89552 = 84.18°).
  EXPECT_EQ(Code(5, 89), "0100km_0094U_0000R");
  EXPECT_EQ(Code(5, -89), "0100km_0094D_0000R");
  EXPECT_EQ(Code(139.7, 35.7, 1000), "1000km_0004U_0013R");
}

TEST(MajorTomTest, FormatAndMonotonicRows) {
  const std::regex pattern(R"(^\d{4}km_\d{4}[UD]_\d{4}[RL]$)");
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> lon(-180, 180), lat(-84, 84);
  for (int i = 0; i < 200; ++i) {
    const std::string c = Code(lon(rng), lat(rng), 50);
    EXPECT_TRUE(std::regex_match(c, pattern)) << c;
  }
  // Moving north by one spacing moves one row up.
  const double dlat = 180.0 / std::ceil(3.14159265358979323846 * 6378.137 / 100);
  EXPECT_EQ(Code(20, 10.2 * dlat).substr(7, 5), "0010U");
  EXPECT_EQ(Code(20, 11.2 * dlat).substr(7, 5), "0011U");
}

TEST(MajorTomTest, RejectsBadInput) {
  EXPECT_EQ(MajorTomCode(0, 0, 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(MajorTomCode(0, 91).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(MajorTomCode(181, 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(MajorTomCode(NAN, 0).status().code(), StatusCode::kInvalidArgument);
}

TEST(MortonTest, BitInterleaving) {
  const double kMax = (1 << 21) - 1;
  auto lon_q = [&](double q) { return -180 + 360 * (q + 0.5) / kMax; };
  auto lat_q = [&](double q) { return -90 + 180 * (q + 0.5) / kMax; };
  EXPECT_EQ(MortonCode(-180, -90), 0u);
  EXPECT_EQ(MortonCode(180, 90), (uint64_t{1} << 42) - 1);
  EXPECT_EQ(MortonCode(lon_q(1), -90), 1u);   // x bit 0 -> bit 0
  EXPECT_EQ(MortonCode(-180, lat_q(1)), 2u);  // y bit 0 -> bit 1
  EXPECT_EQ(MortonCode(lon_q(2), -90), 4u);   // x bit 1 -> bit 2
  EXPECT_EQ(MortonCode(lon_q(3), lat_q(3)), 15u);
  EXPECT_EQ(MortonCode(-180, lat_q(1 << 20)), uint64_t{1} << 41);
}

TEST(SpatialGroupTest, QuadrantsInZOrder) {
  // Input order NE, SW, NW, SE; Z-order is SW, SE, NW, NE.
  const std::vector<std::pair<double, double>> pts = {{90, 45}, {-90, -45}, {-90, 45}, {90, -45}};
  auto r = SpatialGroupCodes(pts, 2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (std::vector<std::string>{"sg0001", "sg0000", "sg0001", "sg0000"}));
  auto singles = SpatialGroupCodes(pts, 1);
  ASSERT_TRUE(singles.ok());
  EXPECT_EQ(*singles, (std::vector<std::string>{"sg0003", "sg0000", "sg0002", "sg0001"}));
  auto all = SpatialGroupCodes(pts, 10);
  EXPECT_EQ(*all, std::vector<std::string>(4, "sg0000"));
  EXPECT_EQ(SpatialGroupCodes(pts, 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(SpatialGroupCodes({}, 3)->empty());
}

TEST(SpatialGroupTest, GroupsFollowMortonOrderAndSize) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> lon(-180, 180), lat(-90, 90);
  std::vector<std::pair<double, double>> pts(103);
  for (auto& p : pts) p = {lon(rng), lat(rng)};
  auto r = SpatialGroupCodes(pts, 10);
  ASSERT_TRUE(r.ok());
  std::vector<size_t> order(pts.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return MortonCode(pts[a].first, pts[a].second) < MortonCode(pts[b].first, pts[b].second);
  });
  std::map<std::string, int> sizes;
  for (size_t k = 0; k < order.size(); ++k) {
    char want[32];
    std::snprintf(want, sizeof want, "sg%04zu", k / 10);
    EXPECT_EQ((*r)[order[k]], want);
    ++sizes[(*r)[order[k]]];
  }
  EXPECT_EQ(sizes.size(), 11u);
  EXPECT_EQ(sizes["sg0010"], 3);
}

}  // namespace
}  // namespace taco::ext
