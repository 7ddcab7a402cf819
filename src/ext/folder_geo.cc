// STAC / ISTAC of FOLDER samples from their descendants (taco/extensions.h,
// StacFromChildren / IstacFromChildren): footprints reprojected to lon/lat and merged on the
// longitude circle, times as the earliest start and latest end.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <ogr_spatialref.h>

#include "gdal/gdal_util.h"
#include "model/metadata.h"
#include "model/wkb.h"
#include "taco/extensions.h"
#include "util/quote.h"

namespace taco::ext {
namespace {

using util::Quote;

constexpr int kEdgeSteps = 16;  // points per footprint edge when reprojecting (edges curve)

// One field of a sample by name, or nullptr.
const Value* FieldValue(const Sample& s, std::string_view name) {
  for (const Field& f : s.extensions()) {
    if (f.name == name) return &f.value;
  }
  return nullptr;
}

std::optional<int64_t> TimeOf(const Sample& s, std::string_view name) {
  const Value* v = FieldValue(s, name);
  if (v != nullptr && v->is<TimestampUs>()) return v->get<TimestampUs>().micros;
  return std::nullopt;
}

std::optional<std::vector<double>> NumbersOf(const Value* v) {
  if (v == nullptr || !v->is<ValueList>()) return std::nullopt;
  std::vector<double> out;
  for (const Value& item : v->get<ValueList>()) {
    if (item.is<double>()) {
      out.push_back(item.get<double>());
    } else if (item.is<int64_t>()) {
      out.push_back(static_cast<double>(item.get<int64_t>()));
    } else if (item.is<float>()) {
      out.push_back(item.get<float>());
    } else {
      return std::nullopt;
    }
  }
  return out;
}

// Reprojection to EPSG:4326 lon/lat, one transformation per CRS text, kept per thread across
// calls (making one costs far more than transforming a footprint; at most kMaxCached CRSs).
class ToWgs84 {
 public:
  static constexpr size_t kMaxCached = 64;

