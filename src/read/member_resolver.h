// The byte range of a ZIP sample, looked up by its archive path (FORMAT §1.5: "always look
// offsets up by archive path"): the level views take `internal:offset` / `internal:size` and
// `internal:gdal_vsi` from here for local ZIP and TACOCAT datasets, so that every front —
// `sql`, `files`, stats, the torch plan, export — sees the member the path names, not the one
// a wrong stored offset points at (tacotoolbox writes shifted level-1 offsets when sibling ids
// are unsorted; a damaged or crafted level Parquet can swap them).
//
// Contract:
//  * Resolve(offset, size, archive_path, container, id, &range): "" and range =
//    "<offset>_<size>" of the member named `archive_path` ("DATA/a/b.tif", "DATA/a/__meta__")
//    in the ZIP `container` ("" = the dataset's own ZIP, else a TACOCAT part's local path);
//    the stored (offset, size) when they are that member's, else the member's real range
//    (logged once per container at the verbose level). Otherwise a sentence saying what is
//    wrong: `id` breaks the id rule or is not the path's last part, no member has that
//    name, or the central directory and the member's local header disagree (a damaged ZIP).
//  * Cost: the first row of a container reads its central directory (two reads at the end
//    of the file, none of the samples' bytes; ONE read from the offset ExpectDirectoryAfter
//    gave, when the directory lies there); every row is then a hash lookup, with no read
//    unless the stored range is not the member's: then the member's data offset is that of
//    the one range of AddStoredRanges that lies in the member's span with its size (no
//    read), else its local header's (one small read: the header and the name).
//  * ExpectDirectoryAfter(offset): the dataset's own ZIP's central directory and end record
//    are expected in [offset, end of file) (the end of its last metadata member, FORMAT
//    §1.1): the first lookup reads those bytes in one request when they are at most 16 MiB;
//    where the directory is not among them, the reads above follow.
//  * AddStoredRanges(container, ranges): the stored (offset, size) of rows whose ranges may be
//    another row's (read/shifted_ranges.h): a permutation of the members' own in a file of
//    tacotoolbox's. Call both before the first Resolve.
//  * Thread-safe (DuckDB calls it from its worker threads): one mutex per container.
//  * Used for every level of local ZIP and TACOCAT datasets (and those GDAL's VSI reads,
//    s3://…); by http(s) only for the levels and parts read/shifted_ranges.h names (views.cc;
//    concat.cc, per ZIP source of a concatenation, local ones too),
//    the other rows keeping the stored ranges; the member is checked by name when its bytes
//    are read through taco (read/sample_bytes.h).
#ifndef TACO_READ_MEMBER_RESOLVER_H_
#define TACO_READ_MEMBER_RESOLVER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "taco/io.h"

namespace taco::read {

inline constexpr const char* kResolvedMember = "taco_resolved_member";

class MemberResolver {
 public:
  // `own`: the dataset's ZIP (container ""), may be null for a TACOCAT.
  MemberResolver(std::string dataset, RangeReaderPtr own);
  ~MemberResolver();

  std::string Resolve(int64_t offset, int64_t size, std::string_view archive_path, std::string_view container,
                      std::string_view id, std::string* range);

  void ExpectDirectoryAfter(uint64_t offset);
  void AddStoredRanges(const std::string& container, const std::vector<std::pair<int64_t, int64_t>>& ranges);

 private:
  struct Zip;
  Zip* FindZip(std::string_view container, std::string* problem);

  std::string dataset_;
  std::mutex mu_;  // guards zips_ and stored_ (each Zip has its own mutex for its work)
  std::map<std::string, std::unique_ptr<Zip>, std::less<>> zips_;
  // AddStoredRanges of containers whose Zip is not made yet (sorted, unique).
  std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>, std::less<>> stored_;
};

}  // namespace taco::read

#endif  // TACO_READ_MEMBER_RESOLVER_H_
