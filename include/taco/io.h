// Byte-range access to local files and remote objects: the I/O seam of taco-cpp.
//
// Everything that reads a dataset (ZIP header, Parquet members through DuckDB, sample bytes)
// goes through a RangeReader, so local files, HTTP(S), S3, GCS and Azure objects, and byte
// ranges inside a container are all read the same way.
//
// Thread-safety: every RangeReader is safe for concurrent ReadAt() calls from many threads.
#ifndef TACO_IO_H_
#define TACO_IO_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco {

class RangeReader {
 public:
  virtual ~RangeReader() = default;

  // Total size in bytes, known from the moment the reader was opened.
  virtual uint64_t size() const = 0;

  // Reads exactly `n` bytes starting at `offset` into `out`.
  // A range that does not lie wholly inside [0, size()) is a Corruption error naming the
  // reader and the range; a short read from the OS or server is an IOError. Never returns
  // OK with fewer than `n` bytes written.
  virtual Status ReadAt(uint64_t offset, size_t n, void* out) const = 0;

  // Path or URL for error messages (as given by the caller).
  virtual const std::string& name() const = 0;

  // Convenience: ReadAt into a new string.
  Result<std::string> Read(uint64_t offset, size_t n) const;
  // Convenience: the whole content (for small members such as COLLECTION.json).
  Result<std::string> ReadAll() const;
};

using RangeReaderPtr = std::shared_ptr<const RangeReader>;

// A local file read with pread(2). Errors name the path.
Result<RangeReaderPtr> OpenLocalFile(const std::string& path);

// Any GDAL virtual file: a `/vsi…/` path, or a URL translated by ToVsiPath().
// Uses VSIFOpenL/VSIFSeekL/VSIFReadL with one handle per concurrent reader.
Result<RangeReaderPtr> OpenVsiFile(const std::string& path_or_url);

// Local path → OpenLocalFile; http(s):// URL (or plain `/vsicurl/http(s)://…`) → our own
// libcurl reader: ONE ranged GET of the first 64 KiB at open, size from Content-Range, no
// HEAD; later reads inside those bytes cost nothing, others one ranged GET each, checked
// (206, same start, exact length); 5xx/timeouts retried (GDAL_HTTP_MAX_RETRY,
// GDAL_HTTP_RETRY_DELAY), 404 → NotFound, 403 → IOError, all naming the URL and status.
// Other URLs and /vsi… paths → OpenVsiFile.
Result<RangeReaderPtr> OpenRangeReader(const std::string& path_or_url);

// The size of a file or object, or nullopt when there is none (http(s): one ranged GET of
// one byte, size from Content-Range; other remote paths: GDAL's stat). Other failures
// (403, 5xx after retries, ...) are errors naming the path.
Result<std::optional<uint64_t>> FileSize(const std::string& path_or_url);

// The bytes [offset, offset+length) of a file or object. http(s): ONE ranged GET, without
// learning the size first, checked like every ranged answer (206, that start, exactly those
// bytes); others: opened, then read.
Result<std::string> ReadRange(const std::string& path_or_url, uint64_t offset, uint64_t length);

// The whole content of a file or object (http(s): one GET without Range).
Result<std::string> ReadWholeFile(const std::string& path_or_url);

// ---- disk cache of remote metadata (ZIP members, FOLDER and TACOCAT levels) ------------
// Directory: $TACO_CACHE_DIR, else $XDG_CACHE_HOME/taco-cpp, else $HOME/.cache/taco-cpp.
// RemoteCacheEnabled(): the default of OpenOptions::use_cache, false when TACO_NO_CACHE is set
// to a non-empty value other than "0" (docs/remote.md "Environment variables").
struct RemoteCacheInfo {
  std::string dir;
  uint64_t entries = 0;
  uint64_t bytes = 0;
};
std::string RemoteCacheDir();
bool RemoteCacheEnabled();
Result<RemoteCacheInfo> GetRemoteCacheInfo();
// Removes every entry (the directory itself stays). Returns how many entries were removed.
Result<uint64_t> ClearRemoteCache();

// The bytes [offset, offset+length) of `base`, as a reader of its own (offsets relative to
// `offset`). Fails if the range is not inside `base`. `name` defaults to
// "/vsisubfile/<offset>_<length>,<base name>".
Result<RangeReaderPtr> SubRange(RangeReaderPtr base, uint64_t offset, uint64_t length, std::string name = "");

