// Comparing ZIP outputs byte for byte across runs (tests of determinism: same input, same
// dataset at any thread count or run size).
#ifndef TACO_TESTS_SUPPORT_ZIP_IMAGE_H_
#define TACO_TESTS_SUPPORT_ZIP_IMAGE_H_

#include <string>

namespace taco::testing {

// The bytes of the ZIP at `path` with the DOS time and date of every local and central
// header zeroed (the writer stamps the time it ran; every other byte must match). Adds a
// gtest failure when the end record or a header signature is not where it should be.
std::string ZipImage(const std::string& path);

}  // namespace taco::testing

#endif  // TACO_TESTS_SUPPORT_ZIP_IMAGE_H_
