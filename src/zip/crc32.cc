#include "zip/crc32.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <limits>

namespace taco::zip {

uint32_t Crc32(uint32_t crc, const void* data, size_t n) {
  const auto* p = static_cast<const Bytef*>(data);
  uLong c = crc;
  while (n > 0) {
    const uInt chunk = static_cast<uInt>(std::min<size_t>(n, std::numeric_limits<uInt>::max()));
    c = crc32(c, p, chunk);
    p += chunk;
    n -= chunk;
  }
  return static_cast<uint32_t>(c);
}

uint32_t Crc32Combine(uint32_t crc_a, uint32_t crc_b, uint64_t length_b) {
  static_assert(sizeof(z_off_t) >= 8, "crc32_combine needs a 64-bit z_off_t");
  return static_cast<uint32_t>(crc32_combine(crc_a, crc_b, static_cast<z_off_t>(length_b)));
}

uint32_t Crc32Zeros(uint64_t n) {
  // powers[k] = CRC of 2^k zero bytes (z_off_t is signed: lengths stay below 2^63).
  static const std::array<uint32_t, 63> powers = [] {
    std::array<uint32_t, 63> t{};
    const Bytef zero = 0;
    t[0] = static_cast<uint32_t>(crc32(0, &zero, 1));
    for (size_t k = 1; k < t.size(); ++k) {
      t[k] = Crc32Combine(t[k - 1], t[k - 1], uint64_t{1} << (k - 1));
    }
    return t;
  }();
  uint32_t crc = 0;  // CRC of the empty string
  for (size_t k = 0; k < powers.size() && (n >> k) != 0; ++k) {
    if ((n >> k) & 1) crc = Crc32Combine(crc, powers[k], uint64_t{1} << k);
  }
  return crc;
}

}  // namespace taco::zip
