// OpenContainer() and the two ContainerReaders: see container_reader.h.
#include "io/container_reader.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "io/cache.h"
#include "io/http_client.h"
#include "io/http_reader.h"
#include "io/range_check.h"

namespace taco::io {
namespace {

constexpr uint64_t kMaxGap = 4ULL * 1024 * 1024;

// A local file: every read goes to the file, nothing is prefetched.
class LocalContainer final : public ContainerReader {
 public:
  explicit LocalContainer(RangeReaderPtr file) : file_(std::move(file)) {}
  uint64_t size() const override { return file_->size(); }
  const std::string& name() const override { return file_->name(); }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override { return file_->ReadAt(offset, n, out); }
  Status Prefetch(const PrefetchPlan&) override { return Status::OK(); }
  bool Holds(uint64_t, uint64_t) const override { return true; }

 private:
  RangeReaderPtr file_;
};

struct Span {
  uint64_t offset = 0;
  std::string bytes;
};

// A remote object: reads inside the prefetched (or cached) spans are served from memory,
// the others go to the base reader (one request each).
class RemoteContainer final : public ContainerReader {
 public:
  RemoteContainer(RangeReaderPtr base, std::string key, std::optional<HttpValidator> live, std::string live_prefix,
                  std::optional<ZipCacheEntry> cached, bool vouched, bool use_cache)
      : base_(std::move(base)),
        key_(std::move(key)),
        live_(std::move(live)),
        live_prefix_(std::move(live_prefix)),
        cached_(std::move(cached)),
        vouched_(vouched),
        use_cache_(use_cache) {
    if (vouched_ && cached_) spans_.push_back({0, cached_->header});  // the header without a request
  }

  uint64_t size() const override { return base_->size(); }
  const std::string& name() const override { return base_->name(); }
  bool served_from_cache() const override { return from_cache_; }

  bool Holds(uint64_t offset, uint64_t n) const override {
    if (offset >= size()) return false;
    n = std::min(n, size() - offset);
    if (offset + n <= live_prefix_.size()) return true;
    for (const Span& s : spans_) {
      if (offset >= s.offset && n <= s.bytes.size() && offset - s.offset <= s.bytes.size() - n) return true;
    }
    return false;
  }

  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    TACO_RETURN_IF_ERROR(CheckRange(name(), offset, n, size()));
    for (const Span& s : spans_) {
      if (offset >= s.offset && n <= s.bytes.size() && offset - s.offset <= s.bytes.size() - n) {
        if (n > 0) std::memcpy(out, s.bytes.data() + (offset - s.offset), n);
        return Status::OK();
      }
    }
    TACO_RETURN_IF_ERROR(base_->ReadAt(offset, n, out));
    if (offset == 0 && use_cache_) {  // the first bytes, kept for the cache entry
      std::lock_guard<std::mutex> lock(mu_);
      if (head_.size() < n) head_.assign(static_cast<const char*>(out), n);
    }
    return Status::OK();
  }

  Status Prefetch(const PrefetchPlan& plan) override {
    uint64_t total = 0;
    for (const auto& r : plan.ranges) total += r.length;  // each inside the object: no overflow in practice
    if (plan.max_bytes > 0 && total > plan.max_bytes) {
      return Status::Corruption(name() + ": " + plan.what + " " + std::to_string(total) +
                                " bytes of metadata, more than the " + std::to_string(plan.max_bytes) +
                                " a remote dataset may fetch into memory");
    }
    std::vector<ByteRange> wide;
    for (const auto& group : GroupRanges(plan.ranges)) {
      const ByteRange& first = plan.ranges[group.front()];
      const ByteRange& last = plan.ranges[group.back()];
      const uint64_t end = std::min(size(), last.offset + last.length);
      wide.push_back({first.offset, end - first.offset});
    }
    if (CacheServes(plan, wide)) {
      for (size_t i = 0; i < wide.size(); ++i) spans_.push_back({wide[i].offset, std::move(cached_->members[i])});
      from_cache_ = true;
      return Status::OK();
    }
    std::vector<Span> fetched;
    for (const ByteRange& r : wide) {
      TACO_ASSIGN_OR_RETURN(std::string bytes, base_->Read(r.offset, static_cast<size_t>(r.length)));
      fetched.push_back({r.offset, std::move(bytes)});
    }
    if (use_cache_) Store(plan, fetched);
    for (Span& s : fetched) spans_.push_back(std::move(s));
    return Status::OK();
  }

