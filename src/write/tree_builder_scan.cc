// Directory scanning and the --order file for TacoFromDirectory.
#include "write/tree_builder_scan.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "taco/model.h"
#include "util/ordered_parallel.h"
#include "util/quote.h"
#include "write/metadata_files.h"

namespace taco::write {
namespace {

using util::Quote;

Status ErrnoStatus(const std::string& path, const std::string& what, int err) {
  std::string msg = path + ": " + what + ": " + std::strerror(err);
  return err == ENOENT || err == ENOTDIR ? Status::NotFound(msg) : Status::IOError(msg);
}

// An entry of a directory listing: its name and the type getdents reported (DT_UNKNOWN
// when the file system does not say).
struct DirEntry {
  std::string name;
  unsigned char type = DT_UNKNOWN;
};

// An open directory descriptor, closed with the handle.
class DirHandle {
 public:
  DirHandle() = default;
  explicit DirHandle(int fd) : fd_(fd) {}
  DirHandle(DirHandle&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  DirHandle& operator=(DirHandle&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  ~DirHandle() { reset(); }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int fd() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// The directory `name` of `parent_fd` (AT_FDCWD: `name` is a path) open for reading; `path`
// names it in errors. `no_follow`: a symbolic link is refused (ELOOP) instead of followed.
Result<DirHandle> OpenDirectory(int parent_fd, const char* name, const std::string& path, bool no_follow = false) {
  const int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (no_follow ? O_NOFOLLOW : 0));
  if (fd < 0) return ErrnoStatus(path, "cannot read the directory", errno);
  return DirHandle(fd);
}

// Entries of the directory open at `fd` (without "." and ".."), sorted by name (byte
// order). getdents64 itself, not fdopendir/readdir: those cost an fstat and an fcntl per
// directory (20,000 syscalls for a tree of 10,000 folders).
Result<std::vector<DirEntry>> ListDirectory(int fd, const std::string& path) {
  alignas(8) char buffer[32768];
  std::vector<DirEntry> entries;
  for (;;) {
    const ssize_t n = ::getdents64(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus(path, "cannot read the directory", errno);
    if (n == 0) break;
    for (ssize_t at = 0; at < n;) {
      const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + at);
      const char* name = entry->d_name;
      if (!(name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))) {
        entries.push_back({name, entry->d_type});
      }
      at += entry->d_reclen;
    }
  }
  std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return entries;
}

bool Excluded(const std::vector<std::string>& exclude, const std::string& name, const std::string& rel) {
  for (const std::string& glob : exclude) {
    if (glob.find('/') != std::string::npos ? ::fnmatch(glob.c_str(), rel.c_str(), FNM_PATHNAME) == 0
                                            : ::fnmatch(glob.c_str(), name.c_str(), 0) == 0) {
      return true;
    }
  }
  return false;
}

Status ScanInto(int dir_fd, TreeNode* dir, const std::vector<std::string>& exclude);

// The node of `entry` of the directory `dir` (open at `dir_fd`), its subtree scanned; nullopt
// for a hidden or excluded entry. Paths are looked up relative to `dir_fd` (one component);
// a directory that getdents reports as one is not stat'ed, a regular file once (its size).
Result<std::optional<TreeNode>> ScanEntry(int dir_fd, const TreeNode& dir, DirEntry& entry,
                                          const std::vector<std::string>& exclude) {
  std::string& name = entry.name;
  if (name[0] == '.') return std::optional<TreeNode>();  // hidden entries are not samples
  TreeNode child;
  child.rel = dir.rel.empty() ? name : dir.rel + "/" + name;
  if (Excluded(exclude, name, child.rel)) return std::optional<TreeNode>();
  child.path = dir.path + "/" + name;
  child.level = dir.level + 1;
  Status id_status = ValidateSampleId(name);
  if (!id_status.ok()) return Status::InvalidArgument(child.path + ": bad sample id: " + id_status.message());
  DirHandle child_dir;
  if (entry.type == DT_DIR) {
    // Not followed: replaced by a symbolic link since the listing, it gets the checks below.
    Result<DirHandle> opened = OpenDirectory(dir_fd, name.c_str(), child.path, /*no_follow=*/true);
    if (opened.ok()) child_dir = std::move(*opened);
  }
  if (!child_dir) {
    struct stat lst;
    if (::fstatat(dir_fd, name.c_str(), &lst, AT_SYMLINK_NOFOLLOW) != 0) {
      return ErrnoStatus(child.path, "cannot stat", errno);
    }
    struct stat st = lst;
    if (S_ISLNK(lst.st_mode)) {
      if (::fstatat(dir_fd, name.c_str(), &st, 0) != 0) {
        return Status::InvalidArgument(child.path + ": dangling symbolic link (" + std::strerror(errno) + ")");
      }
      if (S_ISDIR(st.st_mode)) {
        return Status::InvalidArgument(child.path +
                                       ": symbolic link to a directory (not followed; copy the directory or "
                                       "link its files instead)");
      }
    }
    if (S_ISDIR(st.st_mode)) {
      TACO_ASSIGN_OR_RETURN(child_dir, OpenDirectory(dir_fd, name.c_str(), child.path));
    } else if (!S_ISREG(st.st_mode)) {
      return Status::InvalidArgument(child.path + ": not a regular file or directory");
    } else {
      child.size = static_cast<uint64_t>(st.st_size);
    }
  }
  child.id = std::move(name);
  if (child_dir) {
    child.is_dir = true;
    TACO_RETURN_IF_ERROR(ScanInto(child_dir.fd(), &child, exclude));
    child_dir.reset();
    if (child.children.empty()) {
      return Status::InvalidArgument(child.path +
                                     ": empty directory (a FOLDER sample needs at least one child; hidden "
                                     "entries do not count)");
    }
  }
  return std::optional<TreeNode>(std::move(child));
}

Status ScanInto(int dir_fd, TreeNode* dir, const std::vector<std::string>& exclude) {
  TACO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, ListDirectory(dir_fd, dir->path));
  dir->children.reserve(entries.size());
  for (DirEntry& entry : entries) {
    TACO_ASSIGN_OR_RETURN(std::optional<TreeNode> child, ScanEntry(dir_fd, *dir, entry, exclude));
    if (child) dir->children.push_back(std::move(*child));
  }
  return Status::OK();
}

// The root's entries, each with its subtree, scanned on two workers in batches of kScanBatch
// entries and appended in name order (util::OrderedParallel: the tree and the first error in
// that order do not depend on the threads).
constexpr size_t kScanBatch = 16;

Status ScanRoot(int root_fd, TreeNode* root, const std::vector<std::string>& exclude) {
  TACO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, ListDirectory(root_fd, root->path));
  root->children.reserve(entries.size());
  const size_t batches = (entries.size() + kScanBatch - 1) / kScanBatch;
  const size_t threads = std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  using Batch = std::vector<Result<std::optional<TreeNode>>>;
  return util::OrderedParallel(
      batches, threads, 4 * threads,
      [&](size_t b) {
        Batch batch;
        for (size_t i = b * kScanBatch; i < std::min(entries.size(), (b + 1) * kScanBatch); ++i) {
          batch.push_back(ScanEntry(root_fd, *root, entries[i], exclude));
          if (!batch.back().ok()) break;  // the first error of the batch is the one reported
        }
        return batch;
      },
      [&](size_t, Batch batch) -> Status {
        for (Result<std::optional<TreeNode>>& child : batch) {
          if (!child.ok()) return child.status();
          if (*child) root->children.push_back(std::move(**child));
        }
        return Status::OK();
      });
}

void SortByRank(TreeNode* dir) {
  std::stable_sort(dir->children.begin(), dir->children.end(), [](const TreeNode& a, const TreeNode& b) {
    if (a.order_rank != b.order_rank) return a.order_rank < b.order_rank;
    return a.id < b.id;
  });
  for (TreeNode& child : dir->children) {
    if (child.is_dir) SortByRank(&child);
  }
}

void IndexInto(TreeNode* node, std::unordered_map<std::string, TreeNode*>* index) {
  for (TreeNode& child : node->children) {
    index->emplace(child.rel, &child);
    if (child.is_dir) IndexInto(&child, index);
  }
}

}  // namespace

