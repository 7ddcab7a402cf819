// Building a Taco from a directory tree (`taco create SRC OUT`).
//
// Contract:
//  * Every entry under `src` is a sample: a directory is a FOLDER (its entries are its
//    children), a regular file a FILE; the entry's name is the sample id (ids follow
//    ValidateSampleId). Entries whose name starts with '.' are skipped. A symlink to a file
//    is followed (the FILE's data is the target's bytes); a symlink to a directory, a
//    dangling symlink, a special file or an empty directory is an error naming the path.
//  * Sibling order: by name, byte order. With `order_file` (one path relative to `src` per
//    line; blank lines ignored, surrounding spaces trimmed) the listed siblings come first,
//    in the listed order, and the unlisted ones follow by name. A listed path that is not a
//    sample, or a path listed twice, is an error naming the file and line.
//  * Extension columns come from `metadata_files` (write/metadata_files.h for formats and
//    type inference): a row's `path` is the sample's path relative to `src`; rows whose
//    path is no sample are one error naming the file, line and path of the first (and how
//    many more, listing up to 5). Samples of a level that has metadata rows but no row of
//    their own are reported through `warning` (how many, up to 5 paths); with
//    `require_metadata` they are an error instead. A column belongs to the
//    levels where at least one of its cells is non-empty; every sample of such a level gets
//    it (null where its row is missing or the cell empty), so strict schemas hold. Column
//    order: first appearance over the files, in the order given.
//  * `extensions` are computed after the metadata columns, in the order given. Each is
//    "NAME" or "NAME:GLOB" (ext::ParseExtensionSpecs, which the CLI's --ext and Python's
//    from_directory(ext=) both call) with NAME one of ext::KnownExtensionNames() (stac, istac,
//    stats, stats-categorical): computed for every FILE sample, or only for the FILE samples whose
//    name matches GLOB (fnmatch(3); a GLOB holding '/' is matched against the path relative
//    to `src` instead, e.g. "*/s2/*.tif"). A GLOB that matches no FILE is an error naming it.
//    On each level the columns are the union of those computed there, in entry order: two
//    entries giving the same column (stats:image.tif, stats-categorical:mask.tif both give
//    geotiff:stats) share one column, each sample holding the value of the entry that matched
//    it; a FILE matched by two entries that give the same column is an error. Samples of
//    the level an entry did not compute get nulls (FOLDERs included). The FILE computations
//    run on a pool of threads (`extension_threads`), each
//    opening its own GDAL dataset, and are merged in sample order: the Taco, the `progress`
//    calls (on the calling thread) and the error returned (the first in sample order) are
//    the same whatever the thread count.
//  * FOLDER samples get the STAC/ISTAC columns too, on every level that holds a FOLDER, once
//    stac/istac was computed for some FILE: the values are computed from the samples below
//    (ext::StacFromChildren / IstacFromChildren: lon/lat footprint box, its centre, earliest
//    start and latest end), children first, so that level-0 bbox/datetime filters and the
//    collection extent work on a tree of sample folders.
//  * `time_column`: a metadata column (timestamp[us], or ISO-8601 text) whose value becomes
//    the stac:time_start / istac:time_start of the sample it describes (an instant: time_end
//    stays null). A FOLDER with such a time keeps it; FOLDERs without one get the earliest
//    and latest time below them. Errors: no metadata column of that name, a column of
//    another type, text that is no ISO-8601 date/datetime, a sample with a time but no
//    stac/istac columns.
//  * "majortom" (a tortilla extension, no GLOB) adds majortom:code to every tortilla that has
//    a stac:centroid or istac:centroid column (an error when none has).
//  * `pad_to`: every folder's children, and the root when it holds FILEs, are padded to a
//    multiple of it with __TACOPAD__<k> FILE samples (FORMAT §3.5). A root of FOLDERs is not
//    padded (FILE pads beside FOLDERs would break the rule that root samples share one type).
//  * Errors are those of the model (Sample/Tortilla/Taco::Make), prefixed with the path
//    they concern: "<src>/tile_a/__x: id '__x' starts with '__' ...",
//    "<src>: PIT: level 2: folder 'tile_c/s2' has 2 children, expected 3 (as 'tile_a/s2')",
//    "<collection_name>: collection: missing required field 'licenses'".
//  * Nothing is written; Create() (taco/writer.h) writes the result.
#ifndef TACO_TREE_BUILDER_H_
#define TACO_TREE_BUILDER_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/extensions.h"
#include "taco/model.h"
#include "taco/status.h"

namespace taco {

struct DirectoryOptions {
  nlohmann::ordered_json collection;           // the collection fields
  std::string collection_name;                 // where they came from, for messages (optional)
  std::string order_file;                      // optional
  std::vector<std::string> metadata_files;     // CSV (.csv), JSON Lines (.jsonl/.ndjson/.json), Parquet
  std::vector<ext::ExtensionSpec> extensions;  // ext::ParseExtensionSpecs of "NAME[:GLOB]" (see above)
  std::string time_column;                     // metadata column giving a sample's time (optional)
  // Entries that are not samples: a glob without '/' is matched against an entry's name, one
  // with '/' against its path relative to `src` (fnmatch). By default GDAL's sidecars
  // ("image.tif.aux.xml", written when GDAL computes statistics) are left out.
  std::vector<std::string> exclude = {"*.aux.xml"};
  // e.g. the classes of stats-categorical, also stored as COLLECTION.json
  // `geotiff:class_values` (unless the collection has that key) for readers to name them.
  ext::ExtensionSettings extension_settings;
  std::optional<size_t> pad_to;
  // Strict: identical extension schemas per level, and metadata columns whose values mix
  // types (1 and "a", [1] and 1, a timestamp column with "yesterday") are refused, naming
  // the column and the first value of each type. Non-strict: schemas are aligned (union,
  // nulls) and such columns are stored as string, each reported through `warning`.
  bool strict_schema = true;
  // Every sample of a level that metadata rows describe must have a row of its own.
  bool require_metadata = false;
  // Receives warnings (one line each: samples without a metadata row, metadata columns
  // widened to string in non-strict mode) once the Taco is
  // built (none when building fails). May be empty.
  std::function<void(const std::string& message)> warning;
  // Called while --ext extensions are computed: (FILE samples done, FILE samples total).
  std::function<void(size_t done, size_t total)> progress;
  // The extensions may open inputs in any GDAL format, VRT and others naming files or URLs
  // included (`taco --allow-external-rasters`). False: only self-contained formats, unless
  // the GDAL option / environment variable TACO_ALLOW_EXTERNAL_RASTERS is YES.
  bool allow_external_rasters = false;
  // Threads that compute the extensions. 0 (the default): TACO_EXT_THREADS when it holds
  // 1..256, else the hardware concurrency. Never changes the values computed nor their order.
  size_t extension_threads = 0;
};

Result<Taco> TacoFromDirectory(const std::string& src, const DirectoryOptions& options);

// Reads a COLLECTION-fields JSON file (a JSON object) and checks it with
// ValidateCollection. Errors are prefixed with `path`.
Result<nlohmann::ordered_json> LoadCollectionFile(const std::string& path);

// The names `extensions` accepts.
std::vector<std::string> DirectoryExtensionNames();

}  // namespace taco

#endif  // TACO_TREE_BUILDER_H_