  Result<std::vector<std::pair<double, double>>> Transform(const std::string& crs,
                                                           std::vector<std::pair<double, double>> points) {
    thread_local std::map<std::string, std::unique_ptr<OGRCoordinateTransformation>> transforms_;
    auto it = transforms_.find(crs);
    if (it == transforms_.end()) {
      if (transforms_.size() >= kMaxCached) transforms_.clear();
      internal::EnsureGdalRegistered();
      internal::QuietGdalErrors quiet;
      OGRSpatialReference source;
      if (source.SetFromUserInput(crs.c_str()) != OGRERR_NONE) {
        return Status::InvalidArgument("CRS " + Quote(crs.substr(0, 60)) +
                                       " is not understood: " + internal::QuietGdalErrors::LastError("unknown CRS"));
      }
      source.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
      OGRSpatialReference wgs84;
      if (wgs84.importFromEPSG(4326) != OGRERR_NONE) {
        return Status::Internal("EPSG:4326: " + internal::QuietGdalErrors::LastError("PROJ database not available"));
      }
      wgs84.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
      std::unique_ptr<OGRCoordinateTransformation> ct(OGRCreateCoordinateTransformation(&source, &wgs84));
      if (ct == nullptr) {
        return Status::InvalidArgument("no transformation from " + Quote(crs.substr(0, 60)) +
                                       " to EPSG:4326: " + internal::QuietGdalErrors::LastError("unknown"));
      }
      it = transforms_.emplace(crs, std::move(ct)).first;
    }
    std::vector<double> xs, ys;
    for (const auto& [x, y] : points) {
      xs.push_back(x);
      ys.push_back(y);
    }
    std::vector<int> ok(points.size(), 0);
    internal::QuietGdalErrors quiet;
    it->second->Transform(points.size(), xs.data(), ys.data(), nullptr, ok.data());
    std::vector<std::pair<double, double>> out;
    for (size_t i = 0; i < points.size(); ++i) {
      if (ok[i] && std::isfinite(xs[i]) && std::isfinite(ys[i])) out.emplace_back(xs[i], ys[i]);
    }
    if (out.empty()) {
      return Status::InvalidArgument("the footprint cannot be transformed to EPSG:4326 (outside the CRS's domain)");
    }
    return out;
  }
};

// The ring of a box, densified.
std::vector<std::pair<double, double>> DenseRing(double x0, double y0, double x1, double y1) {
  const std::array<std::pair<double, double>, 5> c{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}};
  std::vector<std::pair<double, double>> out;
  for (size_t e = 0; e < 4; ++e) {
    for (int k = 0; k < kEdgeSteps; ++k) {
      const double t = static_cast<double>(k) / kEdgeSteps;
      out.emplace_back(c[e].first + t * (c[e + 1].first - c[e].first),
                       c[e].second + t * (c[e + 1].second - c[e].second));
    }
  }
  return out;
}

// What the descendants contribute.
struct Gathered {
  std::vector<std::array<double, 4>> boxes;  // lon/lat [west, south, east, north]
  std::optional<int64_t> start, end;
  bool end_given = false;
};

void AddTimes(Gathered* g, std::optional<int64_t> start, std::optional<int64_t> end) {
  if (start) g->start = g->start ? std::min(*g->start, *start) : *start;
  if (end) g->end_given = true;
  const std::optional<int64_t> last = end ? end : start;
  if (last) g->end = g->end ? std::max(*g->end, *last) : *last;
}

void MergeTimes(Gathered* g, const Gathered& below) {
  if (below.start) g->start = g->start ? std::min(*g->start, *below.start) : *below.start;
  if (below.end) g->end = g->end ? std::max(*g->end, *below.end) : *below.end;
  g->end_given = g->end_given || below.end_given;
}

// The lon/lat box of points (their longitudes covered on the circle).
std::array<double, 4> BoxOf(const std::vector<std::pair<double, double>>& lonlat) {
  std::vector<std::array<double, 2>> arcs;
  double south = std::numeric_limits<double>::infinity(), north = -south;
  for (const auto& [lon, lat] : lonlat) {
    arcs.push_back({lon, lon});
    south = std::min(south, lat);
    north = std::max(north, lat);
  }
  const std::array<double, 2> we = model::CoverLongitudes(arcs);
  return {we[0], south, we[1], north};
}

// A FILE sample's footprint in its own CRS as a dense ring: from stac:geotransform and
// stac:tensor_shape, else from the bounds of istac:geometry. Nothing when it has neither.
Result<std::optional<std::pair<std::string, std::vector<std::pair<double, double>>>>> SourceFootprint(const Sample& s) {
  using Out = std::optional<std::pair<std::string, std::vector<std::pair<double, double>>>>;
  const Value* crs = FieldValue(s, "stac:crs");
  auto gt = NumbersOf(FieldValue(s, "stac:geotransform"));
  auto shape = NumbersOf(FieldValue(s, "stac:tensor_shape"));
  if (crs != nullptr && crs->is<std::string>() && gt && gt->size() == 6 && shape && shape->size() >= 2) {
    const double rows = (*shape)[shape->size() - 2], cols = (*shape)[shape->size() - 1];
    const double* g = gt->data();
    std::vector<std::pair<double, double>> ring;
    for (const auto& [px, py] : DenseRing(0, 0, cols, rows)) {
      ring.emplace_back(g[0] + px * g[1] + py * g[2], g[3] + px * g[4] + py * g[5]);
    }
    return Out{{crs->get<std::string>(), std::move(ring)}};
  }
  const Value* icrs = FieldValue(s, "istac:crs");
  const Value* geometry = FieldValue(s, "istac:geometry");
  if (icrs != nullptr && icrs->is<std::string>() && geometry != nullptr && geometry->is<Binary>()) {
    auto bounds = model::WkbBounds(geometry->get<Binary>().bytes);
    if (!bounds.ok()) return bounds.status().WithPrefix("istac:geometry");
    if (bounds->empty) return Out{};
    return Out{{icrs->get<std::string>(), DenseRing(bounds->min_x, bounds->min_y, bounds->max_x, bounds->max_y)}};
  }
  return Out{};
}

// Footprints of every FILE below (or the sample itself), times of the samples nearest the
// top that have some (a sample's own time stands for its subtree).
Status Gather(const Sample& s, ToWgs84& wgs84, Gathered* g, const std::string& where) {
  const std::string path = where.empty() ? s.id() : where + "/" + s.id();
  if (s.is_padding()) return Status::OK();
  std::optional<int64_t> start, end;
  for (const char* prefix : {"stac", "istac"}) {
    if (start || end) break;
    start = TimeOf(s, std::string(prefix) + ":time_start");
    end = TimeOf(s, std::string(prefix) + ":time_end");
  }
  const bool own_time = start || end;
  if (own_time) AddTimes(g, start, end);
  if (s.type() == SampleType::kFolder) {
    Gathered below;
    for (const Sample& child : s.children()->samples()) TACO_RETURN_IF_ERROR(Gather(child, wgs84, &below, path));
    g->boxes.insert(g->boxes.end(), below.boxes.begin(), below.boxes.end());
    if (!own_time) MergeTimes(g, below);
    return Status::OK();
  }
  auto footprint = SourceFootprint(s);
  if (!footprint.ok()) return footprint.status().WithPrefix("sample " + Quote(path));
  if (footprint->has_value()) {
    auto lonlat = wgs84.Transform((*footprint)->first, std::move((*footprint)->second));
    if (!lonlat.ok()) return lonlat.status().WithPrefix("sample " + Quote(path));
    g->boxes.push_back(BoxOf(*lonlat));
    return Status::OK();
  }
  for (const char* name : {"stac:centroid", "istac:centroid"}) {
    const Value* c = FieldValue(s, name);
    if (c == nullptr || !c->is<Binary>()) continue;
    auto p = ParseWkbPoint(c->get<Binary>().bytes);
    if (!p.ok()) return p.status().WithPrefix("sample " + Quote(path) + ": " + name);
    g->boxes.push_back({p->first, p->second, p->first, p->second});
    break;
  }
  return Status::OK();
}

struct FolderGeo {
  std::optional<std::array<double, 4>> box;  // west > east across the antimeridian
  Value start, end, middle;
};

Result<FolderGeo> Aggregate(const Tortilla& children) {
  ToWgs84 wgs84;
  Gathered g;
  for (const Sample& child : children.samples()) TACO_RETURN_IF_ERROR(Gather(child, wgs84, &g, ""));
  FolderGeo out;
  if (!g.boxes.empty()) out.box = model::MergeBoxes(g.boxes);
  if (g.start) out.start = TimestampUs{*g.start};
  if (g.end && (g.end_given || !g.start || *g.end != *g.start)) out.end = TimestampUs{*g.end};
  if (g.start && out.end.is<TimestampUs>()) {
    const uint64_t span = static_cast<uint64_t>(*g.end) - static_cast<uint64_t>(*g.start);
    out.middle = TimestampUs{*g.start + static_cast<int64_t>(span / 2)};
  }
  return out;
}

double Wrap(double lon) { return lon > 180.0 ? lon - 360.0 : lon; }

Value CentroidOf(const FolderGeo& geo) {
  if (!geo.box) return Value();
  const auto& b = *geo.box;
  const double east = b[2] < b[0] ? b[2] + 360.0 : b[2];
  return Value(Binary{internal::WkbPoint(Wrap((b[0] + east) / 2), (b[1] + b[3]) / 2)});
}

std::string BoxRing(double w, double s, double e, double n) {
  return internal::WkbPolygon({{w, s}, {e, s}, {e, n}, {w, n}, {w, s}});
}

// The box as a WKB polygon, or a multipolygon of its two halves across the antimeridian.
Value GeometryOf(const FolderGeo& geo) {
  if (!geo.box) return Value();
  const auto& b = *geo.box;
  if (b[0] <= b[2]) return Value(Binary{BoxRing(b[0], b[1], b[2], b[3])});
  std::string wkb;
  wkb.push_back('\x01');
  const uint32_t type = 6, count = 2;
  for (uint32_t v : {type, count}) {
    for (int i = 0; i < 4; ++i) wkb.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  wkb += BoxRing(b[0], b[1], 180.0, b[3]);
  wkb += BoxRing(-180.0, b[1], b[2], b[3]);
  return Value(Binary{std::move(wkb)});
}

}  // namespace

Result<std::vector<Field>> StacFromChildren(const Tortilla& children) {
  TACO_ASSIGN_OR_RETURN(FolderGeo geo, Aggregate(children));
  std::vector<Field> fields = StacSchema();
  fields[3].value = geo.start;
  fields[4].value = CentroidOf(geo);
  fields[5].value = geo.end;
  fields[6].value = geo.middle;
  return fields;
}

Result<std::vector<Field>> IstacFromChildren(const Tortilla& children) {
  TACO_ASSIGN_OR_RETURN(FolderGeo geo, Aggregate(children));
  std::vector<Field> fields = IstacSchema();
  if (geo.box) fields[0].value = std::string("EPSG:4326");
  fields[1].value = GeometryOf(geo);
  fields[2].value = geo.start;
  fields[3].value = geo.end;
  fields[4].value = geo.middle;
  fields[5].value = CentroidOf(geo);
  return fields;
}

}  // namespace taco::ext
