// Crc32(): zlib's table CRC, or carry-less multiplication where the CPU has it (x86-64
// PCLMULQDQ + SSE4.1, checked at run time); the same results either way.
#include "format/zip/crc32.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace taco::zip {

namespace {

uint32_t ZlibCrc32(uint32_t crc, const Bytef* p, size_t n) {
  uLong c = crc;
  while (n > 0) {
    const uInt chunk = static_cast<uInt>(std::min<size_t>(n, std::numeric_limits<uInt>::max()));
    c = crc32(c, p, chunk);
    p += chunk;
    n -= chunk;
  }
  return static_cast<uint32_t>(c);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TACO_HAVE_CLMUL_CRC 1

// CRC-32 by carry-less multiplication (Intel, "Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ", bit-reflected form): four 128-bit lanes folded 64 bytes at a time, then
// into one lane, then reduced 128 → 64 → 32 bits with a final Barrett step. `state` is the
// raw register (zlib's crc inverted); n >= 64 and a multiple of 16. The constants are
// x^k mod P(x) for the reflected polynomial 0xEDB88320 at the fold distances used, P(x) itself
// (0x1DB710641) and the Barrett constant mu = floor(x^64 / P(x)) (0x1F7011641), both reflected.
#define TACO_CLMUL_TARGET __attribute__((target("pclmul,sse4.1")))

TACO_CLMUL_TARGET inline __m128i Load16(const uint8_t* q) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
}

// x·k (low and high halves) folded onto `next`.
TACO_CLMUL_TARGET inline __m128i Fold(__m128i x, __m128i k, __m128i next) {
  return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), next);
}

TACO_CLMUL_TARGET uint32_t ClmulFold(uint32_t state, const uint8_t* p, size_t n) {
  const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
  const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
  const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124);
  const __m128i poly_mu = _mm_set_epi64x(0x1f7011641, 0x1db710641);
  const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);

  __m128i x0 = _mm_xor_si128(Load16(p), _mm_cvtsi32_si128(static_cast<int>(state)));
  __m128i x1 = Load16(p + 16);
  __m128i x2 = Load16(p + 32);
  __m128i x3 = Load16(p + 48);
  p += 64;
  n -= 64;
  for (; n >= 64; p += 64, n -= 64) {
    x0 = Fold(x0, k1k2, Load16(p));
    x1 = Fold(x1, k1k2, Load16(p + 16));
    x2 = Fold(x2, k1k2, Load16(p + 32));
    x3 = Fold(x3, k1k2, Load16(p + 48));
  }
  __m128i x = Fold(x0, k3k4, x1);
  x = Fold(x, k3k4, x2);
  x = Fold(x, k3k4, x3);
  for (; n >= 16; p += 16, n -= 16) x = Fold(x, k3k4, Load16(p));

  // 128 → 64 bits (appending 32 zero bits), then 64 → 32.
  x = _mm_xor_si128(_mm_clmulepi64_si128(k3k4, x, 0x01), _mm_srli_si128(x, 8));
  x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, mask32), k5, 0x00), _mm_srli_si128(x, 4));
  // Barrett reduction.
  __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x, mask32), poly_mu, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), poly_mu, 0x00);
  return static_cast<uint32_t>(_mm_extract_epi32(_mm_xor_si128(t, x), 1));
}

bool HaveClmul() {
  static const bool have = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return have;
}
#endif

}  // namespace

uint32_t Crc32(uint32_t crc, const void* data, size_t n) {
  const auto* p = static_cast<const Bytef*>(data);
#ifdef TACO_HAVE_CLMUL_CRC
  if (n >= 64 && HaveClmul()) {
    const size_t whole = n & ~size_t{15};
    crc = ~ClmulFold(~crc, p, whole);
    p += whole;
    n -= whole;
  }
#endif
  return ZlibCrc32(crc, p, n);
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
