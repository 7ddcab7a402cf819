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
//    of the file, none of the samples' bytes); every row is then a hash lookup, with no read
//    unless the stored range is not the member's (then its local header: one small read).
//  * Thread-safe (DuckDB calls it from its worker threads): one mutex per container.
//  * Local containers only: the views of remote datasets keep the stored ranges, and the
//    member is checked by name when its bytes are read (read/sample_bytes.h).
#ifndef TACO_READ_MEMBER_RESOLVER_H_
#define TACO_READ_MEMBER_RESOLVER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

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

 private:
  struct Zip;
  Zip* FindZip(std::string_view container, std::string* problem);

  std::string dataset_;
  std::mutex mu_;  // guards zips_ (each Zip has its own mutex for its work)
  std::map<std::string, std::unique_ptr<Zip>, std::less<>> zips_;
};

}  // namespace taco::read

#endif  // TACO_READ_MEMBER_RESOLVER_H_
