// The `__TACOCAT__` single-file TACOCAT layout (FORMAT §5.1): a 128-byte header (magic, version,
// max_depth, six level ranges, the COLLECTION.json range) followed by the level Parquet files
// and COLLECTION.json; and the names of both TACOCAT forms (`__TACOCAT__`, `.tacocat/`).
//
// Contract: pure byte work, no I/O; errors are Status values naming the file.
#ifndef TACO_FORMAT_TACOCAT_TACOCAT_HEADER_H_
#define TACO_FORMAT_TACOCAT_TACOCAT_HEADER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco::format {

inline constexpr size_t kTacocatHeaderSize = 128;
inline constexpr std::string_view kTacocatMagic{"TACOCAT\0", 8};
inline constexpr uint32_t kTacocatVersion = 1;
inline constexpr int kTacocatMaxLevels = 6;
inline constexpr std::string_view kTacocatFileName = "__TACOCAT__";
inline constexpr std::string_view kTacocatDirName = ".tacocat";

struct ByteRange {
  uint64_t offset = 0;
  uint64_t size = 0;
  bool present() const { return offset > 0 && size > 0; }
};

struct TacocatHeader {
  uint32_t version = kTacocatVersion;
  uint32_t max_depth = 0;
  std::array<ByteRange, kTacocatMaxLevels> levels{};  // (0,0) = level absent
  ByteRange collection;
};

// The 128 header bytes (little-endian integers).
std::string EncodeTacocatHeader(const TacocatHeader& header);

// Parses and checks the header of a `__TACOCAT__` file of `file_size` bytes; `name` starts
// every error ("<name>: not a __TACOCAT__ file: <why>" / "<name>: malformed __TACOCAT__
// header: <why>"). Checks: magic, version 1, max_depth <= 5, the COLLECTION.json range
// non-zero, every present range inside [128, file_size) (overflow-safe), level0 present,
// present levels contiguous from 0 and exactly levels 0..max_depth.
Result<TacocatHeader> ParseTacocatHeader(std::string_view bytes, uint64_t file_size, const std::string& name);

}  // namespace taco::format

#endif  // TACO_FORMAT_TACOCAT_TACOCAT_HEADER_H_
