// FetchRemoteZipMetadata(): see remote_zip.h.
#include "read/remote_zip.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "io/cache.h"
#include "io/http_client.h"
#include "io/http_reader.h"
#include "util/limits.h"

namespace taco {
namespace {

constexpr uint64_t kZipPrefetch = 16 * 1024;
constexpr uint64_t kMaxGap = 4ULL * 1024 * 1024;

std::string_view HeaderBytes(const std::string& prefix) {
  return std::string_view(prefix).substr(0, std::min<size_t>(prefix.size(), zip::kTacoHeaderSize));
}

Result<std::vector<std::string>> FetchMembers(const RangeReader& container, const zip::TacoHeader& header) {
  uint64_t total = 0;
  for (const auto& e : header.entries) total += e.length;  // each inside the file: no overflow in practice
  if (total > util::kMaxRemoteMetadataBytes) {
    return Status::Corruption(container.name() + ": the TACO_HEADER lists " + std::to_string(total) +
                              " bytes of metadata, more than the " + std::to_string(util::kMaxRemoteMetadataBytes) +
                              " a remote dataset may fetch into memory");
  }
  std::vector<std::string> members(header.entries.size());
  for (const auto& group : GroupHeaderEntries(header.entries)) {
    const auto& first = header.entries[group.front()];
    const auto& last = header.entries[group.back()];
    const uint64_t span = last.offset + last.length - first.offset;
    TACO_ASSIGN_OR_RETURN(std::string bytes, container.Read(first.offset, static_cast<size_t>(span)));
    for (size_t i : group) {
      const auto& e = header.entries[i];
      members[i] = bytes.substr(static_cast<size_t>(e.offset - first.offset), static_cast<size_t>(e.length));
    }
  }
  return members;
}

bool MembersFit(const io::ZipCacheEntry& cached, const zip::TacoHeader& header) {
  if (cached.members.size() != header.entries.size()) return false;
  for (size_t i = 0; i < header.entries.size(); ++i) {
    if (cached.members[i].size() != header.entries[i].length) return false;
  }
  return true;
}

bool CacheMatches(const io::ZipCacheEntry& cached, const io::HttpFileReader& live, const zip::TacoHeader& header) {
  if (!io::SameVersion(cached.validator, live.validator())) return false;
  if (HeaderBytes(cached.header) != HeaderBytes(live.prefix())) return false;
  return MembersFit(cached, header);
}

// s3://, gs://, az://, /vsi…: through GDAL. With `caching`, the object's version comes from
// VsiValidator (one request, which GDAL's stat would make anyway); a cache entry of that
// version makes it the only request.
Result<RemoteZipMetadata> FetchVsiZipMetadata(const std::string& path, bool caching) {
  RemoteZipMetadata out;
  const std::string key = ToVsiPath(path);
  std::optional<io::ZipCacheEntry> cached;
  std::optional<io::HttpValidator> live;
  if (caching) {
    cached = io::LoadZipCache(key);
    live = io::VsiValidator(key);
  }
  TACO_ASSIGN_OR_RETURN(out.container, OpenVsiFile(path));  // GDAL's stat: cached after VsiValidator
  if (cached && live && live->size == out.container->size() && io::SameVersion(cached->validator, *live)) {
    auto header = zip::ParseTacoHeader(HeaderBytes(cached->header), out.container->size(), path);
    if (header.ok() && MembersFit(*cached, *header)) {
      out.header = std::move(*header);
      out.members = std::move(cached->members);
      out.from_cache = true;
      return out;
    }
  }
  const size_t n = static_cast<size_t>(std::min<uint64_t>(out.container->size(), zip::kTacoHeaderSize));
  TACO_ASSIGN_OR_RETURN(std::string prefix, out.container->Read(0, n));
  TACO_ASSIGN_OR_RETURN(out.header, zip::ParseTacoHeader(prefix, out.container->size(), path));
  TACO_ASSIGN_OR_RETURN(out.members, FetchMembers(*out.container, out.header));
  if (caching && live && live->size == out.container->size()) {
    io::ZipCacheEntry entry;
    entry.url = key;
    entry.validator = *live;
    entry.header = prefix;
    entry.members = out.members;
    (void)io::StoreZipCache(entry);  // a cache that cannot be written only costs requests later
  }
  return out;
}

}  // namespace

std::vector<std::vector<size_t>> GroupHeaderEntries(const std::vector<zip::HeaderEntry>& entries) {
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    if (e.length == 0) continue;
    if (!groups.empty()) {
      const auto& prev = entries[groups.back().back()];
      const uint64_t prev_end = prev.offset + prev.length;
      if (e.offset >= prev_end) {
        const uint64_t gap = e.offset - prev_end;
        if (gap < kMaxGap && 2 * gap <= prev.length + e.length) {
          groups.back().push_back(i);
          continue;
        }
      }
    }
    groups.push_back({i});
  }
  return groups;
}

Result<RemoteZipMetadata> FetchRemoteZipMetadata(const std::string& path, bool use_cache) {
  RemoteZipMetadata out;
  const std::optional<std::string> url = io::PlainHttpUrl(path);
  if (!url) return FetchVsiZipMetadata(path, use_cache);
  std::optional<io::ZipCacheEntry> cached;
  if (use_cache) cached = io::LoadZipCache(*url);
  TACO_ASSIGN_OR_RETURN(auto reader, io::OpenHttpFile(path, *url, cached ? zip::kTacoHeaderSize : kZipPrefetch));
  out.container = reader;
  TACO_ASSIGN_OR_RETURN(out.header, zip::ParseTacoHeader(reader->prefix(), reader->size(), path));
  if (cached && CacheMatches(*cached, *reader, out.header)) {
    out.members = std::move(cached->members);
    out.from_cache = true;
    return out;
  }
  TACO_ASSIGN_OR_RETURN(out.members, FetchMembers(*reader, out.header));
  if (use_cache) {
    io::ZipCacheEntry entry;
    entry.url = *url;
    entry.validator = reader->validator();
    entry.header = std::string(HeaderBytes(reader->prefix()));
    entry.members = out.members;
    (void)io::StoreZipCache(entry);  // a cache that cannot be written only costs requests later
  }
  return out;
}

}  // namespace taco
