// crc32.h without zlib: a byte-table CRC-32 (the ZIP polynomial, reflected) and the GF(2)
// polynomial arithmetic behind Crc32Combine/Crc32Zeros. For builds that have no zlib (the
// WebAssembly container layer, js/wasm); the native library links crc32.cc (zlib or
// PCLMULQDQ, much faster). Both give the same values: js_forms checks the wasm one against
// the CRC-32 every ZIP member stores.
#include <array>

#include "format/zip/crc32.h"

namespace taco::zip {

namespace {

constexpr uint32_t kPolynomial = 0xEDB88320u;  // x^32 + x^26 + ... + 1, bit-reversed

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ kPolynomial : c >> 1;
    table[i] = c;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kTable = MakeTable();

// a(x) * b(x) modulo the polynomial, in the reflected bit order (bit 31 = x^0).
uint32_t Multiply(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (uint32_t bit = 1u << 31; bit != 0; bit >>= 1) {
    if (a & bit) product ^= b;
    b = (b & 1u) ? (b >> 1) ^ kPolynomial : b >> 1;
  }
  return product;
}

// x^(8 * n) modulo the polynomial: n bytes of shift.
uint32_t ShiftBytes(uint64_t n) {
  uint32_t power = 1u << 30;   // x^1
  uint32_t result = 1u << 31;  // x^0
  // power runs through x^(2^k), k from 3 (8n has three low zero bits); the bits of n pick
  // the factors.
  for (int k = 0; k < 3; ++k) power = Multiply(power, power);
  for (; n != 0; n >>= 1) {
    if (n & 1u) result = Multiply(power, result);
    power = Multiply(power, power);
  }
  return result;
}

}  // namespace

uint32_t Crc32(uint32_t crc, const void* data, size_t n) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint32_t c = ~crc;
  for (size_t i = 0; i < n; ++i) c = kTable[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
  return ~c;
}

uint32_t Crc32Combine(uint32_t crc_a, uint32_t crc_b, uint64_t length_b) {
  return Multiply(ShiftBytes(length_b), crc_a) ^ crc_b;
}

uint32_t Crc32Zeros(uint64_t n) { return Multiply(ShiftBytes(n), 0xFFFFFFFFu) ^ 0xFFFFFFFFu; }

}  // namespace taco::zip
