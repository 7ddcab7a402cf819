// Adding the ZIP-only columns internal:offset / internal:size to metadata tables.
//
// The offsets are looked up by archive path in the map of members actually written
// (FORMAT §1.5: never by position). A path with no member is an Internal error (the writer
// writes every member before the table that points at it).
#ifndef TACO_WRITE_METADATA_COLUMNS_H_
#define TACO_WRITE_METADATA_COLUMNS_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "taco/status.h"
#include "taco/value.h"

namespace taco::write {

struct MemberRange {
  uint64_t offset = 0;
  uint64_t size = 0;
};
using MemberRanges = std::unordered_map<std::string, MemberRange>;

// The member that stands for a row: a FILE's data member, or a FOLDER's "<path>/__meta__".
// `archive_path` follows model::LevelTables (FOLDER paths end with '/').
std::string MemberPathOf(const std::string& archive_path);

// Inserts internal:offset and internal:size (int64) into `table`, taking each row's range
// from `ranges` at MemberPathOf(row_paths[row]). They go before internal:relative_path when
// the table has one, else at the end (FORMAT §3.2).
Status AddOffsetColumns(Table& table, const std::vector<std::string>& row_paths, const MemberRanges& ranges);

}  // namespace taco::write

#endif  // TACO_WRITE_METADATA_COLUMNS_H_
