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

namespace {

// `base` with the bytes [start, start + held.size()) already in memory: reads inside them
// cost nothing, others go to `base`.
class HeldTailReader final : public RangeReader {
 public:
  HeldTailReader(RangeReaderPtr base, uint64_t start, std::string held)
      : base_(std::move(base)), start_(start), held_(std::move(held)) {}
  uint64_t size() const override { return base_->size(); }
  const std::string& name() const override { return base_->name(); }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    if (offset >= start_ && offset - start_ <= held_.size() && held_.size() - (offset - start_) >= n) {
      if (n > 0) std::memcpy(out, held_.data() + (offset - start_), n);
      return Status::OK();
    }
    return base_->ReadAt(offset, n, out);
  }

 private:
  RangeReaderPtr base_;
  uint64_t start_;
  std::string held_;
};

// The most ExpectDirectoryAfter reads at once (a central directory of about 250,000 members):
// a file whose metadata is not last costs at most this much more; a bigger directory is read
// in two requests (its end record, then itself).
constexpr uint64_t kMaxHeldTail = uint64_t{16} << 20;

}  // namespace

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
  uint64_t directory_after = UINT64_MAX;              // ExpectDirectoryAfter
  std::vector<std::pair<uint64_t, uint64_t>> stored;  // AddStoredRanges: (offset, size), sorted
  std::unordered_map<std::string, Member> members;    // by archive path, once directory_read

  // Reads the central directory (once): in one read from directory_after when it is set.
  std::string ReadDirectory() {
    RangeReaderPtr through = reader;
    const uint64_t size = reader->size();
    if (directory_after < size && size - directory_after <= kMaxHeldTail) {
      Result<std::string> tail = reader->Read(directory_after, static_cast<size_t>(size - directory_after));
      if (!tail.ok()) return "cannot read the central directory of " + name + ": " + tail.status().message();
      through = std::make_shared<HeldTailReader>(reader, directory_after, std::move(*tail));
    }
    Result<std::vector<zip::ZipEntry>> entries = zip::ReadCentralDirectory(*through, false, /*small_tail_first=*/true);
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

  // Whether `offset` may be `m`'s data: after its local header and name, its bytes ending
  // before the next member's local header. No other member's data can lie there (a few bytes
  // off inside the header's extra field is caught by the CRC check of the read).
  static bool InsideSpan(const Member& m, uint64_t offset, std::string_view archive_path) {
    return offset >= m.lfh + 30 + archive_path.size() && offset <= m.bound && m.bound - offset >= m.size;
  }

  // The data offset of `m` as one of the stored ranges: the only one inside its span, with
  // its size.
  bool DataOffsetFromStored(Member& m, std::string_view archive_path) {
    const std::pair<uint64_t, uint64_t> from{m.lfh + 30 + archive_path.size(), 0};
    auto it = std::lower_bound(stored.begin(), stored.end(), from);
    if (it == stored.end() || it->second != m.size || !InsideSpan(m, it->first, archive_path)) return false;
    if (std::next(it) != stored.end() && InsideSpan(m, std::next(it)->first, archive_path)) return false;  // ambiguous
    m.data = static_cast<int64_t>(it->first);
    return true;
  }

  // The data offset of `m` from its local header, which must agree with the central
  // directory: the same name and, when the local header states it (no data descriptor, no
  // ZIP64), the same size. Else the ZIP is damaged and the member is not served. One read:
  // the header and a name of the expected length.
  std::string DataOffset(Member& m, std::string_view archive_path) {
    if (m.data >= 0 || DataOffsetFromStored(m, archive_path)) return "";
    std::string header(30 + archive_path.size(), '\0');
    const unsigned char* h = reinterpret_cast<const unsigned char*>(header.data());
    if (m.lfh > reader->size() || reader->size() - m.lfh < header.size()) return "a local header lies outside " + name;
    Status st = reader->ReadAt(m.lfh, header.size(), header.data());
    if (!st.ok()) return st.message();
    if (h[0] != 'P' || h[1] != 'K' || h[2] != 3 || h[3] != 4) {
      return "no local header at byte " + std::to_string(m.lfh) + " of " + name;
    }
    const uint64_t name_len = h[26] | (uint64_t{h[27]} << 8);
    const uint64_t extra_len = h[28] | (uint64_t{h[29]} << 8);
    const bool descriptor = (h[6] & 0x08) != 0;
    const uint64_t local_size = h[18] | (uint64_t{h[19]} << 8) | (uint64_t{h[20]} << 16) | (uint64_t{h[21]} << 24);
    std::string local_name = header.substr(30);
    if (name_len != archive_path.size()) {
      local_name.assign(name_len, '\0');
      if (name_len > 0 && !reader->ReadAt(m.lfh + 30, name_len, local_name.data()).ok()) local_name.clear();
    }
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

void MemberResolver::ExpectDirectoryAfter(uint64_t offset) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = zips_.find("");
  if (it != zips_.end()) it->second->directory_after = offset;
}

void MemberResolver::AddStoredRanges(const std::string& container,
                                     const std::vector<std::pair<int64_t, int64_t>>& ranges) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::pair<uint64_t, uint64_t>>* into = &stored_[container];
  if (auto it = zips_.find(container); it != zips_.end()) into = &it->second->stored;
  for (const auto& [offset, size] : ranges) {
    if (offset >= 0 && size >= 0) into->emplace_back(static_cast<uint64_t>(offset), static_cast<uint64_t>(size));
  }
  std::sort(into->begin(), into->end());
  into->erase(std::unique(into->begin(), into->end()), into->end());
}

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
  if (auto stored = stored_.find(container); stored != stored_.end()) zip->stored = std::move(stored->second);
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
  // The stored range is the member's when it has the member's size and lies in its span
  // (InsideSpan). No read needed.
  if (problem.empty() && static_cast<uint64_t>(size) == m.size &&
      Zip::InsideSpan(m, static_cast<uint64_t>(offset), archive_path)) {
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
