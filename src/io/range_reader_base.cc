// RangeReader::Read and ReadAll: the part of the RangeReader interface that needs nothing but
// the standard library, in a file of its own so that the WebAssembly build of src/format
// (js/wasm) can take it without the HTTP, GDAL and file readers of src/io.
#include <string>

#include "io/range_check.h"
#include "taco/io.h"

namespace taco {

Result<std::string> RangeReader::Read(uint64_t offset, size_t n) const {
  // Check before allocating: a corrupt length must not become a huge allocation.
  TACO_RETURN_IF_ERROR(io::CheckRange(name(), offset, n, size()));
  std::string out(n, '\0');
  if (n > 0) TACO_RETURN_IF_ERROR(ReadAt(offset, n, out.data()));
  return out;
}

Result<std::string> RangeReader::ReadAll() const {
  const uint64_t total = size();
  if (total > static_cast<uint64_t>(std::string().max_size())) {
    return Status::NotSupported(name() + ": too large to read into memory (" + std::to_string(total) + " bytes)");
  }
  return Read(0, static_cast<size_t>(total));
}

}  // namespace taco
