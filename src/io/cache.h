// Disk cache of remote dataset metadata (internal; the public entry points are in taco/io.h).
//
// Two kinds of entries, each one file keyed by the dataset's URL (or GDAL /vsi… path):
//  * ZIP: <RemoteCacheDir()>/zip/<16 hex of FNV-1a(url)>.bin holding a JSON line
//    {url, size, etag, last_modified, header_size, members:[sizes]} then the header prefix
//    and the member bytes.
//  * TACOCAT: <RemoteCacheDir()>/tacocat/<16 hex of FNV-1a(url)>.bin holding a JSON line
//    {url, files:[{name, size, etag, last_modified, parts:[sizes]}]} then every file's parts
//    back to back. A `.tacocat/` folder caches one file per object (COLLECTION.json,
//    level{i}.parquet; one part each), and so does a remote FOLDER dataset (COLLECTION.json,
//    METADATA/level{i}.parquet); a `__TACOCAT__` caches one file whose parts are its 128
//    header bytes, level0..levelN and COLLECTION.json.
// What an entry may serve (the invariant): a cached object's bytes are used only when the
// live object, asked during this open, has the cached version. Nothing vouches for another
// object: in particular COLLECTION.json does not vouch for the level files, although our
// writers write it last. A level file can be replaced by tools that are not ours (upstream
// tacotoolbox, `cp`, `aws s3 sync`, which uploads in no set order) while COLLECTION.json
// stays byte-identical, and a shortcut that skipped the levels when COLLECTION.json was
// unchanged would then serve stale rows (tests/remote/tacocat_scale_remote_test.cc).
// The per-file check stays bounded at any scale: a `.tacocat/` or FOLDER dataset has at
// most 6 level files (level0..level5) however many parts or samples it has, so a warm open
// is at most 7 one-byte requests, sent at the same time (one round trip); a 1,000-part
// `.tacocat/` of two levels costs 3. The part ZIPs of a TACOCAT and the `__meta__` of
// FOLDER samples are not in the entry and are not requested at open: a part is read when
// one of its samples is.
// Entries are written atomically (temporary file + rename); a damaged, truncated or foreign
// entry reads as absent. Callers validate an entry against the live object (ETag, else size
// and Last-Modified) before using it. Whether to use the cache is the caller's decision
// (OpenOptions::use_cache, whose default is RemoteCacheEnabled()).
#ifndef TACO_SRC_IO_CACHE_H_
#define TACO_SRC_IO_CACHE_H_

#include <optional>
#include <string>
#include <string_view>
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

// One remote object of a TACOCAT entry: its name relative to the dataset URL, the version
// the bytes belong to, and the bytes kept from it.
struct CachedFile {
  std::string name;
  HttpValidator validator;
  std::vector<std::string> parts;
};

struct TacocatCacheEntry {
  std::string url;
  std::vector<CachedFile> files;

  // The file called `name`, or nullptr.
  const CachedFile* Find(std::string_view name) const;
};

std::optional<TacocatCacheEntry> LoadTacocatCache(const std::string& url);
Status StoreTacocatCache(const TacocatCacheEntry& entry);

// True when `live` describes the same object version as `cached`: equal ETags when both are
// known, else equal sizes and (when both are known) equal Last-Modified.
bool SameVersion(const HttpValidator& cached, const HttpValidator& live);

// The version of a GDAL virtual file (/vsis3/, /vsigs/, /vsiaz/, /vsicurl/…, or any other
// /vsi… or local path): size from VSIStatL, ETag and Last-Modified from
// VSIGetFileMetadata(path, "HEADERS") when the file system has them (network file systems;
// GDAL 3.6 answers with the headers of a ranged GET of the first 16 KiB and keeps the size
// it learnt, so the stat that follows is free), else the stat's mtime as last_modified.
// GDAL's own cached state for the path is dropped first, so that the answer (and later reads
// through GDAL) describe the live object. One request for a network file; nullopt when the
// file cannot be stat'ed or is a directory (the caller's open then reports why).
std::optional<HttpValidator> VsiValidator(const std::string& vsi_path);

}  // namespace taco::io

#endif  // TACO_SRC_IO_CACHE_H_
