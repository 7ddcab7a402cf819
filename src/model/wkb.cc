// Implementation of wkb.h.
#include "model/wkb.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace taco::model {
namespace {

constexpr int kMaxNesting = 32;

class Cursor {
 public:
  explicit Cursor(std::string_view data) : data_(data) {}

  bool done() const { return pos_ == data_.size(); }

  Status ReadByte(uint8_t* out) {
    if (pos_ + 1 > data_.size()) return Truncated();
    *out = static_cast<uint8_t>(data_[pos_++]);
    return Status::OK();
  }
  Status ReadU32(bool little, uint32_t* out) {
    if (pos_ + 4 > data_.size()) return Truncated();
    uint32_t v = 0;
    std::memcpy(&v, data_.data() + pos_, 4);
    pos_ += 4;
    if (little != (std::endian::native == std::endian::little)) v = Swap32(v);
    *out = v;
    return Status::OK();
  }
  Status ReadDouble(bool little, double* out) {
    if (pos_ + 8 > data_.size()) return Truncated();
    uint64_t v = 0;
    std::memcpy(&v, data_.data() + pos_, 8);
    pos_ += 8;
    if (little != (std::endian::native == std::endian::little)) v = Swap64(v);
    std::memcpy(out, &v, 8);
    return Status::OK();
  }
  // Number of bytes left, to bound counts before reserving anything.
  size_t remaining() const { return data_.size() - pos_; }

 private:
  static uint32_t Swap32(uint32_t v) { return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24); }
  static uint64_t Swap64(uint64_t v) {
    return (static_cast<uint64_t>(Swap32(static_cast<uint32_t>(v))) << 32) | Swap32(static_cast<uint32_t>(v >> 32));
  }
  Status Truncated() const { return Status::Corruption("WKB: truncated at byte " + std::to_string(pos_)); }

  std::string_view data_;
  size_t pos_ = 0;
};

struct Header {
  bool little = true;
  uint32_t type = 0;  // 1..7
  int dims = 2;       // ordinates per coordinate
};

Status ReadHeader(Cursor& in, Header* h) {
  uint8_t order = 0;
  TACO_RETURN_IF_ERROR(in.ReadByte(&order));
  if (order > 1) return Status::Corruption("WKB: bad byte-order marker " + std::to_string(order));
  h->little = order == 1;
  uint32_t code = 0;
  TACO_RETURN_IF_ERROR(in.ReadU32(h->little, &code));
  bool z = (code & 0x80000000u) != 0;
  bool m = (code & 0x40000000u) != 0;
  if ((code & 0x20000000u) != 0) {
    uint32_t srid = 0;
    TACO_RETURN_IF_ERROR(in.ReadU32(h->little, &srid));
  }
  code &= 0x0FFFFFFFu;
  uint32_t iso = code / 1000;
  code %= 1000;
  if (iso == 1 || iso == 3) z = true;
  if (iso == 2 || iso == 3) m = true;
  if (iso > 3 || code < 1 || code > 7) return Status::Corruption("WKB: unsupported geometry type");
  h->type = code;
  h->dims = 2 + (z ? 1 : 0) + (m ? 1 : 0);
  return Status::OK();
}

Status ReadCoord(Cursor& in, const Header& h, double* x, double* y) {
  TACO_RETURN_IF_ERROR(in.ReadDouble(h.little, x));
  TACO_RETURN_IF_ERROR(in.ReadDouble(h.little, y));
  for (int i = 2; i < h.dims; ++i) {
    double ignored = 0;
    TACO_RETURN_IF_ERROR(in.ReadDouble(h.little, &ignored));
  }
  return Status::OK();
}

void Extend(WkbBox* box, double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return;
  if (box->empty) {
    *box = {false, x, y, x, y};
    return;
  }
  box->min_x = std::min(box->min_x, x);
  box->min_y = std::min(box->min_y, y);
  box->max_x = std::max(box->max_x, x);
  box->max_y = std::max(box->max_y, y);
}

Status ReadCount(Cursor& in, const Header& h, size_t min_item_bytes, uint32_t* n) {
  TACO_RETURN_IF_ERROR(in.ReadU32(h.little, n));
  if (static_cast<uint64_t>(*n) * min_item_bytes > in.remaining()) {
    return Status::Corruption("WKB: count " + std::to_string(*n) + " exceeds the data");
  }
  return Status::OK();
}

Status ReadPoints(Cursor& in, const Header& h, WkbBox* box) {
  uint32_t n = 0;
  TACO_RETURN_IF_ERROR(ReadCount(in, h, 16, &n));
  for (uint32_t i = 0; i < n; ++i) {
    double x = 0, y = 0;
    TACO_RETURN_IF_ERROR(ReadCoord(in, h, &x, &y));
    Extend(box, x, y);
  }
  return Status::OK();
}

Status ReadGeometry(Cursor& in, WkbBox* box, int nesting) {
  if (nesting > kMaxNesting) return Status::Corruption("WKB: collections nested too deeply");
  Header h;
  TACO_RETURN_IF_ERROR(ReadHeader(in, &h));
  switch (h.type) {
    case 1: {
      double x = 0, y = 0;
      TACO_RETURN_IF_ERROR(ReadCoord(in, h, &x, &y));
      Extend(box, x, y);
      return Status::OK();
    }
    case 2: return ReadPoints(in, h, box);
    case 3: {
      uint32_t rings = 0;
      TACO_RETURN_IF_ERROR(ReadCount(in, h, 4, &rings));
      for (uint32_t r = 0; r < rings; ++r) TACO_RETURN_IF_ERROR(ReadPoints(in, h, box));
      return Status::OK();
    }
    default: {  // 4..7: multi geometries and collections hold full WKB geometries
      uint32_t n = 0;
      TACO_RETURN_IF_ERROR(ReadCount(in, h, 5, &n));
      for (uint32_t i = 0; i < n; ++i) TACO_RETURN_IF_ERROR(ReadGeometry(in, box, nesting + 1));
      return Status::OK();
    }
  }
}

}  // namespace

Result<WkbPoint> ParseWkbPoint(std::string_view wkb, bool* empty) {
  Cursor in(wkb);
  Header h;
  TACO_RETURN_IF_ERROR(ReadHeader(in, &h));
  if (h.type != 1) return Status::Corruption("WKB: geometry type " + std::to_string(h.type) + " is not a Point");
  WkbPoint p;
  TACO_RETURN_IF_ERROR(ReadCoord(in, h, &p.x, &p.y));
  if (!in.done()) return Status::Corruption("WKB: trailing bytes after the Point");
  if (empty != nullptr) *empty = std::isnan(p.x) || std::isnan(p.y);
  return p;
}

Result<WkbBox> WkbBounds(std::string_view wkb) {
  Cursor in(wkb);
  WkbBox box;
  TACO_RETURN_IF_ERROR(ReadGeometry(in, &box, 0));
  if (!in.done()) return Status::Corruption("WKB: trailing bytes after the geometry");
  return box;
}

}  // namespace taco::model
