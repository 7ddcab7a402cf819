// Directory scanning and the --order file for TacoFromDirectory.
#include "write/tree_builder_scan.h"

#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

#include "taco/model.h"
#include "util/quote.h"
#include "write/metadata_files.h"

namespace taco::write {
namespace {

using util::Quote;

Status ErrnoStatus(const std::string& path, const std::string& what, int err) {
  std::string msg = path + ": " + what + ": " + std::strerror(err);
  return err == ENOENT || err == ENOTDIR ? Status::NotFound(msg) : Status::IOError(msg);
}

// Entry names of a directory (without "." and ".."), sorted by byte order.
Result<std::vector<std::string>> ListDirectory(const std::string& path) {
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(path.c_str()), &::closedir);
  if (!dir) return ErrnoStatus(path, "cannot read the directory", errno);
  std::vector<std::string> names;
  errno = 0;
  while (struct dirent* entry = ::readdir(dir.get())) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
    errno = 0;
  }
  if (errno != 0) return ErrnoStatus(path, "cannot read the directory", errno);
  std::sort(names.begin(), names.end());
  return names;
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

Status ScanInto(TreeNode* dir, const std::vector<std::string>& exclude) {
  TACO_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDirectory(dir->path));
  for (std::string& name : names) {
    if (name[0] == '.') continue;  // hidden entries are not samples
    TreeNode child;
    child.rel = dir->rel.empty() ? name : dir->rel + "/" + name;
    if (Excluded(exclude, name, child.rel)) continue;
    child.path = dir->path + "/" + name;
    child.level = dir->level + 1;
    Status id_status = ValidateSampleId(name);
    if (!id_status.ok()) return Status::InvalidArgument(child.path + ": bad sample id: " + id_status.message());
    child.id = std::move(name);
    struct stat lst;
    if (::lstat(child.path.c_str(), &lst) != 0) return ErrnoStatus(child.path, "cannot stat", errno);
    struct stat st = lst;
    if (S_ISLNK(lst.st_mode)) {
      if (::stat(child.path.c_str(), &st) != 0) {
        return Status::InvalidArgument(child.path + ": dangling symbolic link (" + std::strerror(errno) + ")");
      }
      if (S_ISDIR(st.st_mode)) {
        return Status::InvalidArgument(child.path +
                                       ": symbolic link to a directory (not followed; copy the directory or "
                                       "link its files instead)");
      }
    }
    if (S_ISDIR(st.st_mode)) {
      child.is_dir = true;
      TACO_RETURN_IF_ERROR(ScanInto(&child, exclude));
      if (child.children.empty()) {
        return Status::InvalidArgument(child.path +
                                       ": empty directory (a FOLDER sample needs at least one child; hidden "
                                       "entries do not count)");
      }
    } else if (!S_ISREG(st.st_mode)) {
      return Status::InvalidArgument(child.path + ": not a regular file or directory");
    } else {
      child.size = static_cast<uint64_t>(st.st_size);
    }
    dir->children.push_back(std::move(child));
  }
  return Status::OK();
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
  TACO_RETURN_IF_ERROR(ScanInto(&root, exclude));
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
