#include "served_tree.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cctype>
#include <climits>
#include <cstdlib>

namespace taco::cli::serve {
namespace {

std::optional<std::string> RealPath(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) == nullptr) return std::nullopt;
  return std::string(buf);
}

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IsRegularFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string BaseName(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string Parent(const std::string& real) {
  size_t slash = real.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : real.substr(0, slash);
}

bool EndsWithNoCase(const std::string& s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
  }
  return true;
}

bool IsZipName(const std::string& name) { return EndsWithNoCase(name, ".tacozip") || EndsWithNoCase(name, ".zip"); }

// Whether `real` is `root` or lies below it.
bool Inside(const std::string& real, const std::string& root) {
  if (real == root) return true;
  if (root == "/") return true;
  return real.size() > root.size() && real.compare(0, root.size(), root) == 0 && real[root.size()] == '/';
}

// The real targets of the symlinks under `dir`, followed into when they name directories (at
// most 4 levels, `budget` entries in all): the places a static tree of our build (the explorer,
// the package) links to, e.g. the pinned npm modules in the source tree.
void CollectLinkTargets(const std::string& dir, int depth, size_t& budget, std::vector<std::string>& out) {
  if (depth > 4) return;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = ::readdir(d)) {
    if (budget == 0) break;
    --budget;
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      std::optional<std::string> real = RealPath(path);
      if (!real) continue;
      bool known = false;
      for (const std::string& o : out) known = known || Inside(*real, o);
      if (known) continue;
      out.push_back(*real);
      if (IsDirectory(*real)) CollectLinkTargets(*real, depth + 1, budget, out);
    } else if (S_ISDIR(st.st_mode)) {
      CollectLinkTargets(path, depth + 1, budget, out);
    }
  }
  ::closedir(d);
}

// A static tree: its real directory, and what its files may resolve to.
Result<StaticTree> MakeStaticTree(const std::string& dir, const std::string& what) {
  std::optional<std::string> real = RealPath(dir);
  if (!real || !IsDirectory(*real)) return Status::NotFound(dir + ": the " + what + " directory does not exist");
  StaticTree tree;
  tree.root = *real;
  tree.allowed = {*real};
  size_t budget = 20000;
  CollectLinkTargets(*real, 0, budget, tree.allowed);
  return tree;
}

}  // namespace

std::string_view MountKindName(Mount::Kind kind) {
  switch (kind) {
    case Mount::kZip: return "ZIP";
    case Mount::kFolder: return "FOLDER";
    case Mount::kTacocatFolder: return "TACOCAT folder";
    case Mount::kTacocatFile: return "TACOCAT file";
  }
  return "?";
}

Status ServedTree::AddDataset(const std::string& path) {
  if (path.find("://") != std::string::npos) {
    return Status::InvalidArgument(path + ": taco serve serves local paths only");
  }
  std::optional<std::string> real = RealPath(path);
  if (!real) return Status::NotFound(path + ": no such file or directory");
  Mount mount;
  mount.source = path;
  std::string base = BaseName(*real);
  std::string tail;  // the dataset's path below the served directory
  if (IsRegularFile(*real)) {
    if (base == "__TACOCAT__") {
      mount.kind = Mount::kTacocatFile;
      mount.root = Parent(*real);
      tail = base;
    } else if (IsZipName(base)) {
      mount.kind = Mount::kZip;
      mount.root = *real;
    } else {
      return Status::InvalidArgument(path +
                                     ": not a dataset taco serve serves (a .tacozip/.zip file, a FOLDER "
                                     "dataset, a .tacocat folder or a __TACOCAT__ file)");
    }
  } else if (IsDirectory(*real)) {
    if (EndsWithNoCase(base, ".tacocat")) {
      mount.kind = Mount::kTacocatFolder;
      mount.root = Parent(*real);
      tail = base;
    } else if (IsRegularFile(*real + "/.tacocat/COLLECTION.json")) {
      mount.kind = Mount::kTacocatFolder;
      mount.root = *real;
      tail = ".tacocat";
    } else if (IsRegularFile(*real + "/COLLECTION.json")) {
      mount.kind = Mount::kFolder;
      mount.root = *real;
    } else {
      return Status::InvalidArgument(path +
                                     ": a directory with neither COLLECTION.json (FOLDER dataset) nor "
                                     ".tacocat/COLLECTION.json (TACOCAT)");
    }
  } else {
    return Status::InvalidArgument(path + ": not a regular file or directory");
  }
  std::string name = mount.kind == Mount::kZip ? base : BaseName(mount.root);
  if (name.empty() || name == "/" || name == "." || name == "..") name = "dataset";
  std::string unique = name;
  for (int n = 2;; ++n) {
    bool taken = false;
    for (const Mount& m : mounts_) taken = taken || m.name == unique;
    if (!taken) break;
    unique = name + "-" + std::to_string(n);
  }
  mount.name = unique;
  mount.url_path = "/data/" + unique;
  if (mount.kind == Mount::kFolder) mount.url_path += "/";
  if (!tail.empty()) mount.url_path += "/" + tail;
  mounts_.push_back(std::move(mount));
  return Status::OK();
}

