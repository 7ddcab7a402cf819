// OpenLocalFile(): a RangeReader over a local file, read with pread(2).
//
// The descriptor is opened once and shared by all threads; pread() does not move a file
// position, so concurrent ReadAt() calls need no locking.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "io/io_log.h"
#include "io/range_check.h"
#include "taco/io.h"

namespace taco {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

class LocalFileReader final : public RangeReader {
 public:
  LocalFileReader(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  ~LocalFileReader() override { ::close(fd_); }
  LocalFileReader(const LocalFileReader&) = delete;
  LocalFileReader& operator=(const LocalFileReader&) = delete;

  uint64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }

  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    TACO_RETURN_IF_ERROR(io::CheckRange(path_, offset, n, size_));
    const auto start = io::StartIfLogging(LogLevel::kDebug);
    char* dst = static_cast<char*>(out);
    size_t done = 0;
    while (done < n) {
      ssize_t got = ::pread(fd_, dst + done, n - done, static_cast<off_t>(offset + done));
      if (got < 0) {
        if (errno == EINTR) continue;
        return Status::IOError(path_ + ": read of " + std::to_string(n) + " bytes at offset " + std::to_string(offset) +
                               " failed: " + ErrnoText(errno));
      }
      if (got == 0) {
        return Status::IOError(path_ + ": short read: got " + std::to_string(done) + " of " + std::to_string(n) +
                               " bytes at offset " + std::to_string(offset) + " (file truncated?)");
      }
      done += static_cast<size_t>(got);
    }
    io::LogRead(LogLevel::kDebug, path_, offset, n, start);
    return Status::OK();
  }

 private:
  std::string path_;
  int fd_;
  uint64_t size_;
};

}  // namespace

Result<RangeReaderPtr> OpenLocalFile(const std::string& path) {
  if (path.empty()) return Status::InvalidArgument("<empty path>: no file name given");
  const auto start = io::StartIfLogging(LogLevel::kVerbose);
  // O_NONBLOCK so that a FIFO is rejected below instead of blocking open(); it has no
  // effect on regular files.
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) return Status::NotFound(path + ": no such file");
    if (err == ENOTDIR) return Status::NotFound(path + ": no such file (a parent is not a directory)");
    return Status::IOError(path + ": cannot open: " + ErrnoText(err));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return Status::IOError(path + ": cannot stat: " + ErrnoText(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument(path + ": is a directory");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument(path + ": not a regular file");
  }
  io::LogOpen("file", path, static_cast<uint64_t>(st.st_size), start);
  return RangeReaderPtr(std::make_shared<LocalFileReader>(path, fd, static_cast<uint64_t>(st.st_size)));
}

}  // namespace taco
