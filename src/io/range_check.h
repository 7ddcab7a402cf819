// Bounds checks shared by every RangeReader implementation (internal to src/io).
//
// Contract: CheckRange() is OK iff [offset, offset + n) lies inside [0, size); a zero-length
// range is OK at any offset <= size. Otherwise it returns a Corruption status reading
// "<name>: <what> of <n> bytes at offset <offset> is past the end (size <size>)".
// Overflow-safe for any 64-bit inputs.
#ifndef TACO_SRC_IO_RANGE_CHECK_H_
#define TACO_SRC_IO_RANGE_CHECK_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco::io {

inline bool RangeInside(uint64_t offset, uint64_t n, uint64_t size) { return n <= size && offset <= size - n; }

inline Status CheckRange(const std::string& name, uint64_t offset, uint64_t n, uint64_t size,
                         std::string_view what = "read") {
  if (RangeInside(offset, n, size)) return Status::OK();
  return Status::Corruption(name + ": " + std::string(what) + " of " + std::to_string(n) + " bytes at offset " +
                            std::to_string(offset) + " is past the end (size " + std::to_string(size) + ")");
}

}  // namespace taco::io

#endif  // TACO_SRC_IO_RANGE_CHECK_H_
