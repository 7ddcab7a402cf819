// Implementation of include/taco/geometry.h: one walk over the WKB that writes WKT and
// grows the bounding box.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "table/wkb_reader.h"
#include "taco/geometry.h"

namespace taco {
namespace {

using table::WkbHeader;
using table::WkbReader;

constexpr const char* kTypeNames[] = {"",           "POINT",           "LINESTRING",   "POLYGON",
                                      "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};

void AppendNumber(std::string& out, double v) {
  if (v == 0) v = 0;  // no "-0"
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, ec == std::errc() ? end : buf);
}

class Walker {
 public:
  explicit Walker(std::string_view wkb) : in_(wkb) {}

  Status Run() {
    TACO_RETURN_IF_ERROR(Geometry(0, /*tagged=*/true));
    if (!in_.done()) return Status::Corruption("WKB: " + std::to_string(in_.remaining()) + " trailing bytes");
    return Status::OK();
  }
  const std::string& text() const { return text_; }
  std::optional<Bounds> bounds() const { return any_ ? std::optional<Bounds>(box_) : std::nullopt; }

 private:
  Status Coordinate(const WkbHeader& h, bool* empty_point) {
    double v[4];
    for (int d = 0; d < h.dims(); ++d) TACO_RETURN_IF_ERROR(in_.F64(h.little, &v[d]));
    if (empty_point != nullptr && std::isnan(v[0]) && std::isnan(v[1])) {
      *empty_point = true;
      return Status::OK();
    }
    for (int d = 0; d < h.dims(); ++d) {
      if (d > 0) text_ += ' ';
      AppendNumber(text_, v[d]);
    }
    if (!any_) {
      box_ = Bounds{v[0], v[1], v[0], v[1]};
      any_ = true;
    } else {
      box_.min_x = std::min(box_.min_x, v[0]);
      box_.min_y = std::min(box_.min_y, v[1]);
      box_.max_x = std::max(box_.max_x, v[0]);
      box_.max_y = std::max(box_.max_y, v[1]);
    }
    return Status::OK();
  }

  // "(x y, x y, ...)" or "EMPTY".
  Status PointList(const WkbHeader& h) {
    uint32_t n = 0;
    TACO_RETURN_IF_ERROR(in_.Count(h.little, 8u * static_cast<size_t>(h.dims()), &n));
    if (n == 0) {
      text_ += "EMPTY";
      return Status::OK();
    }
    text_ += '(';
    for (uint32_t i = 0; i < n; ++i) {
      if (i > 0) text_ += ", ";
      TACO_RETURN_IF_ERROR(Coordinate(h, nullptr));
    }
    text_ += ')';
    return Status::OK();
  }

  // `tagged`: write the type name (every geometry but the members of MULTIPOINT,
  // MULTILINESTRING and MULTIPOLYGON, which are written as bare coordinate lists).
  Status Geometry(int depth, bool tagged) {
    if (depth > table::kMaxWkbDepth) return Status::Corruption("WKB: geometry nested deeper than 32 levels");
    WkbHeader h;
    TACO_RETURN_IF_ERROR(table::ReadWkbHeader(in_, &h));
    if (depth == 0 && h.srid) text_ += "SRID=" + std::to_string(*h.srid) + ";";
    if (tagged) {
      text_ += kTypeNames[h.type];
      text_ += h.has_z && h.has_m ? " ZM " : h.has_z ? " Z " : h.has_m ? " M " : " ";
    }
    switch (h.type) {
      case 1: {
        const size_t mark = text_.size();
        text_ += '(';
        bool empty = false;
        TACO_RETURN_IF_ERROR(Coordinate(h, &empty));
        if (empty) {
          text_.resize(mark);
          text_ += "EMPTY";
        } else {
          text_ += ')';
        }
        return Status::OK();
      }
      case 2: return PointList(h);
      case 3: {
        uint32_t rings = 0;
        TACO_RETURN_IF_ERROR(in_.Count(h.little, 4, &rings));
        if (rings == 0) {
          text_ += "EMPTY";
          return Status::OK();
        }
        text_ += '(';
        for (uint32_t i = 0; i < rings; ++i) {
          if (i > 0) text_ += ", ";
          TACO_RETURN_IF_ERROR(PointList(h));
        }
        text_ += ')';
        return Status::OK();
      }
      default: {
        uint32_t n = 0;
        TACO_RETURN_IF_ERROR(in_.Count(h.little, 5, &n));
        if (n == 0) {
          text_ += "EMPTY";
          return Status::OK();
        }
        text_ += '(';
        for (uint32_t i = 0; i < n; ++i) {
          if (i > 0) text_ += ", ";
          TACO_RETURN_IF_ERROR(Geometry(depth + 1, /*tagged=*/h.type == 7));
        }
        text_ += ')';
        return Status::OK();
      }
    }
  }

  WkbReader in_;
  std::string text_;
  Bounds box_;
  bool any_ = false;
};

}  // namespace

Result<std::string> WkbToWkt(std::string_view wkb) {
  Walker w(wkb);
  TACO_RETURN_IF_ERROR(w.Run());
  return w.text();
}

Result<std::optional<Bounds>> WkbBounds(std::string_view wkb) {
  Walker w(wkb);
  TACO_RETURN_IF_ERROR(w.Run());
  return w.bounds();
}

}  // namespace taco
