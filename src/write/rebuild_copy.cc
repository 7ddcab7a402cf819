#include "write/rebuild_copy.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <future>
#include <memory>
#include <new>
#include <system_error>

namespace taco::write {
namespace {

constexpr uint64_t kChunk = uint64_t{4} << 20;
constexpr size_t kWindow = 4;

Status WriteAll(int fd, const char* data, size_t n, const std::string& dest) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(dest + ": write failed: " + std::strerror(errno));
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return Status::OK();
}

Status CopyInto(int fd, const RangeReader& reader, uint64_t offset, uint64_t size, const std::string& dest) {
  struct Slot {
    std::unique_ptr<char[]> buffer;  // before `done`: the read finishes before it is freed
    size_t length = 0;
    Status sync_status;
    std::future<Status> done;
  };
  std::deque<Slot> window;
  uint64_t next = 0;
  while (next < size || !window.empty()) {
    while (next < size && window.size() < kWindow) {
      Slot slot;
      slot.length = static_cast<size_t>(std::min<uint64_t>(kChunk, size - next));
      slot.buffer.reset(new (std::nothrow) char[slot.length]);
      if (slot.buffer == nullptr) return Status::IOError(dest + ": out of memory");
      char* out = slot.buffer.get();
      const uint64_t at = offset + next;
      const size_t n = slot.length;
      try {
        slot.done = std::async(std::launch::async, [&reader, at, n, out] { return reader.ReadAt(at, n, out); });
      } catch (const std::system_error&) {
        slot.sync_status = reader.ReadAt(at, n, out);
      }
      next += n;
      window.push_back(std::move(slot));
    }
    Slot& head = window.front();
    TACO_RETURN_IF_ERROR(head.done.valid() ? head.done.get() : head.sync_status);
    TACO_RETURN_IF_ERROR(WriteAll(fd, head.buffer.get(), head.length, dest));
    window.pop_front();
  }
  return Status::OK();
}

}  // namespace

Status CopyRangeToNewFile(const RangeReader& reader, uint64_t offset, uint64_t size, const std::string& dest) {
  if (offset > reader.size() || size > reader.size() - offset) {
    return Status::InvalidArgument(reader.name() + ": range " + std::to_string(offset) + "+" + std::to_string(size) +
                                   " is outside the source (" + std::to_string(reader.size()) + " bytes)");
  }
  const int fd = ::open(dest.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    if (err == EEXIST) return Status::AlreadyExists(dest + ": already exists");
    return Status::IOError(dest + ": cannot create: " + std::strerror(err));
  }
  Status status = CopyInto(fd, reader, offset, size, dest);
  if (::close(fd) != 0 && status.ok()) status = Status::IOError(dest + ": close failed: " + std::strerror(errno));
  if (!status.ok()) ::unlink(dest.c_str());
  return status;
}

}  // namespace taco::write
