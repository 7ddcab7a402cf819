#include "util/file_copy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace taco {
namespace {

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }

 private:
  int fd_;
};

Status Errno(const std::string& path, const char* what) {
  return Status::IOError(path + ": " + what + ": " + std::strerror(errno));
}

Status WriteAll(int fd, const char* data, size_t n, const std::string& path) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Errno(path, "write failed");
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return Status::OK();
}

Result<int> CreateExclusive(const std::string& dest) {
  int fd = ::open(dest.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return Status::AlreadyExists(dest + ": already exists");
    return Errno(dest, "cannot create");
  }
  return fd;
}

Status CloseChecked(Fd& fd, const std::string& path) {
  if (::close(fd.release()) != 0) return Errno(path, "close failed");
  return Status::OK();
}

}  // namespace

Result<uint64_t> CopyFileTo(const std::string& source, const std::string& dest) {
  Fd in(::open(source.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) {
    if (errno == ENOENT) return Status::NotFound(source + ": no such file");
    return Errno(source, "cannot open");
  }
  struct stat st;
  if (::fstat(in.get(), &st) != 0) return Errno(source, "cannot stat");
  if (!S_ISREG(st.st_mode)) return Status::InvalidArgument(source + ": not a regular file");
  TACO_ASSIGN_OR_RETURN(int out_fd, CreateExclusive(dest));
  Fd out(out_fd);

  uint64_t total = 0;
  bool kernel_copy = true;
  while (kernel_copy) {
    ssize_t n = ::copy_file_range(in.get(), nullptr, out.get(), nullptr, 1 << 30, 0);
    if (n > 0) {
      total += static_cast<uint64_t>(n);
      continue;
    }
    if (n == 0) break;
    if (errno == EINTR) continue;
    if (total == 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP)) {
      kernel_copy = false;
      break;
    }
    return Errno(dest, "copy failed");
  }
  if (!kernel_copy) {
    std::unique_ptr<char[]> buf(new char[1 << 20]);
    for (;;) {
      ssize_t n = ::read(in.get(), buf.get(), 1 << 20);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Errno(source, "read failed");
      }
      if (n == 0) break;
      TACO_RETURN_IF_ERROR(WriteAll(out.get(), buf.get(), static_cast<size_t>(n), dest));
      total += static_cast<uint64_t>(n);
    }
  }
  TACO_RETURN_IF_ERROR(CloseChecked(out, dest));
  return total;
}

Status WriteNewFile(const std::string& dest, std::string_view bytes) {
  TACO_ASSIGN_OR_RETURN(int out_fd, CreateExclusive(dest));
  Fd out(out_fd);
  TACO_RETURN_IF_ERROR(WriteAll(out.get(), bytes.data(), bytes.size(), dest));
  return CloseChecked(out, dest);
}

}  // namespace taco
