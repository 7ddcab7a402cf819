// The legacy BLOB container (Tortilla 0.5 / TACO v1, spec/LEGACY.md): its parts, footers and
// nested tortillas read through the io seam, and the presentation of footer rows as level
// rows (taco/legacy.h lists the columns). What needs the SQL engine (decoding a footer's
// Parquet into a Table, its key-value metadata, the level tables) is the caller's
// (read/legacy_open.cc); everything here is plain C++ over util and io.
//
// Contract:
//  * OpenPart(given): one read of the first bytes (header, ParseLegacyHeader), one of the
//    footer (plus the COLLECTION in the same read when it follows the footer, as every
//    writer puts it). NotFound "<given>: no such file"; a footer that is not Parquet is
//    Corruption naming the part and the range.
//  * OpenSet(first, info): the parts of the set `first` belongs to, in part order. Siblings
//    are named from the header's DP and `name.NNNN.part<suffix>` (0000..DP-1, or the spec's
//    0001..DP, probed with io::PathExists when the given part does not settle it); a missing
//    part is NotFound naming it; parts whose DP or flavour differ are Corruption. Notes for
//    tolerated oddities go to `info.notes`; `info.one_based` is set.
//  * FollowChain(part, pointer_of): the further Parquet files of a chained footer (LEGACY.md
//    §11), `pointer_of` giving a Parquet file's `pointer` key-value (nullopt: none). A cycle,
//    more than 64 files or a range outside the part is Corruption.
//  * ReadNested(level, paths, parts, by_file): the header and footer of every FOLDER row of
//    a presented level (one read each), a failure kept per row.
//  * Present()/UnionLevel(): footer rows → level rows (ids, types, absolute offsets,
//    internal:*; centroids as WKB, times as timestamps) and the union of a level's pieces by
//    column name, widening types (a clash becomes text, with a note).
// The opens of a set's parts and of nested tortillas run on up to 8 threads where opening
// costs a round trip (io::Location prefers_parallel_opens), inline on a local disk.
// Thread safety: free functions over values; a Part's reader is a RangeReader.
#ifndef TACO_FORMAT_LEGACY_LEGACY_CONTAINER_H_
#define TACO_FORMAT_LEGACY_LEGACY_CONTAINER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/legacy/legacy_layout.h"
#include "taco/io.h"
#include "taco/legacy.h"
#include "taco/value.h"

namespace taco::format::blob {

inline constexpr int kMaxDepth = 6;  // level0..level5, as TACO 2.0

struct Part {
  std::string given;  // path or URL
  std::string vsi;
  std::string file_name;
  RangeReaderPtr reader;
  LegacyHeader header;
  std::string footer;
  std::string collection;
  int number = -1;
};

Result<Part> OpenPart(const std::string& given);
Result<std::vector<Part>> OpenSet(Part first, LegacyInfo& info);

// The `pointer` key-value of the Parquet file `bytes` (nullopt when it has none).
using PointerOf = std::function<Result<std::optional<std::string>>(const std::string& bytes, const std::string& where)>;
Result<std::vector<std::string>> FollowChain(const Part& p, const PointerOf& pointer_of);

struct Holder {  // where a footer sits: a part, or a nested tortilla inside it
  size_t part = 0;
  uint64_t base = 0;   // absolute first byte of the tortilla holding the footer
  uint64_t limit = 0;  // absolute end of that tortilla
  int64_t parent_id = -1;
  std::string path;    // ids from the root, for messages ("" at level 0)
  std::string driver;  // P2: the header's DF
};

struct Presented {
  Table rows;
  std::vector<std::string> paths;  // per row: ids from the root
};

Result<Presented> Present(const Table& raw, const Holder& at, const Part& part, int64_t first_id,
                          std::vector<std::string>& notes);
Table UnionLevel(std::vector<Table>& pieces, std::vector<std::string>& notes, int level);

struct NestedFooter {
  Holder holder;
  Result<std::string> footer = Status::Internal("not read");
};

std::vector<NestedFooter> ReadNested(const Table& level, const std::vector<std::string>& paths,
                                     const std::vector<Part>& parts,
                                     const std::unordered_map<std::string, size_t>& by_file);

}  // namespace taco::format::blob

#endif  // TACO_FORMAT_LEGACY_LEGACY_CONTAINER_H_