// The bytes of `data` (for tests and for Parquet built in memory).
RangeReaderPtr MemoryReader(std::string data, std::string name = "<memory>");

// Counts the ReadAt() calls and bytes that pass through to `base`.
class CountingReader final : public RangeReader {
 public:
  explicit CountingReader(RangeReaderPtr base) : base_(std::move(base)) {}
  uint64_t size() const override { return base_->size(); }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override;
  const std::string& name() const override { return base_->name(); }

  uint64_t requests() const { return requests_.load(); }
  uint64_t bytes() const { return bytes_.load(); }
  void Reset() {
    requests_ = 0;
    bytes_ = 0;
  }

 private:
  RangeReaderPtr base_;
  mutable std::atomic<uint64_t> requests_{0};
  mutable std::atomic<uint64_t> bytes_{0};
};

// ---- in-process GDAL access to a sample ---------------------------------------------
// GDAL 3.6's /vsicurl/ learns an object's size with a request of its own before reading
// (an unranged GET even with CPL_VSIL_CURL_USE_HEAD=NO), so opening a sample's GDAL path
// `/vsisubfile/<offset>_<size>,/vsicurl/<url>` costs two or more requests although the size
// is in the path. InProcessGdalPath() returns "/vsitaco/<n>/<leaf>", a path of a GDAL file
// system installed in THIS process on first use, holding the same bytes read through
// taco-cpp's readers with the size known: GDAL's stat is answered from memory, side-car
// probes (.aux.xml, .ovr, .msk) find nothing without a request, and an open handle fetches
// the whole sample (at most 4 MiB) or its first 1 MiB with its first read, so GDALOpen of a
// FILE sample costs ONE ranged GET; later reads outside the fetched bytes cost one GET of
// at least 256 KiB each (at most 64 MiB cached per handle). Works for any sample path:
// http(s) through our client, other roots (local, s3/gs/az) opened on first read; a plain
// http(s) path (FOLDER samples, size unknown) is fetched up to 4 MiB by this call instead.
// `leaf` names the file (a sample id, so that drivers see its extension; default: the
// path's last component). The same arguments return the same path while it is remembered.
// Never valid outside the process.
// Memory stays flat in a loop over millions of samples: the process remembers at most
// 65,536 paths (TACO_VSITACO_MAX_PATHS overrides) and 256 MiB of prefetched plain-http
// samples; beyond that the least recently used path (handed out, stat'ed or opened) is
// forgotten, and a later GDALOpen of it fails as "not found" (ask InProcessGdalPath again:
// a new path). A GDAL dataset already open on a path keeps working after it is forgotten.
Result<std::string> InProcessGdalPath(const std::string& gdal_path, const std::string& leaf = "");
// Forgets a path of InProcessGdalPath() now (open GDAL datasets on it keep working).
// False when it is not (or no longer) known.
bool ReleaseInProcessGdalPath(const std::string& path);
// How many paths InProcessGdalPath() remembers right now.
size_t InProcessGdalPathCount();

// True for http(s)://, s3://, gs://, az://, azure://, oss://, swift:// URLs and /vsi… paths.
bool IsRemotePath(std::string_view path);

// FORMAT §6.2 `/vsisubfile/<offset>_<size>,<root>`: split at the FIRST comma, then the
// range at its first '_'; both numbers plain decimal (at most 19 digits). nullopt for any
// other path, including a malformed /vsisubfile/ one.
struct VsiSubfile {
  uint64_t offset = 0;
  uint64_t size = 0;
  std::string root;
};
std::optional<VsiSubfile> ParseVsiSubfile(std::string_view path);

// True for a non-empty run of at most 19 ASCII digits, stored in `out`.
bool ParseDecimal(std::string_view digits, uint64_t* out);

// FORMAT §6.2: `http(s)://x` → `/vsicurl/http(s)://x`, `s3://` → `/vsis3/`, `gs://` →
// `/vsigs/`, `az://`/`azure://` → `/vsiaz/`, `oss://` → `/vsioss/`, `swift://` →
// `/vsiswift/`; `/vsi…` paths unchanged; a local path becomes absolute and normalised
// (symlinks resolved when it exists), without a trailing slash.
std::string ToVsiPath(std::string_view path);

}  // namespace taco

#endif  // TACO_IO_H_
