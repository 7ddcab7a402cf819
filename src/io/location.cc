// io::Location and PathExists(): see location.h.
#include "io/location.h"

#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "taco/io.h"

namespace taco::io {

Location Location::Of(std::string_view path) {
  const bool url = path.substr(0, 9) == "/vsicurl/" || path.substr(0, 9) == "/vsicurl?";
  return Location(!IsRemotePath(path), url);
}

bool PathExists(const std::string& path) {
  if (!Location::Of(path).is_local_filesystem()) {
    auto size = FileSize(path);
    return size.ok() && size->has_value();
  }
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

Result<std::optional<ResolvedPaths>> RealPaths(const std::string& who, const std::string& root,
                                               const std::string& path) {
  if (!Location::Of(path).is_local_filesystem()) return std::optional<ResolvedPaths>();
  char real_root[PATH_MAX];
  char real_path[PATH_MAX];
  if (::realpath(root.c_str(), real_root) == nullptr) {
    return Status::NotFound(who + ": cannot resolve '" + root + "': " + std::strerror(errno));
  }
  if (::realpath(path.c_str(), real_path) == nullptr) {
    const int err = errno;
    const std::string msg = "'" + path + "': " + std::strerror(err);
    return err == ENOENT ? Status::NotFound(msg) : Status::IOError(msg);
  }
  return std::optional<ResolvedPaths>(ResolvedPaths{real_root, real_path});
}

}  // namespace taco::io
