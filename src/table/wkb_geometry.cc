// Implementation of wkb_geometry.h: a single pass over the WKB bytes.
#include "table/wkb_geometry.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace taco::table {
namespace {

constexpr int kMaxDepth = 32;

struct Point {
  double x = 0, y = 0;
};

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool done() const { return pos_ == data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  size_t pos() const { return pos_; }

  Status Byte(uint8_t* out) {
    if (remaining() < 1) return Truncated();
    *out = static_cast<uint8_t>(data_[pos_++]);
    return Status::OK();
  }
  Status U32(bool little, uint32_t* out) {
    if (remaining() < 4) return Truncated();
    uint32_t v;
    std::memcpy(&v, data_.data() + pos_, 4);
    pos_ += 4;
    if (little != (std::endian::native == std::endian::little)) v = __builtin_bswap32(v);
    *out = v;
    return Status::OK();
  }
  Status F64(bool little, double* out) {
    if (remaining() < 8) return Truncated();
    uint64_t v;
    std::memcpy(&v, data_.data() + pos_, 8);
    pos_ += 8;
    if (little != (std::endian::native == std::endian::little)) v = __builtin_bswap64(v);
    std::memcpy(out, &v, 8);
    return Status::OK();
  }
  Status Truncated() const { return Status::Corruption("WKB: truncated at byte " + std::to_string(pos_)); }

 private:
  std::string_view data_;
  size_t pos_ = 0;
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

  Status Count(bool little, size_t item_bytes, uint32_t* n) {
    TACO_RETURN_IF_ERROR(in_.U32(little, n));
    if (item_bytes > 0 && static_cast<uint64_t>(*n) * item_bytes > in_.remaining()) return in_.Truncated();
    return Status::OK();
  }

  Status Points(bool little, int dims, std::vector<Point>* out) {
    uint32_t n = 0;
    TACO_RETURN_IF_ERROR(Count(little, 8u * static_cast<size_t>(dims), &n));
    out->resize(n);
    for (auto& p : *out) TACO_RETURN_IF_ERROR(Coord(little, dims, &p));
    return Status::OK();
  }

  void TestLine(const std::vector<Point>& pts) {
    if (pts.size() == 1) hit_ = hit_ || Inside(pts[0], box_);
    for (size_t i = 1; i < pts.size() && !hit_; ++i) hit_ = SegmentMeetsBox(pts[i - 1], pts[i], box_);
  }

  Status Geometry(int depth) {
    if (depth > kMaxDepth) return Status::Corruption("WKB: geometry nested deeper than 32 levels");
    uint8_t order = 0;
    TACO_RETURN_IF_ERROR(in_.Byte(&order));
    if (order > 1) return Status::Corruption("WKB: bad byte-order marker " + std::to_string(order));
    const bool little = order == 1;
    uint32_t code = 0;
    TACO_RETURN_IF_ERROR(in_.U32(little, &code));
    int dims = 2;
    if (code & 0x80000000u) ++dims;
    if (code & 0x40000000u) ++dims;
    if (code & 0x20000000u) {
      uint32_t srid;
      TACO_RETURN_IF_ERROR(in_.U32(little, &srid));
    }
    code &= 0x0FFFFFFFu;
    if (code >= 1000 && code < 4000) {
      const uint32_t flavour = code / 1000;
      dims = flavour == 3 ? 4 : 3;
      code %= 1000;
    }
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
        TACO_RETURN_IF_ERROR(Count(little, 4, &n));
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
        TACO_RETURN_IF_ERROR(Count(little, 5, &n));
        for (uint32_t i = 0; i < n; ++i) TACO_RETURN_IF_ERROR(Geometry(depth + 1));
        return Status::OK();
      }
      default:
        return Status::Corruption("WKB: unknown geometry type " + std::to_string(code));
    }
  }

  Reader in_;
  Box box_;
  bool hit_ = false;
};

}  // namespace

Result<bool> WkbIntersectsBox(std::string_view wkb, const Box& box) { return Tester(wkb, box).Run(); }

}  // namespace taco::table
