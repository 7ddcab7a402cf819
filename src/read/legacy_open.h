// Dataset::Open for the legacy BLOB formats (Tortilla 0.5 / TACO v1, spec/LEGACY.md): the
// backend that presents footers as level tables (see taco/legacy.h for the columns). The
// container's bytes (parts, footers, chained footers, nested tortillas) and the footer rows'
// presentation are format/legacy/legacy_container.h; here the footers are decoded with the
// engine and become the level tables.
//
// Contract:
//  * Opening any part of a multi-part set opens the whole set: siblings are named from the
//    header's DP and `name.NNNN.part<suffix>` (0000..DP-1, or the spec's 0001..DP); a missing
//    part is NotFound naming it; parts whose DP or magic differ are Corruption.
//  * Per part: one read of the first bytes (header), one of the footer (plus the COLLECTION
//    in the same read when it follows the footer, as every writer puts it). Remote parts are
//    fetched in parallel. Every nested footer at any depth is read at open (header + footer
//    of each nested tortilla, in parallel for remote files) and becomes the next level.
//  * Fills state: collection (TACO: the JSON; Tortilla: an empty object), levelN_table
//    tables, num_levels, vsi_root (the directory of the parts), containers (one reader per
//    part), legacy (LegacyInfo) and children_of (navigation reads children from the level
//    tables, never from the file again).
//  * Errors name the part (and the sample for nested items): bad magic, a footer outside the
//    file or not Parquet, an item outside its file, a nested item that is not a Tortilla.
#ifndef TACO_READ_LEGACY_OPEN_H_
#define TACO_READ_LEGACY_OPEN_H_

#include "read/dataset_state.h"
#include "taco/dataset.h"
#include "taco/status.h"

namespace taco::read {

Status OpenLegacy(Dataset::State& state, const OpenOptions& options);

}  // namespace taco::read

#endif  // TACO_READ_LEGACY_OPEN_H_
