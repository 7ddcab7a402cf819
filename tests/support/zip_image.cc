// ZipImage (zip_image.h).
#include "support/zip_image.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "support/paths.h"

namespace taco::testing {
namespace {

uint32_t U32(const std::string& s, size_t at) {
  return static_cast<uint32_t>(static_cast<unsigned char>(s[at])) |
         static_cast<uint32_t>(static_cast<unsigned char>(s[at + 1])) << 8 |
         static_cast<uint32_t>(static_cast<unsigned char>(s[at + 2])) << 16 |
         static_cast<uint32_t>(static_cast<unsigned char>(s[at + 3])) << 24;
}
uint16_t U16(const std::string& s, size_t at) {
  return static_cast<uint16_t>(static_cast<unsigned char>(s[at]) | static_cast<unsigned char>(s[at + 1]) << 8);
}

}  // namespace

std::string ZipImage(const std::string& path) {
  std::string z = ReadFile(path);
  EXPECT_GE(z.size(), 22u);
  if (z.size() < 22) return z;
  const size_t eocd = z.size() - 22;  // no comment
  EXPECT_EQ(U32(z, eocd), 0x06054b50u);
  size_t cd = U32(z, eocd + 16);
  const size_t entries = U16(z, eocd + 10);
  for (size_t i = 0; i < entries && cd + 46 <= z.size(); ++i) {
    EXPECT_EQ(U32(z, cd), 0x02014b50u);
    const size_t lfh = U32(z, cd + 42);
    std::fill(z.begin() + static_cast<std::ptrdiff_t>(cd + 12), z.begin() + static_cast<std::ptrdiff_t>(cd + 16), 0);
    if (lfh + 14 <= z.size()) {
      EXPECT_EQ(U32(z, lfh), 0x04034b50u);
      std::fill(z.begin() + static_cast<std::ptrdiff_t>(lfh + 10), z.begin() + static_cast<std::ptrdiff_t>(lfh + 14),
                0);
    }
    cd += 46 + U16(z, cd + 28) + U16(z, cd + 30) + U16(z, cd + 32);
  }
  return z;
}

}  // namespace taco::testing
