// Internal to TacoFromDirectory: the scanned directory tree and the --order file.
//
// ScanDirectory walks `src` (see taco/tree_builder.h for what becomes a sample and what is
// an error) and sorts siblings by name (byte order). ApplyOrderFile re-sorts siblings:
// listed ones first in the listed order, then the rest by name.
#ifndef TACO_WRITE_TREE_BUILDER_SCAN_H_
#define TACO_WRITE_TREE_BUILDER_SCAN_H_

#include <cstddef>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "taco/status.h"
#include "taco/value.h"

namespace taco::write {

struct TreeNode {
  std::string id;    // the entry name ("" for the root)
  std::string rel;   // path relative to src, '/'-separated ("" for the root)
  std::string path;  // src + "/" + rel, for opening and messages
  bool is_dir = false;
  uint64_t size = 0;                                       // files: the size the scan's stat gave
  int level = -1;                                          // 0 for src's entries; -1 for the root itself
  std::vector<TreeNode> children;                          // directories only, in sample order
  std::vector<Field> fields;                               // extension fields, filled by the builder
  size_t order_rank = std::numeric_limits<size_t>::max();  // line in the order file
};

// The tree under `src` (the returned node is src itself).
// Entries matching a glob of `exclude` (DirectoryOptions::exclude) are skipped.
Result<TreeNode> ScanDirectory(const std::string& src, const std::vector<std::string>& exclude = {});

// Reorders siblings as the order file says.
Status ApplyOrderFile(const std::string& order_file, TreeNode* root);

// Every node under `root` by its `rel` path. Pointers stay valid until the tree changes.
std::unordered_map<std::string, TreeNode*> IndexNodes(TreeNode* root);

}  // namespace taco::write

#endif  // TACO_WRITE_TREE_BUILDER_SCAN_H_
