// ContainerReader: the reader of one dataset container (a TACO ZIP, a `__TACOCAT__` file),
// opened by OpenContainer(), the one place that decides how a container's bytes are fetched.
// The open code of a format is then the same for local files and remote objects: it reads
// the header through the reader, names the metadata ranges it will read with Prefetch(),
// and reads them.
//
// OpenContainer(path, options):
//  * a local path: the file read with pread (OpenLocalFile); Prefetch() does nothing, every
//    read goes to the file.
//  * an http(s) URL (or plain /vsicurl/http(s)://…): read-ahead: ONE ranged GET of the first
//    `read_ahead` bytes (`read_ahead_cached` when `use_cache` and a disk-cache entry exists
//    for the URL), see io/http_reader.h.
//  * any other remote path (s3://, gs://, az://, /vsi…): GDAL VSI (its stat). With
//    `use_cache`, the object's version is asked first with io::VsiValidator (one request,
//    which replaces the stat's) and a cache entry of that version serves its first bytes.
// Prefetch(plan), remote only (coalescing + cache):
//  * the ranges are grouped by the FORMAT §6.11 gap rule (GroupRanges); each group, from its
//    first range's start to its last range's end, is ONE read of the base reader (an http
//    read inside the read-ahead bytes costs nothing) and is kept in memory: later reads
//    inside a group are served from it.
//  * more than `max_bytes` in the ranges: Corruption "<name>: <what> N bytes of metadata,
//    more than the M a remote dataset may fetch into memory".
//  * `use_cache`: a disk-cache entry (io/cache.h, ZIP kind) of the live version whose first
//    `validated_prefix` bytes equal the live ones (http) and whose groups have the sizes of
//    these groups serves them: no request. Else the groups fetched are stored (a cache that
//    cannot be written only costs requests later).
// Holds(offset, n) lets the open code check what is free to check (a ZIP member's local
// header) without a branch on where the container is.
// Thread safety: Prefetch() is called once, by the opening thread, before the reader is
// shared; ReadAt() is then safe from many threads (RangeReader's contract).
#ifndef TACO_SRC_IO_CONTAINER_READER_H_
#define TACO_SRC_IO_CONTAINER_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "taco/io.h"

namespace taco::io {

struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};

// FORMAT §6.11: indexes into `ranges` (only ranges with length > 0), one vector per group,
// in order. A range joins the previous group when it starts at or after that group's last
// range's end, the gap is under 4 MiB and at most half the two ranges' lengths.
std::vector<std::vector<size_t>> GroupRanges(const std::vector<ByteRange>& ranges);

struct ContainerOpenOptions {
  uint64_t read_ahead = 64 * 1024;  // http: bytes of the opening GET
  uint64_t read_ahead_cached = 0;   // the same when a cache entry exists (0: read_ahead)
  bool use_cache = false;           // the disk cache of remote metadata (io/cache.h)
};

struct PrefetchPlan {
  std::vector<ByteRange> ranges;  // the metadata the open will read
  uint64_t validated_prefix = 0;  // the first bytes a cache entry must share with the live object
  uint64_t max_bytes = 0;         // the most the ranges may hold (0: no limit)
  std::string what;               // "the TACO_HEADER lists": the start of the max_bytes error
};

class ContainerReader : public RangeReader {
 public:
  virtual Status Prefetch(const PrefetchPlan& plan) = 0;
  // True when reading [offset, offset + n) (clamped to size()) costs no request: always for
  // a local file; for a remote object, inside the read-ahead, cached or prefetched bytes.
  virtual bool Holds(uint64_t offset, uint64_t n) const = 0;
  // True when the last Prefetch() was served by the disk cache.
  virtual bool served_from_cache() const { return false; }
};

using ContainerReaderPtr = std::shared_ptr<ContainerReader>;

Result<ContainerReaderPtr> OpenContainer(const std::string& path, const ContainerOpenOptions& options);

}  // namespace taco::io

#endif  // TACO_SRC_IO_CONTAINER_READER_H_
