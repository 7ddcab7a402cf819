// SHA-256 (FIPS 180-4) of bytes and of whole files, as lowercase hex.
//
// Contract: Sha256File reads the file sequentially in 1 MiB blocks; IOError naming the file
// when it cannot be opened or read. Sha256Hex never fails.
#ifndef TACO_SRC_PUBLISH_SHA256_H_
#define TACO_SRC_PUBLISH_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco::publish {

class Sha256 {
 public:
  Sha256();
  void Update(const void* data, size_t size);
  // Finishes and returns the digest as 64 hex characters; the object is then spent.
  std::string HexDigest();

 private:
  void Block(const uint8_t* p);
  std::array<uint32_t, 8> h_;
  std::array<uint8_t, 64> buf_{};
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

std::string Sha256Hex(std::string_view bytes);
Result<std::string> Sha256File(const std::string& path);

}  // namespace taco::publish

#endif  // TACO_SRC_PUBLISH_SHA256_H_
