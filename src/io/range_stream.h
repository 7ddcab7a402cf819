// Streaming a byte range of a RangeReader in order, with reads ahead on worker threads.
//
// Contract: calls `sink(data, n)` for consecutive chunks of [offset, offset+size) in order;
// up to `window` chunks of `chunk` bytes are read ahead concurrently (inline when no thread
// can be started), so a remote range streams at several requests in flight while memory
// stays bounded by window × chunk. The first error (read or sink) is returned; reads already
// started are waited for before returning.
#ifndef TACO_IO_RANGE_STREAM_H_
#define TACO_IO_RANGE_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "taco/io.h"

namespace taco::io {

struct StreamOptions {
  size_t chunk = size_t{4} << 20;
  size_t window = 4;
};

Status StreamRange(const RangeReader& reader, uint64_t offset, uint64_t size,
                   const std::function<Status(const char* data, size_t n)>& sink, const StreamOptions& options = {});

}  // namespace taco::io

#endif  // TACO_IO_RANGE_STREAM_H_
