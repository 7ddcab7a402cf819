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

#include "model/metadata.h"
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

// tacobridge 0.3.0's __meta__ layout (CreateWithMetaLayout, outputs.h): the table of every FOLDER
// in `tables.folder_meta` becomes its children's rows of the consolidated level below it, with
// all of that level's columns (internal:current_id and internal:parent_id included) except
// internal:relative_path. Internal error when a FOLDER has no rows below it.
Status UseLevelRowsAsMeta(model::LevelTables& tables);

}  // namespace taco::write

#endif  // TACO_WRITE_METADATA_COLUMNS_H_
