#include "validate/tiff_extent.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

namespace taco::validate {
namespace {

constexpr uint64_t kMaxIfds = 10000;
constexpr uint64_t kMaxArray = 16777216;

constexpr uint16_t kStripOffsets = 273;
constexpr uint16_t kStripByteCounts = 279;
constexpr uint16_t kTileOffsets = 324;
constexpr uint16_t kTileByteCounts = 325;

// Saturating arithmetic: hostile offsets and counts must not wrap around.
uint64_t Add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
uint64_t Mul(uint64_t a, uint64_t b) { return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

uint64_t TypeSize(uint16_t type) {
  switch (type) {
    case 1:
    case 2:
    case 6:
    case 7: return 1;  // BYTE ASCII SBYTE UNDEFINED
    case 3:
    case 8: return 2;  // SHORT SSHORT
    case 4:
    case 9:
    case 11:
    case 13: return 4;  // LONG SLONG FLOAT IFD
    case 5:
    case 10:
    case 12:
    case 16:
    case 17:
    case 18: return 8;  // RATIONAL ... LONG8 SLONG8 IFD8
    default: return 0;
  }
}

class Tiff {
 public:
  Tiff(const RangeReader& r, bool little, bool big) : r_(r), little_(little), big_(big) {}

  uint64_t Uint(const unsigned char* p, size_t n) const {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[little_ ? i : n - 1 - i]) << (8 * i);
    return v;
  }

  // Reads [offset, offset+n) when inside the file; false when it is not (truncated).
  Result<bool> Read(uint64_t offset, uint64_t n, std::string* out) {
    if (offset > r_.size() || n > r_.size() - offset) return false;
    TACO_ASSIGN_OR_RETURN(*out, r_.Read(offset, static_cast<size_t>(n)));
    return true;
  }

  void Need(uint64_t end, std::string what) {
    if (end > extent_.required) extent_ = TiffExtent{end, std::move(what)};
  }

  Result<TiffExtent> Walk(uint64_t first_ifd) {
    const uint64_t count_size = big_ ? 8 : 2, entry_size = big_ ? 20 : 12, next_size = big_ ? 8 : 4;
    std::set<uint64_t> seen;
    uint64_t ifd = first_ifd;
    for (uint64_t index = 0; ifd != 0 && index < kMaxIfds && seen.insert(ifd).second; ++index) {
      const std::string name = "IFD " + std::to_string(index);
      std::string bytes;
      Need(Add(ifd, count_size), name);
      TACO_ASSIGN_OR_RETURN(bool inside, Read(ifd, count_size, &bytes));
      if (!inside) break;
      const uint64_t entries = Uint(U(bytes), count_size);
      const uint64_t table = Add(Mul(entries, entry_size), next_size);
      Need(Add(Add(ifd, count_size), table), name);
      TACO_ASSIGN_OR_RETURN(inside, Read(ifd + count_size, table, &bytes));
      if (!inside) break;
      std::vector<uint64_t> offsets[2], counts[2];  // [0] strips, [1] tiles
      for (uint64_t e = 0; e < entries; ++e) {
        const unsigned char* p = U(bytes) + e * entry_size;
        const uint16_t tag = static_cast<uint16_t>(Uint(p, 2));
        const uint16_t type = static_cast<uint16_t>(Uint(p + 2, 2));
        const uint64_t n = Uint(p + 4, big_ ? 8 : 4);
        const unsigned char* value = p + (big_ ? 12 : 8);
        const uint64_t width = TypeSize(type);
        if (width == 0 || n > kMaxArray) continue;
        const uint64_t total = width * n;
        std::string out_of_line;
        const unsigned char* data = value;
        if (total > (big_ ? 8u : 4u)) {
          const uint64_t at = Uint(value, big_ ? 8 : 4);
          Need(Add(at, total), "tag " + std::to_string(tag) + " of " + name);
          const bool wanted =
              tag == kStripOffsets || tag == kStripByteCounts || tag == kTileOffsets || tag == kTileByteCounts;
          if (!wanted) continue;
          TACO_ASSIGN_OR_RETURN(bool in, Read(at, total, &out_of_line));
          if (!in) continue;
          data = U(out_of_line);
        }
        std::vector<uint64_t>* dest = tag == kStripOffsets      ? &offsets[0]
                                      : tag == kStripByteCounts ? &counts[0]
                                      : tag == kTileOffsets     ? &offsets[1]
                                      : tag == kTileByteCounts  ? &counts[1]
                                                                : nullptr;
        if (dest == nullptr || (type != 3 && type != 4 && type != 16)) continue;
        dest->resize(n);
        for (uint64_t i = 0; i < n; ++i) (*dest)[i] = Uint(data + i * width, width);
      }
      for (int k = 0; k < 2; ++k) {
        const size_t n = std::min(offsets[k].size(), counts[k].size());
        for (size_t i = 0; i < n; ++i) {
          if (counts[k][i] == 0) continue;
          Need(Add(offsets[k][i], counts[k][i]), (k == 0 ? "strip " : "tile ") + std::to_string(i) + " of " + name);
        }
      }
      ifd = Uint(U(bytes) + entries * entry_size, next_size);
      if (ifd != 0) Need(Add(ifd, count_size), "IFD " + std::to_string(index + 1));
    }
    return extent_;
  }

 private:
  static const unsigned char* U(const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); }
  const RangeReader& r_;
  bool little_, big_;
  TiffExtent extent_;
};

}  // namespace

Result<std::optional<TiffExtent>> MeasureTiff(const RangeReader& reader) {
  if (reader.size() < 8) return std::optional<TiffExtent>();
  TACO_ASSIGN_OR_RETURN(std::string head, reader.Read(0, static_cast<size_t>(std::min<uint64_t>(16, reader.size()))));
  const bool little = head[0] == 'I' && head[1] == 'I';
  if (!little && !(head[0] == 'M' && head[1] == 'M')) return std::optional<TiffExtent>();
  Tiff probe(reader, little, false);
  const auto* h = reinterpret_cast<const unsigned char*>(head.data());
  const uint64_t magic = probe.Uint(h + 2, 2);
  if (magic == 42) {
    Tiff tiff(reader, little, false);
    TACO_ASSIGN_OR_RETURN(TiffExtent e, tiff.Walk(tiff.Uint(h + 4, 4)));
    return std::optional<TiffExtent>(e);
  }
  if (magic == 43 && head.size() >= 16 && probe.Uint(h + 4, 2) == 8) {
    Tiff tiff(reader, little, true);
    TACO_ASSIGN_OR_RETURN(TiffExtent e, tiff.Walk(tiff.Uint(h + 8, 8)));
    return std::optional<TiffExtent>(e);
  }
  return std::optional<TiffExtent>();
}

}  // namespace taco::validate
