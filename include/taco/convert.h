// Conversions (FOLDER ⇄ ZIP) and export of a dataset view (spec §7.1.3–§7.1.4, FORMAT §4).
//
// One mechanism serves both: the selected level-0 rows of a view are rebuilt into a Taco —
// each FILE sample streams its bytes from the source (a byte range of a local or remote
// ZIP, or a file of a FOLDER), each FOLDER sample is navigated through its `__meta__`
// recursively, and the whole subtree of every selected sample is kept — and then written
// with Create().
//
// Contract:
//  * Extension values are the row's columns minus `id`, `type` and `internal:*`, with their
//    stored types; descriptions come from the source's `taco:field_schema`. Padding samples
//    (`__TACOPAD__<k>`) are recreated as padding; sibling order is kept.
//  * Collection = the source COLLECTION.json minus `taco:pit_schema`, `taco:field_schema`,
//    `taco:sources` and `_tacocat` (regenerated / not applicable), with `taco_version`
//    "2.0.0". Export also drops `extent` (recomputed for the subset) and sets
//    `taco:subset_of` (the source id) and `taco:subset_date` (UTC now, ISO-8601 with
//    microseconds and "+00:00", as Python's datetime.isoformat()).
//  * Safety: every id is checked with ValidateSampleId before any path is built from it, so
//    names such as "../x", "/abs" or "a\\b" are refused (InvalidArgument naming the source
//    and the sample) and nothing is written outside the output; in a FOLDER source every
//    path component below the dataset root is lstat()ed and a symbolic link is refused.
//  * Outputs are atomic (Create()); an existing output is AlreadyExists before anything is
//    read or written.
//  * Remote sources: only the selected samples are read; each sample is copied with up to 4
//    ranged reads in flight.
#ifndef TACO_CONVERT_H_
#define TACO_CONVERT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "taco/dataset.h"
#include "taco/model.h"
#include "taco/status.h"
#include "taco/writer.h"

namespace taco {

struct RebuildOptions {
  // true: export semantics for the collection (no extent; taco:subset_of/subset_date).
  bool is_export = false;
  // Convert only: re-append the root padding rows of the source (hidden from views).
  bool keep_root_padding = false;
  // Overrides taco:subset_date (tests); empty = now.
  std::string subset_date;
};

// The Taco holding the level-0 rows of `view` (in view order) with their whole subtrees,
// navigated in `source` (the unfiltered dataset `view` derives from; may be `view` itself).
// `view` must keep the columns `id`, `type` and `internal:gdal_vsi`.
Result<Taco> RebuildTaco(const Dataset& view, const Dataset& source, const RebuildOptions& options = {});

struct ExportOptions {
  OutputFormat format = OutputFormat::kAuto;  // auto: ".zip"/".tacozip" → ZIP, else FOLDER
  // The unfiltered dataset `view` derives from. Null: `view.path()` is reopened (cascading
  // filters would otherwise hide children and break whole subtrees).
  const Dataset* source = nullptr;
  std::string subset_date;  // overrides taco:subset_date (tests); empty = now
  // Each FOLDER's `__meta__` = its children's rows of their consolidated level, with
  // internal:current_id and internal:parent_id (in a ZIP also internal:offset/size), without
  // internal:relative_path: the layout tacobridge 0.3.0 writes. Default (false): tacotoolbox's
  // layout, no internal columns besides the ZIP's offset/size (FORMAT §3.1).
  bool meta_with_ids = false;
  std::function<void(uint64_t done, uint64_t total)> progress;
  // How `view.path()` is reopened when `source` is null (taco/dataset.h).
  OpenOptions open;
  size_t copy_threads = 0;  // CreateOptions::copy_threads
};

// `taco export`: writes the subset selected by `view` to `output` (never split).
Result<std::vector<std::string>> Export(const Dataset& view, const std::string& output,
                                        const ExportOptions& options = {});

struct ConvertOptions {
  // kAuto: the other container (ZIP input → FOLDER, FOLDER input → ZIP; TACOCAT → FOLDER).
  OutputFormat format = OutputFormat::kAuto;
  bool meta_with_ids = false;  // as ExportOptions::meta_with_ids
  std::function<void(uint64_t done, uint64_t total)> progress;
  size_t copy_threads = 0;  // CreateOptions::copy_threads
  // How datasets are opened (TACOCAT base path, disk cache of remote metadata; taco/dataset.h).
  OpenOptions open;
};

// `taco convert`: the whole dataset at `input` (padding included) rewritten as `output`.
Result<std::vector<std::string>> Convert(const std::string& input, const std::string& output,
                                         const ConvertOptions& options = {});

// "2026-01-02T10:11:12.123456+00:00" for the current UTC time.
std::string UtcNowIsoformat();

}  // namespace taco

#endif  // TACO_CONVERT_H_
