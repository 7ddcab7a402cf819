// The zlib-free CRC-32 of the WebAssembly build (src/format/zip/crc32_portable.cc) against
// zlib's crc32/crc32_combine, on seeded random inputs of many lengths and split points. Built
// as its own executable (the native library links crc32.cc, which defines the same symbols).
// Exit status 0 when every value agrees; else the first disagreement on stderr and 1.
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "format/zip/crc32.h"

int main() {
  std::mt19937_64 rng(20261127);
  std::vector<unsigned char> data(1 << 20);
  for (auto& b : data) b = static_cast<unsigned char>(rng());
  const std::vector<size_t> lengths = {0, 1, 2, 3, 7, 8, 15, 16, 31, 255, 256, 4095, 65537, data.size()};
  for (size_t n : lengths) {
    const uint32_t ours = taco::zip::Crc32(0, data.data(), n);
    const uint32_t zlib = static_cast<uint32_t>(::crc32(0, data.data(), static_cast<uInt>(n)));
    if (ours != zlib) {
      std::fprintf(stderr, "Crc32 of %zu bytes: %08x, zlib %08x\n", n, ours, zlib);
      return 1;
    }
    const size_t split = n == 0 ? 0 : static_cast<size_t>(rng() % n);
    const uint32_t a = taco::zip::Crc32(0, data.data(), split);
    const uint32_t b = taco::zip::Crc32(0, data.data() + split, n - split);
    const uint32_t combined = taco::zip::Crc32Combine(a, b, n - split);
    if (combined != zlib) {
      std::fprintf(stderr, "Crc32Combine at %zu of %zu: %08x, zlib %08x\n", split, n, combined, zlib);
      return 1;
    }
    const std::vector<unsigned char> zeros(n, 0);
    const uint32_t z = taco::zip::Crc32Zeros(n);
    const uint32_t zz = static_cast<uint32_t>(::crc32(0, zeros.data(), static_cast<uInt>(n)));
    if (z != zz) {
      std::fprintf(stderr, "Crc32Zeros(%zu): %08x, zlib %08x\n", n, z, zz);
      return 1;
    }
  }
  // A continued CRC (crc != 0 on entry), as the streaming readers use it.
  const uint32_t head = taco::zip::Crc32(0, data.data(), 1000);
  const uint32_t ours = taco::zip::Crc32(head, data.data() + 1000, 5000);
  const uint32_t zlib = static_cast<uint32_t>(::crc32(0, data.data(), 6000));
  if (ours != zlib) {
    std::fprintf(stderr, "continued Crc32: %08x, zlib %08x\n", ours, zlib);
    return 1;
  }
  std::printf("crc32_portable agrees with zlib on %zu lengths\n", lengths.size());
  return 0;
}
