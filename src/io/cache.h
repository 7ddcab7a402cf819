// Disk cache of remote ZIP metadata (internal; the public entry points are in taco/io.h).
//
// One file per URL: <RemoteCacheDir()>/zip/<16 hex of FNV-1a(url)>.bin holding a JSON line
// {url, size, etag, last_modified, header_size, members:[sizes]} then the header prefix and
// the member bytes. Written atomically (temporary file + rename); a damaged or foreign entry
// reads as absent. Callers validate an entry against the live object (ETag, else size and
// Last-Modified) before using it.
#ifndef TACO_SRC_IO_CACHE_H_
#define TACO_SRC_IO_CACHE_H_

#include <optional>
#include <string>
#include <vector>

#include "io/http_reader.h"
#include "taco/status.h"

namespace taco::io {

struct ZipCacheEntry {
  std::string url;
  HttpValidator validator;
  std::string header;                // the first bytes of the object (TACO_HEADER)
  std::vector<std::string> members;  // TACO_HEADER members, in header order
};

std::optional<ZipCacheEntry> LoadZipCache(const std::string& url);
Status StoreZipCache(const ZipCacheEntry& entry);

// True when `live` describes the same object version as `cached`: equal ETags when both are
// known, else equal sizes and (when both are known) equal Last-Modified.
bool SameVersion(const HttpValidator& cached, const HttpValidator& live);

}  // namespace taco::io

#endif  // TACO_SRC_IO_CACHE_H_
