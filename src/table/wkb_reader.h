// Reading Well-Known Binary: the byte cursor and the geometry header shared by the WKB
// functions (wkb_geometry.cc, wkb_text.cc).
//
// Header: ISO WKB (types 1..7, +1000 Z, +2000 M, +3000 ZM) and EWKB (flag bits 0x80000000 Z,
// 0x40000000 M, 0x20000000 SRID), both byte orders. Errors are Corruption "WKB: ...".
#ifndef TACO_TABLE_WKB_READER_H_
#define TACO_TABLE_WKB_READER_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco::table {

inline constexpr int kMaxWkbDepth = 32;

class WkbReader {
 public:
  explicit WkbReader(std::string_view data) : data_(data) {}
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
  // A count of items of `item_bytes` each that must fit in the bytes left.
  Status Count(bool little, size_t item_bytes, uint32_t* n) {
    TACO_RETURN_IF_ERROR(U32(little, n));
    if (item_bytes > 0 && static_cast<uint64_t>(*n) * item_bytes > remaining()) return Truncated();
    return Status::OK();
  }
  Status Truncated() const { return Status::Corruption("WKB: truncated at byte " + std::to_string(pos_)); }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

struct WkbHeader {
  bool little = true;
  uint32_t type = 0;  // 1 Point .. 7 GeometryCollection
  bool has_z = false;
  bool has_m = false;
  std::optional<uint32_t> srid;  // EWKB only
  int dims() const { return 2 + (has_z ? 1 : 0) + (has_m ? 1 : 0); }
};

// Reads the byte order, the type code and the EWKB SRID of the next geometry.
inline Status ReadWkbHeader(WkbReader& in, WkbHeader* h) {
  uint8_t order = 0;
  TACO_RETURN_IF_ERROR(in.Byte(&order));
  if (order > 1) return Status::Corruption("WKB: bad byte-order marker " + std::to_string(order));
  h->little = order == 1;
  uint32_t code = 0;
  TACO_RETURN_IF_ERROR(in.U32(h->little, &code));
  h->has_z = (code & 0x80000000u) != 0;
  h->has_m = (code & 0x40000000u) != 0;
  h->srid.reset();
  if (code & 0x20000000u) {
    uint32_t srid = 0;
    TACO_RETURN_IF_ERROR(in.U32(h->little, &srid));
    h->srid = srid;
  }
  code &= 0x0FFFFFFFu;
  if (code >= 1000 && code < 4000) {
    const uint32_t flavour = code / 1000;
    h->has_z = flavour == 1 || flavour == 3;
    h->has_m = flavour == 2 || flavour == 3;
    code %= 1000;
  }
  if (code < 1 || code > 7) return Status::Corruption("WKB: unknown geometry type " + std::to_string(code));
  h->type = code;
  return Status::OK();
}

}  // namespace taco::table

#endif  // TACO_TABLE_WKB_READER_H_
