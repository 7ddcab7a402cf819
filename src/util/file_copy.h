// Copying a file's bytes into a new file, kernel-side when possible.
#ifndef TACO_UTIL_FILE_COPY_H_
#define TACO_UTIL_FILE_COPY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco {

// Creates `dest` (must not exist) with the bytes of the regular file `source`, using
// copy_file_range(2) and falling back to a 1 MiB read/write loop. Returns the bytes copied.
// Errors name the file that failed.
Result<uint64_t> CopyFileTo(const std::string& source, const std::string& dest);

// Creates `dest` (must not exist) holding `bytes`.
Status WriteNewFile(const std::string& dest, std::string_view bytes);

}  // namespace taco

#endif  // TACO_UTIL_FILE_COPY_H_
