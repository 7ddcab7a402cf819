#include "write/folder_shares.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace taco::write {
namespace {

constexpr size_t kNone = std::numeric_limits<size_t>::max();

std::string_view ParentOf(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash + 1);
}

// For every folder of t.folder_meta (by its path "DATA/a/"), the first file under it, or kNone.
std::unordered_map<std::string_view, size_t> FirstFileOfEachFolder(const model::LevelTables& t) {
  std::unordered_map<std::string_view, size_t> first;
  first.reserve(t.folder_meta.size());
  for (const auto& [folder, meta] : t.folder_meta) first.emplace(folder, kNone);
  for (size_t i = 0; i < t.files.size(); ++i) {
    std::string_view path = t.files[i].first;
    // Deepest folder first: once one already has its first file, so have all above it.
    for (size_t slash = path.rfind('/'); slash != std::string_view::npos && slash > 0;
         slash = path.rfind('/', slash - 1)) {
      auto it = first.find(path.substr(0, slash + 1));
      if (it == first.end()) continue;
      if (it->second != kNone) break;
      it->second = i;
    }
  }
  return first;
}

}  // namespace

std::vector<FolderShare> ShareFolderWrites(const model::LevelTables& t, size_t count, uint64_t last_extra) {
  count = std::max<size_t>(count, 1);
  const size_t n = t.files.size();
  const std::unordered_map<std::string_view, size_t> first = FirstFileOfEachFolder(t);

  std::vector<uint64_t> weight(n);
  for (size_t i = 0; i < n; ++i) weight[i] = 1 + t.files[i].second->size_bytes() / kBytesPerInode;
  std::vector<size_t> meta_file(t.folder_meta.size());
  for (size_t k = 0; k < t.folder_meta.size(); ++k) {
    meta_file[k] = first.at(t.folder_meta[k].first);
    if (meta_file[k] != kNone) ++weight[meta_file[k]];
  }
  std::vector<uint64_t> running(n + 1, 0);  // running[i]: weight of files [0, i)
  for (size_t i = 0; i < n; ++i) running[i + 1] = running[i] + weight[i];

  // cut[j]: where share j begins; first by weight alone, then moved to a directory change.
  std::vector<size_t> cut(count + 1, n);
  cut[0] = 0;
  for (size_t j = 1; j < count; ++j) {
    const uint64_t target = ((running[n] + last_extra) * j + count - 1) / count;
    cut[j] = static_cast<size_t>(std::lower_bound(running.begin(), running.end(), target) - running.begin());
    cut[j] = std::min(cut[j], n);
  }
  for (size_t j = 1; j < count; ++j) {
    const size_t limit = cut[j + 1];
    size_t at = std::max(cut[j], cut[j - 1]);
    while (at > 0 && at < limit && ParentOf(t.files[at].first) == ParentOf(t.files[at - 1].first)) ++at;
    if (at < limit) cut[j] = at;  // a directory change in reach; else the cut by weight stays
    cut[j] = std::max(cut[j], cut[j - 1]);
  }

  std::vector<FolderShare> shares(count);
  for (size_t j = 0; j < count; ++j) {
    shares[j].file_begin = cut[j];
    shares[j].file_end = cut[j + 1];
  }
  for (size_t k = 0; k < meta_file.size(); ++k) {
    size_t j = 0;
    if (meta_file[k] != kNone) {
      j = static_cast<size_t>(std::upper_bound(cut.begin(), cut.end(), meta_file[k]) - cut.begin()) - 1;
      j = std::min(j, count - 1);
    }
    shares[j].metas.push_back(k);
  }
  return shares;
}

}  // namespace taco::write
