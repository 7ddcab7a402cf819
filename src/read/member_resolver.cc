#include "read/member_resolver.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

#include "format/zip/zip_reader.h"
#include "read/path_safety.h"
#include "taco/log.h"

namespace taco::read {

struct MemberResolver::Zip {
  struct Member {
    uint64_t lfh = 0;
    uint64_t size = 0;
    uint64_t bound = 0;  // where the next member's local header (or the file) ends it
    int64_t data = -1;   // the data offset once a local header was read
  };
  std::mutex mu;
  RangeReaderPtr reader;
  std::string name;  // for messages
  bool directory_read = false;
  bool warned = false;
  std::unordered_map<std::string, Member> members;  // by archive path, once directory_read

  // Reads the central directory (once).
  std::string ReadDirectory() {
    Result<std::vector<zip::ZipEntry>> entries = zip::ReadCentralDirectory(*reader, false, /*small_tail_first=*/true);
    if (!entries.ok()) return "cannot read the central directory of " + name + ": " + entries.status().message();
    std::vector<uint64_t> starts;
    starts.reserve(entries->size());
    for (const zip::ZipEntry& e : *entries) starts.push_back(e.lfh_offset);
    std::sort(starts.begin(), starts.end());
    members.reserve(entries->size());
    for (zip::ZipEntry& e : *entries) {
      auto next = std::upper_bound(starts.begin(), starts.end(), e.lfh_offset);
      const uint64_t bound = next == starts.end() ? reader->size() : *next;
      members.emplace(std::move(e.name), Member{e.lfh_offset, e.compressed_size, bound, -1});
    }
    directory_read = true;
    return "";
  }

  // The data offset of `m` from its local header, which must agree with the central
  // directory: the same name and, when the local header states it (no data descriptor, no
  // ZIP64), the same size. Else the ZIP is damaged and the member is not served.
  std::string DataOffset(Member& m, std::string_view archive_path) {
    if (m.data >= 0) return "";
    unsigned char h[30];
    if (m.lfh > reader->size() || reader->size() - m.lfh < sizeof(h)) return "a local header lies outside " + name;
    Status st = reader->ReadAt(m.lfh, sizeof(h), h);
    if (!st.ok()) return st.message();
    if (h[0] != 'P' || h[1] != 'K' || h[2] != 3 || h[3] != 4) {
      return "no local header at byte " + std::to_string(m.lfh) + " of " + name;
    }
    const uint64_t name_len = h[26] | (uint64_t{h[27]} << 8);
    const uint64_t extra_len = h[28] | (uint64_t{h[29]} << 8);
    const bool descriptor = (h[6] & 0x08) != 0;
    const uint64_t local_size = h[18] | (uint64_t{h[19]} << 8) | (uint64_t{h[20]} << 16) | (uint64_t{h[21]} << 24);
    std::string local_name(name_len, '\0');
    if (name_len > 0 && !reader->ReadAt(m.lfh + 30, name_len, local_name.data()).ok()) local_name.clear();
    const std::string damaged = name + " is damaged: the central directory and the local header of '" +
                                std::string(archive_path) + "' disagree";
    if (local_name != archive_path) return damaged + " (the local header names '" + local_name + "')";
    if (!descriptor && local_size != 0xFFFFFFFFu && local_size != m.size) {
      return damaged + " (size " + std::to_string(m.size) + " against " + std::to_string(local_size) + ")";
    }
    m.data = static_cast<int64_t>(m.lfh + 30 + name_len + extra_len);
    return "";
  }
};

MemberResolver::MemberResolver(std::string dataset, RangeReaderPtr own) : dataset_(std::move(dataset)) {
  if (own != nullptr) {
    auto zip = std::make_unique<Zip>();
    zip->reader = std::move(own);
    zip->name = dataset_;
    zips_.emplace("", std::move(zip));
  }
}

MemberResolver::~MemberResolver() = default;

MemberResolver::Zip* MemberResolver::FindZip(std::string_view container, std::string* problem) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = zips_.find(container);
  if (it != zips_.end()) return it->second.get();
  if (container.empty()) {
    *problem = "no ZIP container";
    return nullptr;
  }
  Result<RangeReaderPtr> reader = OpenRangeReader(std::string(container));
  if (!reader.ok()) {
    *problem = reader.status().message();
    return nullptr;
  }
  auto zip = std::make_unique<Zip>();
  zip->reader = std::move(*reader);
  zip->name = std::string(container);
  return zips_.emplace(std::string(container), std::move(zip)).first->second.get();
}

namespace {

// "DATA/a/b.tif" → "b.tif"; "DATA/a/__meta__" → "a".
std::string_view IdOfArchivePath(std::string_view path) {
  constexpr std::string_view kMeta = "/__meta__";
  if (path.size() > kMeta.size() && path.substr(path.size() - kMeta.size()) == kMeta) {
    path.remove_suffix(kMeta.size());
  }
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string MemberResolver::Resolve(int64_t offset, int64_t size, std::string_view archive_path,
                                    std::string_view container, std::string_view id, std::string* range) {
  // The id rule first, so that a bad id is refused in the words of the other guards.
  if (std::string bad = StoredIdProblem(id, false); !bad.empty()) return bad;
  if (IdOfArchivePath(archive_path) != id) {
    return "the stored path of sample '" + std::string(id) + "' is '" + std::string(archive_path) +
           "', which names another sample";
  }
  std::string problem;
  Zip* zip = FindZip(container, &problem);
  if (zip == nullptr) return problem;
  std::lock_guard<std::mutex> lock(zip->mu);
  problem = RangeProblem(offset, size, static_cast<int64_t>(zip->reader->size()));
  if (!zip->directory_read) {
    std::string error = zip->ReadDirectory();
    if (!error.empty()) return error;
  }
  auto it = zip->members.find(std::string(archive_path));
  if (it == zip->members.end()) {
    return zip->name + " has no member named '" + std::string(archive_path) + "' (sample '" + std::string(id) + "')";
  }
  Zip::Member& m = it->second;
  // The stored range is the member's when it has the member's size, starts after the
  // member's local header and ends before the next member's: no other member's data can
  // lie there (a few bytes off inside the header's extra field is caught by the CRC check
  // of the read). No read needed.
  const uint64_t u_offset = static_cast<uint64_t>(offset);
  if (problem.empty() && static_cast<uint64_t>(size) == m.size && u_offset >= m.lfh + 30 + archive_path.size() &&
      u_offset <= m.bound && m.bound - u_offset >= m.size) {
    *range = std::to_string(offset) + "_" + std::to_string(size);
    return "";
  }
  std::string error = zip->DataOffset(m, archive_path);
  if (!error.empty()) return error;
  if (m.data < 0 || static_cast<uint64_t>(m.data) > zip->reader->size() ||
      zip->reader->size() - static_cast<uint64_t>(m.data) < m.size) {
    return "member '" + std::string(archive_path) + "' of " + zip->name + " lies outside the file";
  }
  if (!zip->warned && LogEnabled(LogLevel::kVerbose)) {
    zip->warned = true;
    Log(LogLevel::kVerbose, dataset_ + ": the stored byte range of '" + std::string(archive_path) + "' (" +
                                std::to_string(offset) + ", " + std::to_string(size) +
                                ") is not that member's; using its range in " + zip->name +
                                " (further disagreements are not logged)");
  }
  *range = std::to_string(m.data) + "_" + std::to_string(m.size);
  return "";
}

}  // namespace taco::read
