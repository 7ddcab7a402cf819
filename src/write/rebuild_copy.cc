#include "write/rebuild_copy.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io/range_stream.h"

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
  return io::StreamRange(reader, offset, size,
                         [&](const char* data, size_t n) { return WriteAll(fd, data, n, dest); }, {kChunk, kWindow});
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
