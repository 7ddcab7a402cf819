// CRC-32 (the ZIP/zlib polynomial) helpers for the ZIP writer.
//
// Crc32Zeros() gives the CRC of N zero bytes in O(log N) time, so the CRC of a sparse file's
// holes can be folded in with Crc32Combine() without reading them.
#ifndef TACO_FORMAT_ZIP_CRC32_H_
#define TACO_FORMAT_ZIP_CRC32_H_

#include <cstddef>
#include <cstdint>

namespace taco::zip {

// CRC of `data[0..n)` continuing from `crc` (start with 0). Any `n`, including > 4 GiB.
uint32_t Crc32(uint32_t crc, const void* data, size_t n);

// CRC of the concatenation A‖B given crc(A), crc(B) and |B|.
uint32_t Crc32Combine(uint32_t crc_a, uint32_t crc_b, uint64_t length_b);

// CRC of `n` zero bytes, by doubling (O(log n) combines). REQUIRES: n < 2^63.
uint32_t Crc32Zeros(uint64_t n);

}  // namespace taco::zip

#endif  // TACO_FORMAT_ZIP_CRC32_H_
