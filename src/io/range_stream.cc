#include "io/range_stream.h"

#include "io/thread_config.h"

#include <algorithm>
#include <deque>
#include <future>
#include <memory>
#include <new>
#include <system_error>

namespace taco::io {

Status StreamRange(const RangeReader& reader, uint64_t offset, uint64_t size,
                   const std::function<Status(const char* data, size_t n)>& sink, const StreamOptions& options) {
  struct Slot {
    std::unique_ptr<char[]> buffer;  // declared before `done`: the read finishes before it is freed
    size_t length = 0;
    Status sync_status;
    std::future<Status> done;
  };
  const size_t chunk = std::max<size_t>(1, options.chunk);
  const size_t window_size = std::max<size_t>(1, options.window);
  std::deque<Slot> window;
  uint64_t next = 0;  // bytes of the range already scheduled
  while (next < size || !window.empty()) {
    while (next < size && window.size() < window_size) {
      Slot slot;
      slot.length = static_cast<size_t>(std::min<uint64_t>(chunk, size - next));
      slot.buffer.reset(new (std::nothrow) char[slot.length]);
      if (slot.buffer == nullptr) return Status::IOError(reader.name() + ": out of memory");
      char* out = slot.buffer.get();
      const uint64_t at = offset + next;
      const size_t n = slot.length;
      try {
        slot.done = std::async(std::launch::async,
                               WithCallerGdalConfig([&reader, at, n, out] { return reader.ReadAt(at, n, out); }));
      } catch (const std::system_error&) {
        slot.sync_status = reader.ReadAt(at, n, out);
      }
      next += n;
      window.push_back(std::move(slot));
    }
    Slot& head = window.front();
    TACO_RETURN_IF_ERROR(head.done.valid() ? head.done.get() : head.sync_status);
    TACO_RETURN_IF_ERROR(sink(head.buffer.get(), head.length));
    window.pop_front();
  }
  return Status::OK();
}

}  // namespace taco::io
