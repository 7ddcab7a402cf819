// Tortilla-level spatial codes: the MajorTOM grid cell and Morton-ordered spatial groups.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "taco/extensions.h"

namespace taco::ext {
namespace {

constexpr double kEquatorRadiusKm = 6378.137;
constexpr double kPi = 3.14159265358979323846;
constexpr double kMaxLatitude = 85.0;  // the grid leaves out the polar caps

std::string Label(int64_t index, char positive, char negative) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld%c", static_cast<long long>(index < 0 ? -index : index),
                index < 0 ? negative : positive);
  return buf;
}

// Index of the last grid line strictly below `v` for lines at k * step: a point on a line
// belongs to the cell below/west of it.
int64_t CellBelow(double v, double step) { return static_cast<int64_t>(std::ceil(v / step)) - 1; }

}  // namespace

// The MajorTOM grid (Francis & Czerkawski 2024, "Major TOM: Expandable Datasets for Earth
// Observation"), as tacotoolbox's MajorTOM extension labels it:
//  * rows: n_rows = ceil(pi * R / d) lines of latitude over the half meridian (R = 6378.137
//    km equatorial radius, d = dist_km), spaced dlat = 180 / n_rows degrees, at lat_j =
//    j * dlat for j in [-floor(n_rows / 2), ceil(n_rows / 2) - 1], keeping |lat_j| <= 85.
//    Row j is labelled "%04dU" (j >= 0, north of the equator line) or "%04dD" (|j|, south).
//  * columns of row j: n_cols = max(1, ceil(2 * pi * R * cos(lat_j) / d)) meridians
//    spaced dlon = 360 / n_cols, at lon_i = i * dlon for i in [-floor(n_cols / 2),
//    ceil(n_cols / 2) - 1]; labelled "%04dR" (i >= 0) or "%04dL" (|i|).
//  * a point belongs to the cell anchored at its bottom-left line pair: j = ceil(lat / dlat)
//    - 1 clamped to the kept rows, i = ceil(lon / dlon) - 1, wrapping to the easternmost
//    column when that falls west of the first meridian. Points exactly on a line therefore
//    belong to the cell below / to the west (so (0, 0) is in row 0001D, column 0001L).
//  * code = "%04dkm" (integer dist_km) + "_" + row + "_" + column.
Result<std::string> MajorTomCode(double lon, double lat, double dist_km) {
  if (!(dist_km >= 1) || !std::isfinite(dist_km)) {
    return Status::InvalidArgument("majortom: dist_km must be >= 1, got " + std::to_string(dist_km));
  }
  if (!std::isfinite(lon) || !std::isfinite(lat) || lon < -180 || lon > 180 || lat < -90 || lat > 90) {
    return Status::InvalidArgument("majortom: not a lon/lat point: (" + std::to_string(lon) + ", " +
                                   std::to_string(lat) + ")");
  }
  const int64_t n_rows = static_cast<int64_t>(std::ceil(kPi * kEquatorRadiusKm / dist_km));
  const double dlat = 180.0 / static_cast<double>(n_rows);
  const int64_t j_min = std::max<int64_t>(-(n_rows / 2), static_cast<int64_t>(std::ceil(-kMaxLatitude / dlat)));
  const int64_t j_max = std::min<int64_t>((n_rows + 1) / 2 - 1, static_cast<int64_t>(std::floor(kMaxLatitude / dlat)));
  const int64_t j = std::clamp(CellBelow(lat, dlat), j_min, j_max);

  const double row_lat = static_cast<double>(j) * dlat;
  const double circumference = 2 * kPi * kEquatorRadiusKm * std::cos(row_lat * kPi / 180.0);
  const int64_t n_cols = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(circumference / dist_km)));
  const double dlon = 360.0 / static_cast<double>(n_cols);
  const int64_t i_min = -(n_cols / 2);
  const int64_t i_max = (n_cols + 1) / 2 - 1;
  int64_t i = CellBelow(lon, dlon);
  if (i < i_min) i = i_max;
  i = std::min(i, i_max);

  char dist[32];
  std::snprintf(dist, sizeof dist, "%04lldkm", static_cast<long long>(dist_km));
  return std::string(dist) + "_" + Label(j, 'U', 'D') + "_" + Label(i, 'R', 'L');
}

namespace {
// Spreads the low 21 bits of v onto the even bit positions.
uint64_t SpreadBits(uint64_t v) {
  v &= 0x1FFFFF;
  v = (v | (v << 16)) & 0x0000FFFF0000FFFFULL;
  v = (v | (v << 8)) & 0x00FF00FF00FF00FFULL;
  v = (v | (v << 4)) & 0x0F0F0F0F0F0F0F0FULL;
  v = (v | (v << 2)) & 0x3333333333333333ULL;
  v = (v | (v << 1)) & 0x5555555555555555ULL;
  return v;
}

uint64_t Quantise(double v, double lo, double hi) {
  constexpr double kMax = (1 << 21) - 1;
  double t = (v - lo) / (hi - lo);
  if (!(t >= 0)) t = 0;  // also NaN
  if (t > 1) t = 1;
  return static_cast<uint64_t>(std::floor(t * kMax));
}
}  // namespace

uint64_t MortonCode(double lon, double lat) {
  return SpreadBits(Quantise(lon, -180, 180)) | (SpreadBits(Quantise(lat, -90, 90)) << 1);
}

Result<std::vector<std::string>> SpatialGroupCodes(const std::vector<std::pair<double, double>>& lonlat,
                                                   size_t target_count) {
  if (target_count == 0) return Status::InvalidArgument("spatialgroup: target_count must be > 0");
  std::vector<uint64_t> codes;
  codes.reserve(lonlat.size());
  for (const auto& [lon, lat] : lonlat) codes.push_back(MortonCode(lon, lat));
  std::vector<size_t> order(lonlat.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return codes[a] < codes[b]; });
  std::vector<std::string> out(lonlat.size());
  for (size_t rank = 0; rank < order.size(); ++rank) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "sg%04zu", rank / target_count);
    out[order[rank]] = buf;
  }
  return out;
}

}  // namespace taco::ext
