// The disk cache of remote ZIP metadata: see cache.h and taco/io.h.
#include "io/cache.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#include "taco/io.h"

namespace taco {
namespace io {
namespace {

namespace fs = std::filesystem;

std::string Env(const char* key) {
  const char* v = std::getenv(key);
  return v != nullptr ? std::string(v) : std::string();
}

std::string EntryPath(const std::string& url) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : url) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  return RemoteCacheDir() + "/zip/" + hex + ".bin";
}

}  // namespace

bool SameVersion(const HttpValidator& cached, const HttpValidator& live) {
  if (!cached.etag.empty() && !live.etag.empty()) return cached.etag == live.etag && cached.size == live.size;
  if (cached.size != live.size) return false;
  if (!cached.last_modified.empty() && !live.last_modified.empty()) return cached.last_modified == live.last_modified;
  return true;  // nothing else to compare: the caller also compares the header bytes
}

std::optional<ZipCacheEntry> LoadZipCache(const std::string& url) {
  if (!RemoteCacheEnabled()) return std::nullopt;
  std::ifstream in(EntryPath(url), std::ios::binary);
  if (!in) return std::nullopt;
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  nlohmann::json meta = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!meta.is_object()) return std::nullopt;
  ZipCacheEntry e;
  try {
    if (meta.at("url").get<std::string>() != url) return std::nullopt;
    e.url = url;
    e.validator.size = meta.at("size").get<uint64_t>();
    e.validator.etag = meta.at("etag").get<std::string>();
    e.validator.last_modified = meta.at("last_modified").get<std::string>();
    const uint64_t header_size = meta.at("header_size").get<uint64_t>();
    std::vector<uint64_t> sizes = meta.at("members").get<std::vector<uint64_t>>();
    std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    uint64_t total = header_size;
    for (uint64_t s : sizes) total += s;
    if (total != rest.size()) return std::nullopt;
    e.header = rest.substr(0, header_size);
    uint64_t at = header_size;
    for (uint64_t s : sizes) {
      e.members.push_back(rest.substr(at, s));
      at += s;
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return e;
}

Status StoreZipCache(const ZipCacheEntry& entry) {
  if (!RemoteCacheEnabled()) return Status::OK();
  const std::string path = EntryPath(entry.url);
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) return Status::IOError(path + ": cannot create the cache directory: " + ec.message());
  nlohmann::json meta;
  meta["url"] = entry.url;
  meta["size"] = entry.validator.size;
  meta["etag"] = entry.validator.etag;
  meta["last_modified"] = entry.validator.last_modified;
  meta["header_size"] = entry.header.size();
  nlohmann::json sizes = nlohmann::json::array();
  for (const auto& m : entry.members) sizes.push_back(m.size());
  meta["members"] = sizes;
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n' << entry.header;
    for (const auto& m : entry.members) out << m;
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

}  // namespace io

std::string RemoteCacheDir() {
  std::string dir = io::Env("TACO_CACHE_DIR");
  if (!dir.empty()) return dir;
  const std::string xdg = io::Env("XDG_CACHE_HOME");
  if (!xdg.empty()) return xdg + "/taco-cpp";
  const std::string home = io::Env("HOME");
  return (home.empty() ? std::string("/tmp") : home) + "/.cache/taco-cpp";
}

bool RemoteCacheEnabled() {
  const std::string v = io::Env("TACO_NO_CACHE");
  return v.empty() || v == "0";
}

Result<RemoteCacheInfo> GetRemoteCacheInfo() {
  RemoteCacheInfo info;
  info.dir = RemoteCacheDir();
  std::error_code ec;
  const io::fs::path zip_dir = io::fs::path(info.dir) / "zip";
  if (!io::fs::exists(zip_dir, ec)) return info;
  for (const auto& item : io::fs::directory_iterator(zip_dir, ec)) {
    if (!item.is_regular_file(ec) || item.path().extension() != ".bin") continue;
    ++info.entries;
    info.bytes += item.file_size(ec);
  }
  if (ec) return Status::IOError(zip_dir.string() + ": cannot list the cache: " + ec.message());
  return info;
}

Result<uint64_t> ClearRemoteCache() {
  const io::fs::path zip_dir = io::fs::path(RemoteCacheDir()) / "zip";
  std::error_code ec;
  if (!io::fs::exists(zip_dir, ec)) return uint64_t{0};
  uint64_t removed = 0;
  for (const auto& item : io::fs::directory_iterator(zip_dir, ec)) {
    if (item.path().extension() == ".bin") ++removed;
    io::fs::remove_all(item.path(), ec);
    if (ec) return Status::IOError(item.path().string() + ": cannot remove: " + ec.message());
  }
  return removed;
}

}  // namespace taco
