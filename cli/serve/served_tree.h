// `taco serve`: what the server may send, and nothing else. Each dataset PATH becomes a mount
// under /data/<name>; the explorer directory (optional) is served at /, the JavaScript
// package (optional) at /taco/. A URL path resolves
// to a regular file only when its real path (symlinks followed) stays inside the mount's root
// and, for a TACOCAT, is its index or a .tacozip/.zip in or below its directory. No directory is ever listed.
//
// Built once before the server starts, then read-only: Resolve() is thread-safe.
#ifndef TACO_CLI_SERVE_SERVED_TREE_H_
#define TACO_CLI_SERVE_SERVED_TREE_H_

#include <optional>
#include <string>
#include <vector>

#include "taco/status.h"

namespace taco::cli::serve {

// One served dataset.
struct Mount {
  enum Kind { kZip, kFolder, kTacocatFolder, kTacocatFile } kind = kZip;
  std::string name;      // the URL segment after /data/
  std::string root;      // real path: the ZIP file, or the directory served
  std::string url_path;  // what a reader opens: "/data/x.tacozip", "/data/d/", "/data/d/.tacocat"
  std::string source;    // the PATH as given (for messages)
};

std::string_view MountKindName(Mount::Kind kind);

// A directory of static files of our build (the explorer, the JavaScript package).
struct StaticTree {
  std::string root;                  // real path; empty when not served
  std::vector<std::string> allowed;  // real paths its files may resolve to: root and its links' targets
};

class ServedTree {
 public:
  // Adds the dataset at `path` (a .tacozip/.zip file, a FOLDER dataset directory, a .tacocat
  // folder or a directory holding one, a __TACOCAT__ file). Errors name the path: missing,
  // not a dataset kind served. The name is the file or directory name, made unique.
  Status AddDataset(const std::string& path);
  // The explorer's static files, served at /; `dir` must be a directory.
  Status SetExplorer(const std::string& dir);
  // The JavaScript package (build/js/taco), served at /taco/ for pages that import it.
  Status SetPackage(const std::string& dir);

  const std::vector<Mount>& mounts() const { return mounts_; }
  bool has_explorer() const { return !explorer_.root.empty(); }
  bool has_package() const { return !package_.root.empty(); }

  // The real path of the regular file the URL path segments (TargetSegments) name, or
  // nullopt (answered 404): outside every root, a directory, a symlink leaving its root, a
  // file a TACOCAT mount does not serve. An empty segment list or a directory of the
  // explorer resolves to its index.html. In the explorer and the package, a symlink may lead
  // to the targets of the tree's own links (collected once, when it is set).
  std::optional<std::string> Resolve(const std::vector<std::string>& segments) const;

 private:
  std::optional<std::string> ResolveUnder(const std::string& root, const std::vector<std::string>& segments,
                                          size_t from, const std::vector<std::string>& allowed_roots) const;

  std::vector<Mount> mounts_;
  // Symlinks in these trees may lead to their targets (the build links the npm modules).
  StaticTree explorer_;
  StaticTree package_;
};

}  // namespace taco::cli::serve

#endif  // TACO_CLI_SERVE_SERVED_TREE_H_
