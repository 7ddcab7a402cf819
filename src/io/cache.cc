// The disk cache of remote dataset metadata: see cache.h and taco/io.h.
#include "io/cache.h"

#include "io/vsi_defaults.h"

#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#include "taco/io.h"
#include "taco/log.h"
#include "util/env_defaults.h"

namespace taco {
namespace io {
namespace {

namespace fs = std::filesystem;

// The sub-directories of RemoteCacheDir() that hold entries.
constexpr const char* kKinds[] = {"zip", "tacocat"};

std::string EntryPath(const std::string& url, const char* kind) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : url) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  std::string path = RemoteCacheDir();
  path += '/';
  path += kind;
  path += '/';
  path += hex;
  path += ".bin";
  return path;
}

// The JSON line and the bytes after it; nullopt when unreadable or not a JSON object.
std::optional<std::pair<nlohmann::json, std::string>> ReadEntry(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  nlohmann::json meta = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!meta.is_object()) return std::nullopt;
  std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return std::make_pair(std::move(meta), std::move(rest));
}

// Writes `meta` as one line followed by `blobs` to a temporary file, then renames it over
// `path` (readers see the old entry or the new one, never a mix).
Status WriteEntry(const std::string& path, const nlohmann::json& meta, const std::vector<const std::string*>& blobs) {
  static std::atomic<uint64_t> counter{0};
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) return Status::IOError(path + ": cannot create the cache directory: " + ec.message());
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    for (const std::string* b : blobs) out << *b;
    if (!out.flush()) {
      fs::remove(tmp, ec);
      return Status::IOError(tmp + ": cannot write the cache entry");
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Status::IOError(path + ": cannot store the cache entry");
  }
  return Status::OK();
}

void PutValidator(nlohmann::json& j, const HttpValidator& v) {
  j["size"] = v.size;
  j["etag"] = v.etag;
  j["last_modified"] = v.last_modified;
}

// Throws nlohmann::json exceptions on missing keys or wrong types (caught by the callers).
HttpValidator GetValidator(const nlohmann::json& j) {
  HttpValidator v;
  v.size = j.at("size").get<uint64_t>();
  v.etag = j.at("etag").get<std::string>();
  v.last_modified = j.at("last_modified").get<std::string>();
  return v;
}

// Splits `rest` into consecutive parts of `sizes` bytes; nullopt unless they add up exactly.
std::optional<std::vector<std::string>> Split(const std::string& rest, size_t& at, const std::vector<uint64_t>& sizes) {
  std::vector<std::string> parts;
  for (uint64_t s : sizes) {
    if (s > rest.size() - at) return std::nullopt;
    parts.push_back(rest.substr(at, static_cast<size_t>(s)));
    at += static_cast<size_t>(s);
  }
  return parts;
}

// Silences GDAL's stderr error handler for this thread while alive.
class QuietGdal {
 public:
  QuietGdal() { CPLPushErrorHandler(CPLQuietErrorHandler); }
  ~QuietGdal() { CPLPopErrorHandler(); }
  QuietGdal(const QuietGdal&) = delete;
  QuietGdal& operator=(const QuietGdal&) = delete;
};

}  // namespace

bool SameVersion(const HttpValidator& cached, const HttpValidator& live) {
  if (!cached.etag.empty() && !live.etag.empty()) return cached.etag == live.etag && cached.size == live.size;
  if (cached.size != live.size) return false;
  if (!cached.last_modified.empty() && !live.last_modified.empty()) return cached.last_modified == live.last_modified;
  return true;  // nothing else to compare: the caller also compares what bytes it has
}

