// Implementation of wkb_geometry.h: a single pass over the WKB bytes.
#include "table/wkb_geometry.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "table/wkb_reader.h"

namespace taco::table {
namespace {

struct Point {
  double x = 0, y = 0;
};

bool Inside(const Point& p, const Box& b) {
  return p.x >= b.min_x && p.x <= b.max_x && p.y >= b.min_y && p.y <= b.max_y;
}

// Liang–Barsky clipping of the closed segment a-b against the closed box.
bool SegmentMeetsBox(const Point& a, const Point& b, const Box& box) {
  if (Inside(a, box) || Inside(b, box)) return true;
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {a.x - box.min_x, box.max_x - a.x, a.y - box.min_y, box.max_y - a.y};
  double t0 = 0, t1 = 1;
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double r = q[i] / p[i];
    if (p[i] < 0) {
      t0 = std::max(t0, r);
    } else {
      t1 = std::min(t1, r);
    }
    if (t0 > t1) return false;
  }
  return true;
}

// Even-odd rule over all rings (holes included).
bool PointInRings(const Point& p, const std::vector<std::vector<Point>>& rings) {
  bool in = false;
  for (const auto& ring : rings) {
    for (size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
      const Point& a = ring[i];
      const Point& b = ring[j];
      if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) in = !in;
    }
  }
  return in;
}

class Tester {
 public:
  Tester(std::string_view wkb, const Box& box) : in_(wkb), box_(box) {}

  Result<bool> Run() {
    TACO_RETURN_IF_ERROR(Geometry(0));
    if (!in_.done()) return Status::Corruption("WKB: " + std::to_string(in_.remaining()) + " trailing bytes");
    return hit_;
  }

 private:
  Status Coord(bool little, int dims, Point* p) {
    TACO_RETURN_IF_ERROR(in_.F64(little, &p->x));
    TACO_RETURN_IF_ERROR(in_.F64(little, &p->y));
    double ignored;
    for (int d = 2; d < dims; ++d) TACO_RETURN_IF_ERROR(in_.F64(little, &ignored));
    return Status::OK();
  }

  Status Points(bool little, int dims, std::vector<Point>* out) {
    uint32_t n = 0;
    TACO_RETURN_IF_ERROR(in_.Count(little, 8u * static_cast<size_t>(dims), &n));
    out->resize(n);
    for (auto& p : *out) TACO_RETURN_IF_ERROR(Coord(little, dims, &p));
    return Status::OK();
  }

  void TestLine(const std::vector<Point>& pts) {
    if (pts.size() == 1) hit_ = hit_ || Inside(pts[0], box_);
    for (size_t i = 1; i < pts.size() && !hit_; ++i) hit_ = SegmentMeetsBox(pts[i - 1], pts[i], box_);
  }

  Status Geometry(int depth) {
    if (depth > kMaxWkbDepth) return Status::Corruption("WKB: geometry nested deeper than 32 levels");
    WkbHeader h;
    TACO_RETURN_IF_ERROR(ReadWkbHeader(in_, &h));
    const bool little = h.little;
    const int dims = h.dims();
    const uint32_t code = h.type;
    switch (code) {
      case 1: {
        Point p;
        TACO_RETURN_IF_ERROR(Coord(little, dims, &p));
        if (!std::isnan(p.x) && !std::isnan(p.y)) hit_ = hit_ || Inside(p, box_);
        return Status::OK();
      }
      case 2: {
        std::vector<Point> pts;
        TACO_RETURN_IF_ERROR(Points(little, dims, &pts));
        TestLine(pts);
        return Status::OK();
      }
      case 3: {
        uint32_t n = 0;
        TACO_RETURN_IF_ERROR(in_.Count(little, 4, &n));
        std::vector<std::vector<Point>> rings(n);
        for (auto& ring : rings) {
          TACO_RETURN_IF_ERROR(Points(little, dims, &ring));
          TestLine(ring);
        }
        rings.erase(std::remove_if(rings.begin(), rings.end(), [](const auto& r) { return r.size() < 3; }),
                    rings.end());
        if (!hit_ && !rings.empty()) hit_ = PointInRings({box_.min_x, box_.min_y}, rings);
        return Status::OK();
      }
      case 4:
      case 5:
      case 6:
      case 7: {
        uint32_t n = 0;
        TACO_RETURN_IF_ERROR(in_.Count(little, 5, &n));
        for (uint32_t i = 0; i < n; ++i) TACO_RETURN_IF_ERROR(Geometry(depth + 1));
        return Status::OK();
      }
      default: return Status::Corruption("WKB: unknown geometry type " + std::to_string(code));
    }
  }

  WkbReader in_;
  Box box_;
  bool hit_ = false;
};

}  // namespace

Result<bool> WkbIntersectsBox(std::string_view wkb, const Box& box) { return Tester(wkb, box).Run(); }

}  // namespace taco::table
