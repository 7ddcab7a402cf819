// io::Location and PathExists(): see location.h.
#include "io/location.h"

#include <sys/stat.h>

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

}  // namespace taco::io