namespace {

// "cache: <kind> entry for <url>: found (<path>) | none".
template <typename Entry>
std::optional<Entry> Logged(const char* kind, const std::string& url, std::optional<Entry> entry) {
  if (LogEnabled(LogLevel::kVerbose)) {
    Log(LogLevel::kVerbose, std::string("cache: ") + kind + " entry for " + url + ": " +
                                (entry ? "found in " + EntryPath(url, kind) + " (revalidated before use)" : "none"));
  }
  return entry;
}

std::optional<ZipCacheEntry> ReadZipCache(const std::string& url) {
  auto read = ReadEntry(EntryPath(url, "zip"));
  if (!read) return std::nullopt;
  const auto& [meta, rest] = *read;
  ZipCacheEntry e;
  try {
    if (meta.at("url").get<std::string>() != url) return std::nullopt;
    e.url = url;
    e.validator = GetValidator(meta);
    const uint64_t header_size = meta.at("header_size").get<uint64_t>();
    std::vector<uint64_t> sizes = meta.at("members").get<std::vector<uint64_t>>();
    if (header_size > rest.size()) return std::nullopt;
    e.header = rest.substr(0, static_cast<size_t>(header_size));
    size_t at = static_cast<size_t>(header_size);
    auto members = Split(rest, at, sizes);
    if (!members || at != rest.size()) return std::nullopt;
    e.members = std::move(*members);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return e;
}

}  // namespace

std::optional<ZipCacheEntry> LoadZipCache(const std::string& url) { return Logged("zip", url, ReadZipCache(url)); }

Status StoreZipCache(const ZipCacheEntry& entry) {
  nlohmann::json meta;
  meta["url"] = entry.url;
  PutValidator(meta, entry.validator);
  meta["header_size"] = entry.header.size();
  nlohmann::json sizes = nlohmann::json::array();
  std::vector<const std::string*> blobs{&entry.header};
  for (const auto& m : entry.members) {
    sizes.push_back(m.size());
    blobs.push_back(&m);
  }
  meta["members"] = sizes;
  return WriteEntry(EntryPath(entry.url, "zip"), meta, blobs);
}

const CachedFile* TacocatCacheEntry::Find(std::string_view name) const {
  for (const CachedFile& f : files) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

namespace {

std::optional<TacocatCacheEntry> ReadTacocatCache(const std::string& url) {
  auto read = ReadEntry(EntryPath(url, "tacocat"));
  if (!read) return std::nullopt;
  const auto& [meta, rest] = *read;
  TacocatCacheEntry e;
  try {
    if (meta.at("url").get<std::string>() != url) return std::nullopt;
    e.url = url;
    size_t at = 0;
    for (const nlohmann::json& f : meta.at("files")) {
      CachedFile file;
      file.name = f.at("name").get<std::string>();
      file.validator = GetValidator(f);
      auto parts = Split(rest, at, f.at("parts").get<std::vector<uint64_t>>());
      if (!parts) return std::nullopt;
      file.parts = std::move(*parts);
      e.files.push_back(std::move(file));
    }
    if (at != rest.size()) return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return e;
}

}  // namespace

std::optional<TacocatCacheEntry> LoadTacocatCache(const std::string& url) {
  return Logged("tacocat", url, ReadTacocatCache(url));
}

Status StoreTacocatCache(const TacocatCacheEntry& entry) {
  nlohmann::json meta;
  meta["url"] = entry.url;
  nlohmann::json files = nlohmann::json::array();
  std::vector<const std::string*> blobs;
  for (const CachedFile& f : entry.files) {
    nlohmann::json j;
    j["name"] = f.name;
    PutValidator(j, f.validator);
    nlohmann::json sizes = nlohmann::json::array();
    for (const std::string& p : f.parts) {
      sizes.push_back(p.size());
      blobs.push_back(&p);
    }
    j["parts"] = sizes;
    files.push_back(std::move(j));
  }
  meta["files"] = files;
  return WriteEntry(EntryPath(entry.url, "tacocat"), meta, blobs);
}

std::optional<HttpValidator> VsiValidator(const std::string& vsi_path) {
  QuietGdal quiet;
  ScopedNoReaddir no_readdir;
  VSICurlPartialClearCache(vsi_path.c_str());
  HttpValidator v;
  if (char** headers = VSIGetFileMetadata(vsi_path.c_str(), "HEADERS", nullptr)) {
    if (const char* etag = CSLFetchNameValue(headers, "ETag")) v.etag = etag;
    if (const char* lm = CSLFetchNameValue(headers, "Last-Modified")) v.last_modified = lm;
    CSLDestroy(headers);
  }
  VSIStatBufL st;
  if (VSIStatExL(vsi_path.c_str(), &st, VSI_STAT_EXISTS_FLAG | VSI_STAT_NATURE_FLAG | VSI_STAT_SIZE_FLAG) != 0) {
    return std::nullopt;
  }
  if (VSI_ISDIR(st.st_mode) || st.st_size < 0) return std::nullopt;
  v.size = static_cast<uint64_t>(st.st_size);
  if (v.last_modified.empty() && st.st_mtime != 0) {
    v.last_modified = std::to_string(static_cast<long long>(st.st_mtime));
  }
  return v;
}

}  // namespace io

std::string RemoteCacheDir() { return util::EnvCacheDir(); }

bool RemoteCacheEnabled() { return util::EnvUseCache(); }

Result<RemoteCacheInfo> GetRemoteCacheInfo() {
  RemoteCacheInfo info;
  info.dir = RemoteCacheDir();
  for (const char* kind : io::kKinds) {
    std::error_code ec;
    const io::fs::path dir = io::fs::path(info.dir) / kind;
    if (!io::fs::exists(dir, ec)) continue;
    for (const auto& item : io::fs::directory_iterator(dir, ec)) {
      if (!item.is_regular_file(ec) || item.path().extension() != ".bin") continue;
      ++info.entries;
      info.bytes += item.file_size(ec);
    }
    if (ec) return Status::IOError(dir.string() + ": cannot list the cache: " + ec.message());
  }
  return info;
}

Result<uint64_t> ClearRemoteCache() {
  uint64_t removed = 0;
  for (const char* kind : io::kKinds) {
    const io::fs::path dir = io::fs::path(RemoteCacheDir()) / kind;
    std::error_code ec;
    if (!io::fs::exists(dir, ec)) continue;
    for (const auto& item : io::fs::directory_iterator(dir, ec)) {
      if (item.path().extension() == ".bin") ++removed;
      io::fs::remove_all(item.path(), ec);
      if (ec) return Status::IOError(item.path().string() + ": cannot remove: " + ec.message());
    }
  }
  return removed;
}

}  // namespace taco