 private:
  std::string LivePrefix() const {
    if (!live_prefix_.empty()) return live_prefix_;
    std::lock_guard<std::mutex> lock(mu_);
    return head_;
  }

  bool CacheServes(const PrefetchPlan& plan, const std::vector<ByteRange>& wide) const {
    if (!cached_ || !live_ || cached_->members.size() != wide.size()) return false;
    for (size_t i = 0; i < wide.size(); ++i) {
      if (cached_->members[i].size() != wide[i].length) return false;
    }
    if (vouched_) return true;  // the version asked at open matched the entry's
    if (!SameVersion(cached_->validator, *live_)) return false;
    const size_t k = static_cast<size_t>(plan.validated_prefix);
    return cached_->header.substr(0, k) == live_prefix_.substr(0, k);
  }

  void Store(const PrefetchPlan& plan, const std::vector<Span>& fetched) const {
    if (!live_ || live_->size != size()) return;
    ZipCacheEntry entry;
    entry.url = key_;
    entry.validator = *live_;
    entry.header = LivePrefix().substr(0, static_cast<size_t>(plan.validated_prefix));
    for (const Span& s : fetched) entry.members.push_back(s.bytes);
    (void)StoreZipCache(entry);  // a cache that cannot be written only costs requests later
  }

  RangeReaderPtr base_;
  std::string key_;
  std::optional<HttpValidator> live_;
  std::string live_prefix_;  // http: the read-ahead bytes
  std::optional<ZipCacheEntry> cached_;
  bool vouched_;  // VSI: the entry has the version asked at open
  bool use_cache_;
  bool from_cache_ = false;
  std::vector<Span> spans_;  // written by Prefetch() only, before the reader is shared
  mutable std::mutex mu_;
  mutable std::string head_;  // VSI: the first bytes read, for the cache entry
};

}  // namespace

std::vector<std::vector<size_t>> GroupRanges(const std::vector<ByteRange>& ranges) {
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < ranges.size(); ++i) {
    const ByteRange& r = ranges[i];
    if (r.length == 0) continue;
    if (!groups.empty()) {
      const ByteRange& prev = ranges[groups.back().back()];
      const uint64_t prev_end = prev.offset + prev.length;
      if (r.offset >= prev_end) {
        const uint64_t gap = r.offset - prev_end;
        if (gap < kMaxGap && 2 * gap <= prev.length + r.length) {
          groups.back().push_back(i);
          continue;
        }
      }
    }
    groups.push_back({i});
  }
  return groups;
}

Result<ContainerReaderPtr> OpenContainer(const std::string& path, const ContainerOpenOptions& options) {
  if (const std::optional<std::string> url = PlainHttpUrl(path)) {
    std::optional<ZipCacheEntry> cached;
    if (options.use_cache) cached = LoadZipCache(*url);
    const uint64_t ahead = cached && options.read_ahead_cached > 0 ? options.read_ahead_cached : options.read_ahead;
    TACO_ASSIGN_OR_RETURN(auto http, OpenHttpFile(path, *url, ahead));
    std::optional<HttpValidator> live = http->validator();
    std::string prefix = http->prefix();
    return ContainerReaderPtr(std::make_shared<RemoteContainer>(std::move(http), *url, std::move(live),
                                                                std::move(prefix), std::move(cached),
                                                                /*vouched=*/false, options.use_cache));
  }
  if (IsRemotePath(path)) {  // s3://, gs://, az://, /vsi…: through GDAL
    const std::string key = ToVsiPath(path);
    std::optional<ZipCacheEntry> cached;
    std::optional<HttpValidator> live;
    if (options.use_cache) {
      cached = LoadZipCache(key);
      live = VsiValidator(key);
    }
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr vsi, OpenVsiFile(path));  // GDAL's stat: cached after VsiValidator
    const bool vouched = cached && live && live->size == vsi->size() && SameVersion(cached->validator, *live);
    if (!vouched) cached.reset();
    return ContainerReaderPtr(std::make_shared<RemoteContainer>(std::move(vsi), key, std::move(live), std::string(),
                                                                std::move(cached), vouched, options.use_cache));
  }
  TACO_ASSIGN_OR_RETURN(RangeReaderPtr file, OpenLocalFile(path));
  return ContainerReaderPtr(std::make_shared<LocalContainer>(std::move(file)));
}

}  // namespace taco::io
