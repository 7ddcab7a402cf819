// ComputeExtent: the collection extent from centroid and time columns (FORMAT §4.3), with
// an antimeridian-correct longitude interval instead of upstream's hemisphere heuristic.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "model/metadata.h"
#include "model/wkb.h"

namespace taco::model {
namespace {

using nlohmann::ordered_json;

ordered_json GlobalSpatial() { return ordered_json::array({-180.0, -90.0, 180.0, 90.0}); }

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.10g", v);
  return buf;
}

double WrapLongitude(double lon) {
  if (lon >= -180.0 && lon <= 180.0) return lon;
  double wrapped = std::fmod(lon + 180.0, 360.0);
  if (wrapped < 0) wrapped += 360.0;
  return wrapped - 180.0;
}

// [west, south, east, north] covering every point (CoverLongitudes of the points).
ordered_json SpatialOf(const std::vector<double>& lons, double south, double north) {
  std::vector<std::array<double, 2>> arcs;
  arcs.reserve(lons.size());
  for (double lon : lons) arcs.push_back({lon, lon});
  const std::array<double, 2> we = CoverLongitudes(arcs);
  return ordered_json::array({we[0], south, we[1], north});
}

Result<ordered_json> Spatial(const Table& table, size_t level, const std::string& name) {
  const Column& col = table.column(name);
  const std::string where = "level" + std::to_string(level) + ": column '" + name + "'";
  if (col.type.id != TypeId::kBinary) {
    return Status::Corruption(where + " has type " + col.type.ToString() + ", expected binary (WKB points)");
  }
  std::vector<double> lons;
  double south = std::numeric_limits<double>::infinity();
  double north = -south;
  for (size_t r = 0; r < col.values.size(); ++r) {
    const Value& v = col.values[r];
    if (v.is_null()) continue;
    if (!v.is<Binary>()) return Status::Corruption(where + " row " + std::to_string(r) + ": not a binary value");
    bool empty = false;
    Result<WkbPoint> p = ParseWkbPoint(v.get<Binary>().bytes, &empty);
    if (!p.ok()) return Status::Corruption(where + " row " + std::to_string(r) + ": " + p.status().message());
    if (empty || !std::isfinite(p->x) || !std::isfinite(p->y)) continue;
    if (std::fabs(p->x) > 360 || std::fabs(p->y) > 90) {
      return Status::InvalidArgument(
          where + " row " + std::to_string(r) + ": point (" + Number(p->x) + " " + Number(p->y) +
          ") is outside longitude/latitude range; it looks like projected coordinates (e.g. UTM metres): centroids "
          "must be WGS84 longitude/latitude in degrees (EPSG:4326)");
    }
    lons.push_back(WrapLongitude(p->x));
    south = std::min(south, p->y);
    north = std::max(north, p->y);
  }
  if (lons.empty()) return GlobalSpatial();
  return SpatialOf(lons, south, north);
}

// Min/max of the first time column with a value: null when none.
Result<ordered_json> Temporal(const Table& table, size_t level, const std::string& prefix) {
  for (const char* suffix : {":time_middle", ":time_start", ":time_end"}) {
    const std::string name = prefix + suffix;
    if (table.FindColumn(name) < 0) continue;
    const Column& col = table.column(name);
    const std::string where = "level" + std::to_string(level) + ": column '" + name + "'";
    if (col.type.id != TypeId::kTimestampUs && col.type.id != TypeId::kInt64 && col.type.id != TypeId::kNull) {
      return Status::Corruption(where + " has type " + col.type.ToString() + ", expected timestamp[us]");
    }
    bool any = false;
    int64_t lo = 0;
    int64_t hi = 0;
    for (const Value& v : col.values) {
      int64_t micros;
      if (v.is<TimestampUs>()) {
        micros = v.get<TimestampUs>().micros;
      } else if (v.is<int64_t>()) {
        micros = v.get<int64_t>() * 1000000;  // legacy int64 columns hold seconds
      } else {
        continue;
      }
      lo = any ? std::min(lo, micros) : micros;
      hi = any ? std::max(hi, micros) : micros;
      any = true;
    }
    if (any) return ordered_json::array({FormatTimestampUs(lo) + "Z", FormatTimestampUs(hi) + "Z"});
  }
  return ordered_json(nullptr);
}

}  // namespace

std::array<double, 2> CoverLongitudes(const std::vector<std::array<double, 2>>& arcs) {
  // Arcs as intervals of [-180, 180]; one that crosses the antimeridian becomes two.
  std::vector<std::array<double, 2>> parts;
  for (const auto& arc : arcs) {
    if (!std::isfinite(arc[0]) || !std::isfinite(arc[1])) continue;
    if (arc[1] - arc[0] >= 360.0) return {-180.0, 180.0};
    const double west = WrapLongitude(arc[0]);
    const double east = WrapLongitude(arc[1]);
    if (west <= east) {
      parts.push_back({west, east});
    } else {
      parts.push_back({west, 180.0});
      parts.push_back({-180.0, east});
    }
  }
  if (parts.empty()) return {-180.0, 180.0};
  std::sort(parts.begin(), parts.end());
  std::vector<std::array<double, 2>> merged;
  for (const auto& p : parts) {
    if (!merged.empty() && p[0] <= merged.back()[1]) {
      merged.back()[1] = std::max(merged.back()[1], p[1]);
    } else {
      merged.push_back(p);
    }
  }
  // The covering arc is the circle minus the largest gap; the gap across the antimeridian
  // first, so that a tie keeps west <= east.
  double best_gap = merged.front()[0] + 360.0 - merged.back()[1];
  std::array<double, 2> out{merged.front()[0], merged.back()[1]};
  for (size_t i = 0; i + 1 < merged.size(); ++i) {
    const double gap = merged[i + 1][0] - merged[i][1];
    if (gap > best_gap) {
      best_gap = gap;
      out = {merged[i + 1][0], merged[i][1]};
    }
  }
  if (best_gap <= 0.0) return {-180.0, 180.0};
  return out;
}

std::array<double, 4> MergeBoxes(const std::vector<std::array<double, 4>>& boxes) {
  std::vector<std::array<double, 2>> arcs;
  double south = std::numeric_limits<double>::infinity();
  double north = -south;
  for (const auto& b : boxes) {
    arcs.push_back({b[0], b[2]});
    south = std::min(south, b[1]);
    north = std::max(north, b[3]);
  }
  if (boxes.empty()) return {-180.0, -90.0, 180.0, 90.0};
  const std::array<double, 2> we = CoverLongitudes(arcs);
  return {we[0], south, we[1], north};
}

Result<ordered_json> ComputeExtent(const std::vector<Table>& levels) {
  ordered_json extent = ordered_json::object();
  for (size_t level = 0; level < levels.size(); ++level) {
    const Table& table = levels[level];
    for (const std::string prefix : {"stac", "istac"}) {
      if (table.FindColumn(prefix + ":centroid") < 0 || table.FindColumn(prefix + ":time_start") < 0) continue;
      TACO_ASSIGN_OR_RETURN(extent["spatial"], Spatial(table, level, prefix + ":centroid"));
      TACO_ASSIGN_OR_RETURN(extent["temporal"], Temporal(table, level, prefix));
      return extent;
    }
  }
  extent["spatial"] = GlobalSpatial();
  extent["temporal"] = nullptr;
  return extent;
}

}  // namespace taco::model
