// Consolidating TACO ZIPs: TACOCAT (FORMAT §5.1, §5.2) and TACOLLECTION (FORMAT §5.3).
//
// Contract:
//  * Inputs are TACO ZIP files (`.tacozip`/`.zip`), read in place: their TACO_HEADER, the
//    METADATA/level*.parquet members and COLLECTION.json. No DATA member is read.
//  * CreateTacocat writes `<dir>/.tacocat/` (level{N}.parquet, COLLECTION.json) or, with
//    `single_file`, `<dir>/__TACOCAT__` (128-byte header, level Parquets, COLLECTION.json).
//    Levels are the inputs' levels concatenated in input order, plus the string column
//    `internal:source_file` (each input's base file name); `internal:current_id`,
//    `internal:parent_id`, `internal:offset`, `internal:size`, `internal:relative_path` are
//    copied unchanged (local to their source ZIP). Columns: `id`, `type`, then all others
//    sorted by name when there is more than one input. Parquet: zstd.
//  * Schemas: by default every input's level N must have exactly the first input's columns
//    (names, types, order) and the same number of levels; otherwise InvalidArgument
//    "<input>: level N ...: <what differs>". With `align_schemas`, levels are aligned by the
//    union of their columns (missing values null); a column whose type differs between
//    inputs is still an error.
//  * Outputs are atomic (temporary sibling, renamed at the end) and never replace an
//    existing `.tacocat`/`__TACOCAT__`/TACOLLECTION file (AlreadyExists).
//  * COLLECTION.json (either form) is the TACOLLECTION of the inputs; `__TACOCAT__` adds
//    "_tacocat": {"version": 1, "num_datasets": N, "dataset_sources": [sorted names]}.
//  * Errors are Status values; nothing throws.
#ifndef TACO_TACOCAT_H_
#define TACO_TACOCAT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/status.h"

namespace taco {

struct TacocatOptions {
  // Directory that receives `.tacocat/` or `__TACOCAT__`. Empty: the directory holding the
  // inputs (they must then all be in one directory). `internal:source_file` holds each
  // input's path relative to it ("a.tacozip", "parts/a.tacozip"), which is how readers find
  // the ZIPs: local inputs must lie in it or below it (readers refuse paths that leave the
  // TACOCAT's directory), else InvalidArgument saying so. Remote inputs (URLs) keep their
  // base names; read such a TACOCAT with OpenOptions::base_path (`--base-path`) set to
  // their URL directory.
  std::string output_dir;
  // Write the single-file `__TACOCAT__` (FORMAT §5.1) instead of the `.tacocat/` folder.
  bool single_file = false;
  // Union of columns with nulls (upstream's non-strict mode) instead of identical schemas.
  bool align_schemas = false;
  // Receives warnings: level-0 ids found in more than one input (a reader then refuses to
  // resolve such an id and asks for a position, see taco/dataset.h).
  std::function<void(const std::string& warning)> warn;
  // Receives progress from the calling thread as (done, total) steps: one step per input
  // (its header, COLLECTION.json and level schemas read), then one per level Parquet
  // written. `total` is inputs + 1 until every input is open, then inputs + levels; `done`
  // never decreases and ends equal to `total` on success.
  std::function<void(uint64_t done, uint64_t total)> progress;
};

// Writes the TACOCAT of `inputs` and returns the path written (`<dir>/.tacocat` or
// `<dir>/__TACOCAT__`). Input base names must be unique. At least one input.
Result<std::string> CreateTacocat(const std::vector<std::string>& inputs, const TacocatOptions& options = {});

struct TacollectionOptions {
  // Check that every input has the same pit structure (root type, hierarchy keys, pattern
  // counts, pattern type/id arrays).
  bool validate_pit = true;
  // Check that every input has the same taco:field_schema (deep equality). When false, the
  // field schemas are merged per level (first input's entries, then new names in order).
  bool validate_fields = true;
};

// The TACOLLECTION object of `inputs` (FORMAT §5.3): the first input's collection with
// summed pit counts, merged extent and `taco:sources`.
Result<nlohmann::ordered_json> BuildTacollection(const std::vector<std::string>& inputs,
                                                 const TacollectionOptions& options = {});

// BuildTacollection written to `output` (JSON, indent 4), atomically.
Status CreateTacollection(const std::vector<std::string>& inputs, const std::string& output,
                          const TacollectionOptions& options = {});

}  // namespace taco

#endif  // TACO_TACOCAT_H_