Status ServedTree::SetExplorer(const std::string& dir) {
  Result<StaticTree> tree = MakeStaticTree(dir, "explorer");
  if (!tree.ok()) return tree.status();
  explorer_ = *tree;
  return Status::OK();
}

Status ServedTree::SetPackage(const std::string& dir) {
  Result<StaticTree> tree = MakeStaticTree(dir, "JavaScript package");
  if (!tree.ok()) return tree.status();
  package_ = *tree;
  return Status::OK();
}

std::optional<std::string> ServedTree::ResolveUnder(const std::string& root, const std::vector<std::string>& segments,
                                                    size_t from, const std::vector<std::string>& allowed_roots) const {
  std::string joined = root;
  for (size_t i = from; i < segments.size(); ++i) joined += "/" + segments[i];
  std::optional<std::string> real = RealPath(joined);
  if (!real) return std::nullopt;
  if (IsDirectory(*real)) {
    if (root != explorer_.root) return std::nullopt;  // datasets and package: files only, no listing
    real = RealPath(*real + "/index.html");
    if (!real) return std::nullopt;
  }
  if (!IsRegularFile(*real)) return std::nullopt;
  for (const std::string& allowed : allowed_roots) {
    if (Inside(*real, allowed)) return real;
  }
  return std::nullopt;
}

std::optional<std::string> ServedTree::Resolve(const std::vector<std::string>& segments) const {
  if (segments.size() >= 2 && segments[0] == "data") {
    for (const Mount& m : mounts_) {
      if (m.name != segments[1]) continue;
      switch (m.kind) {
        case Mount::kZip:
          if (segments.size() != 2 || !IsRegularFile(m.root)) return std::nullopt;
          return m.root;
        case Mount::kFolder: return ResolveUnder(m.root, segments, 2, {m.root});
        case Mount::kTacocatFolder:
        case Mount::kTacocatFile: {
          // The index (the .tacocat folder's files or __TACOCAT__) and the ZIPs it names, which
          // lie in the directory or below it (internal:source_file is relative to it).
          const std::string tail = m.url_path.substr(m.url_path.rfind('/') + 1);
          bool wanted = segments.size() >= 3 && IsZipName(segments.back());
          if (m.kind == Mount::kTacocatFile) wanted = wanted || (segments.size() == 3 && segments[2] == tail);
          if (m.kind == Mount::kTacocatFolder) wanted = wanted || (segments.size() == 4 && segments[2] == tail);
          if (!wanted) return std::nullopt;
          return ResolveUnder(m.root, segments, 2, {m.root});
        }
      }
      return std::nullopt;
    }
    return std::nullopt;
  }
  if (!segments.empty() && segments[0] == "taco" && !package_.root.empty()) {
    return ResolveUnder(package_.root, segments, 1, package_.allowed);
  }
  if (explorer_.root.empty()) return std::nullopt;
  return ResolveUnder(explorer_.root, segments, 0, explorer_.allowed);
}

}  // namespace taco::cli::serve
