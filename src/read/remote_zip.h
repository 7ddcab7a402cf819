// Opening a remote TACO ZIP with a bounded number of requests (FORMAT §6.11, DESIGN §5).
//
// FetchRemoteZipMetadata(path, use_cache):
//  * http(s) URLs (and plain /vsicurl/http…): ONE ranged GET of the first 16 KiB (or of the
//    157 header bytes when a disk-cache entry exists), then the TACO_HEADER members not
//    already in those bytes, grouped by the §6.11 gap rule, one ranged GET per group
//    (typically 1). A cache entry whose ETag (else size and Last-Modified) and header bytes
//    match the live object replaces the group GETs: 1 request in all.
//  * other remote paths (s3://, gs://, az://, /vsi…): through GDAL VSI (its stat, then the
//    header read and one read per group). With the disk cache on, the object's version comes
//    from io::VsiValidator (one request that replaces the stat's: size, ETag from GDAL's
//    "HEADERS" metadata, else Last-Modified/mtime) and a cache entry of that version is used
//    without reading the header: 1 request in all. The cache key is the /vsi… path.
// Returns the container reader (unwrapped), the parsed header and every member's bytes in
// header order (level parquets, then COLLECTION.json), so that nothing more is fetched to
// query the metadata.
#ifndef TACO_READ_REMOTE_ZIP_H_
#define TACO_READ_REMOTE_ZIP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "format/zip/taco_header.h"
#include "taco/io.h"

namespace taco {

struct RemoteZipMetadata {
  RangeReaderPtr container;
  zip::TacoHeader header;
  std::vector<std::string> members;  // header.entries[i]'s bytes
  bool from_cache = false;
};

Result<RemoteZipMetadata> FetchRemoteZipMetadata(const std::string& path, bool use_cache);

// FORMAT §6.11 grouping: indexes into `entries` (only entries with length > 0), one vector
// per group, in header order.
std::vector<std::vector<size_t>> GroupHeaderEntries(const std::vector<zip::HeaderEntry>& entries);

}  // namespace taco

#endif  // TACO_READ_REMOTE_ZIP_H_