Result<TreeNode> ScanDirectory(const std::string& src, const std::vector<std::string>& exclude) {
  struct stat st;
  if (::stat(src.c_str(), &st) != 0) return ErrnoStatus(src, "cannot open the source directory", errno);
  if (!S_ISDIR(st.st_mode)) return Status::InvalidArgument(src + ": not a directory");
  TreeNode root;
  root.path = src;
  while (root.path.size() > 1 && root.path.back() == '/') root.path.pop_back();
  root.is_dir = true;
  root.level = -1;
  TACO_ASSIGN_OR_RETURN(DirHandle root_dir, OpenDirectory(AT_FDCWD, src.c_str(), root.path));
  TACO_RETURN_IF_ERROR(ScanRoot(root_dir.fd(), &root, exclude));
  if (root.children.empty()) {
    return Status::InvalidArgument(src + ": no samples (the directory is empty; hidden entries do not count)");
  }
  return root;
}

std::unordered_map<std::string, TreeNode*> IndexNodes(TreeNode* root) {
  std::unordered_map<std::string, TreeNode*> index;
  IndexInto(root, &index);
  return index;
}

Status ApplyOrderFile(const std::string& order_file, TreeNode* root) {
  std::ifstream in(order_file, std::ios::binary);
  if (!in) return ErrnoStatus(order_file, "cannot open", errno);
  std::unordered_map<std::string, TreeNode*> index = IndexNodes(root);
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos) continue;
    const size_t end = line.find_last_not_of(" \t\r");
    const std::string rel = NormalizeRelativePath(std::string_view(line).substr(begin, end - begin + 1));
    const std::string where = order_file + ":" + std::to_string(line_no);
    auto it = rel.empty() ? index.end() : index.find(rel);
    if (it == index.end()) {
      return Status::InvalidArgument(where + ": " + Quote(line.substr(begin, end - begin + 1)) +
                                     " is not a sample under " + root->path);
    }
    if (it->second->order_rank != std::numeric_limits<size_t>::max()) {
      return Status::InvalidArgument(where + ": " + Quote(rel) + " is already listed at line " +
                                     std::to_string(it->second->order_rank));
    }
    it->second->order_rank = line_no;
  }
  if (in.bad()) return Status::IOError(order_file + ": read failed");
  SortByRank(root);
  return Status::OK();
}

}  // namespace taco::write
