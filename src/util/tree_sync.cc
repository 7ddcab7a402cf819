// ReplaceChangedFiles (see tree_sync.h).
#include "util/tree_sync.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <vector>

namespace taco {
namespace {

namespace fs = std::filesystem;

// True when both regular files hold the same bytes (sizes first).
Result<bool> SameBytes(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(a, ec))) return false;
  if (fs::file_size(a, ec) != fs::file_size(b, ec) || ec) return false;
  const int fa = ::open(a.c_str(), O_RDONLY | O_CLOEXEC);
  if (fa < 0) return Status::IOError(a + ": cannot open: " + std::strerror(errno));
  const int fb = ::open(b.c_str(), O_RDONLY | O_CLOEXEC);
  if (fb < 0) {
    const int err = errno;
    ::close(fa);
    return Status::IOError(b + ": cannot open: " + std::strerror(err));
  }
  std::vector<char> ba(1 << 20), bb(1 << 20);
  bool same = true;
  while (same) {
    const ssize_t na = ::read(fa, ba.data(), ba.size());
    const ssize_t nb = na <= 0 ? na : ::read(fb, bb.data(), static_cast<size_t>(na));
    if (na < 0 || nb < 0) {
      ::close(fa);
      ::close(fb);
      return Status::IOError(a + ": read error while comparing: " + std::strerror(errno));
    }
    if (na == 0) break;
    same = nb == na && std::memcmp(ba.data(), bb.data(), static_cast<size_t>(na)) == 0;
  }
  ::close(fa);
  ::close(fb);
  return same;
}

int Rank(const std::string& relative) {
  if (relative.rfind("DATA/", 0) == 0) return 0;
  return relative == "COLLECTION.json" ? 2 : 1;
}

}  // namespace

Result<uint64_t> ReplaceChangedFiles(const std::string& dest_path, const std::string& fresh_path) {
  // Without trailing slashes, every listed path is "<root>/<relative>".
  auto trimmed = [](std::string p) {
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    return p;
  };
  const std::string dest = trimmed(dest_path), fresh = trimmed(fresh_path);
  std::error_code ec;
  std::vector<std::string> files;
  std::set<std::string> fresh_paths;
  for (auto it = fs::recursive_directory_iterator(fresh, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string rel = it->path().string().substr(fresh.size() + 1);
    fresh_paths.insert(rel);
    if (it->is_regular_file()) files.push_back(rel);
  }
  if (ec) return Status::IOError(fresh + ": cannot list: " + ec.message());
  std::stable_sort(files.begin(), files.end(),
                   [](const std::string& x, const std::string& y) { return Rank(x) < Rank(y); });
  uint64_t replaced = 0;
  for (const std::string& rel : files) {
    const std::string from = fresh + "/" + rel, to = dest + "/" + rel;
    TACO_ASSIGN_OR_RETURN(bool same, SameBytes(to, from));
    if (same) continue;
    fs::create_directories(fs::path(to).parent_path(), ec);
    if (ec) return Status::IOError(to + ": cannot create its directory: " + ec.message());
    if (fs::is_directory(fs::symlink_status(to, ec))) fs::remove_all(to, ec);
    if (::rename(from.c_str(), to.c_str()) != 0) {
      return Status::IOError(to + ": cannot replace: " + std::strerror(errno));
    }
    ++replaced;
  }
  // What the new tree lacks, deepest first.
  std::vector<std::string> stale;
  for (auto it = fs::recursive_directory_iterator(dest, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string rel = it->path().string().substr(dest.size() + 1);
    if (!fresh_paths.count(rel)) {
      stale.push_back(it->path().string());
      it.disable_recursion_pending();
    }
  }
  if (ec) return Status::IOError(dest + ": cannot list: " + ec.message());
  for (const std::string& p : stale) {
    fs::remove_all(p, ec);
    if (ec) return Status::IOError(p + ": cannot remove: " + ec.message());
  }
  fs::remove_all(fresh, ec);
  return replaced;
}

}  // namespace taco
