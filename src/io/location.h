// What the location of a path or URL can do, decided in ONE place from its form: the
// capability questions code above io/ asks instead of testing for "remote" itself.
//
// A location is either the local file system (a path that IsRemotePath() rejects) or a
// remote object store / server (http(s)://, s3://, gs://, az://, … and GDAL /vsi… paths).
// Each question names the capability the caller needs, so that a new kind of location
// answers them here, not in every caller:
//  * is_local_filesystem(): stat, directory listing, symbolic links, rename and writing in
//    place work, and a small read costs a page-cache copy rather than a request. Asked by
//    checks that are free locally and would cost a request remotely, and by writers.
//  * decodes_url_escapes(): a server reads names under this root as URLs (a `/vsicurl/` or
//    http(s) root): '%xx' is decoded, '?' and '#' end the path (read/path_safety.h).
//  * prefers_parallel_opens(): opening many objects here is worth a thread each (each open
//    waits for a round trip); a local open is not.
// PathExists(path): a file or object is at `path` (local: stat(2); remote: its size is
// learnt with one request, io FileSize()).
// RealPaths(who, root, path): where `root` and `path` lead once symbolic links are resolved
// (realpath(3)), for the checks that keep a dataset's files inside its directory; nullopt,
// without any request, for a remote location (it has no symbolic links: a path is where
// its text says). Errors: "<who>: cannot resolve '<root>': <why>" (NotFound) when `root`
// cannot be resolved; "'<path>': <why>" (NotFound when it does not exist, else IOError).
// Thread safety: plain values and a free function; safe from any thread.
#ifndef TACO_SRC_IO_LOCATION_H_
#define TACO_SRC_IO_LOCATION_H_

#include <optional>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco::io {

class Location {
 public:
  static Location Of(std::string_view path);

  bool is_local_filesystem() const { return local_; }
  bool decodes_url_escapes() const { return url_; }
  bool prefers_parallel_opens() const { return !local_; }

 private:
  Location(bool local, bool url) : local_(local), url_(url) {}
  bool local_;
  bool url_;
};

bool PathExists(const std::string& path);

struct ResolvedPaths {
  std::string root;
  std::string path;
};
Result<std::optional<ResolvedPaths>> RealPaths(const std::string& who, const std::string& root,
                                               const std::string& path);

}  // namespace taco::io

#endif  // TACO_SRC_IO_LOCATION_H_
