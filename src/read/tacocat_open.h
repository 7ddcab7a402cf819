// Opening TACOCAT datasets (FORMAT §5.1, §5.4): the `.tacocat/` folder and the single
// `__TACOCAT__` file. Called by Dataset::Open for a TACOCAT.
//
// Contract: fills `state` (collection, levelN_table views over the level Parquets, num_levels).
// One open for local and remote locations: a `__TACOCAT__` file is read through
// io/container_reader.h, a `.tacocat/` folder through io/object_folder.h (read/level_files.h),
// which decide how the bytes come (local: in place; remote: few parallel requests and the
// disk cache, honouring OpenOptions::use_cache, served from memory).
// Sets state.vsi_root to the directory holding the source ZIPs
// (without trailing slash): OpenOptions::base_path (as ToVsiPath) when given, else
// $TACO_BASE_PATH when set, else the directory that holds `.tacocat` / `__TACOCAT__`. Sample paths are then
// `/vsisubfile/{offset}_{size},{vsi_root}/{internal:source_file}`. Errors name the path.
#ifndef TACO_READ_TACOCAT_OPEN_H_
#define TACO_READ_TACOCAT_OPEN_H_

#include "read/dataset_state.h"
#include "taco/dataset.h"
#include "taco/status.h"

namespace taco::read {

Status OpenTacocat(Dataset::State& state, const OpenOptions& options);

}  // namespace taco::read

#endif  // TACO_READ_TACOCAT_OPEN_H_
