// Validation of a TACO dataset (ZIP, FOLDER or TACOCAT): every rule of spec §5–§6 and FORMAT §1–§4,
// §12 that a stored dataset must satisfy, each violation reported with its rule, where it
// is, what was found and what was expected — all of them, not just the first.
//
// Contract:
//  * Validate() only reads: the ZIP header, central directory and local headers, the
//    METADATA/level*.parquet members, every FOLDER's `__meta__` and COLLECTION.json (ZIP), or
//    the same files plus a listing of DATA/ (FOLDER); of the samples, only the header and
//    IFDs of TIFF files (file-size, local datasets only; a remote one gets a note); with
//    check_data (the default), every byte of a ZIP once, in file order and bounded memory,
//    for the CRC-32s (member-crc).
//  * Result error = the input cannot be read at all (no such path, not a ZIP, an I/O
//    failure, a server that does not answer byte ranges); the CLI exits 2.
//  * TACOCAT (`.tacocat/` folder or `__TACOCAT__` file): the index is opened like a dataset;
//    every source ZIP it names is validated as a ZIP (its violations' `where` starts with
//    "<source file>: "), and the index rows of each source must equal that source's level
//    rows (tacocat-part); a source that cannot be opened is a missing-member violation.
//  * A remote FOLDER is checked file by file (one small request per file, in parallel); it
//    cannot be listed, so `unreferenced-member` is not checked and `notes` says so. Otherwise a report: ok() (exit 0)
//    or violations (exit 1).
//  * taco_version must be MAJOR.MINOR.PATCH (any version); both provider forms (spec Contact
//    and STAC Provider) are accepted.
//  * Offsets are always checked against the member found BY ARCHIVE PATH, never by
//    position (FORMAT §1.5): level0 `DATA/<id>` (FILE) or `DATA/<id>/__meta__` (FOLDER),
//    level >= 1 `DATA/<relative path>` with `__meta__` appended for FOLDER rows. The relative
//    path used is the one implied by the ids and parent_ids; the stored one when that chain
//    is broken.
//  * `taco:field_schema` is compared by column names and types only (descriptions are free).
//  * At most `max_per_rule` violations of one rule are listed; the rest are counted in
//    `omitted`.
//
// Rules (the `rule` of a Violation):
//
// | rule                 | what it checks                                                                 |
// |----------------------|--------------------------------------------------------------------------------|
// | zip-header           | ZIP: a 157-byte TACO_HEADER STORE entry at byte 0 (FORMAT §1.2), count <= 7,     |
// |                      | pairs inside the file; the older TACO_GHOST entry is reported                  |
// | zip-store            | ZIP: every member is STORE (method 0) with compressed size == size               |
// | member-crc           | ZIP: every member's data has the CRC-32 of its central-directory entry, and its  |
// |                      | local header says the same (unless ValidateOptions::check_data is false)         |
// | duplicate-member     | ZIP: a member name listed twice in the central directory                         |
// | header-pairs         | ZIP: header pair i == data range of METADATA/level{i}.parquet, last pair ==      |
// |                      | COLLECTION.json, count == levels + 1                                           |
// | missing-member       | a member / file that must exist does not (COLLECTION.json, level0, DATA of a     |
// |                      | row, a FOLDER's __meta__)                                                      |
// | unreferenced-member  | a member / DATA file that no level row or __meta__ row refers to, or a level     |
// |                      | file after a gap (METADATA/level2 without level1)                              |
// | unreadable-member    | a Parquet member (or a sample's bytes, for file-size) that cannot be read      |
// | file-size            | a FILE sample that is a TIFF (GeoTIFF, COG, BigTIFF) holds every IFD, tag value  |
// |                      | and strip/tile its IFDs point at (a truncated file fails); local datasets only |
// | external-reference   | a FILE sample's bytes are a GDAL format that names other files or URLs (VRT,     |
// |                      | GTI, WMS, WMTS, WCS, MRF, ...): readers refuse it by default; local datasets only |
// | member-offset        | ZIP: internal:offset/size of a level or __meta__ row == the data range of the    |
// |                      | member at its archive path                                                     |
// | required-column      | a required column is missing or has the wrong type: levels id, type (string),    |
// |                      | internal:current_id, internal:parent_id (int64), ZIP internal:offset/size        |
// |                      | (int64), levels >= 1 internal:relative_path (string); __meta__ id, type, ZIP     |
// |                      | internal:offset/size                                                           |
// | internal-column      | an internal:* column where the format has none (FOLDER offset/size or any        |
// |                      | internal:* in a FOLDER __meta__, relative_path in level0, unknown internal:*)    |
// | extension-key        | an extension column name or COLLECTION.json key breaks ^[a-zA-Z0-9_]+(:\w+)?$   |
// |                      | or is reserved (id, type, path columns; internal:* anywhere)                   |
// | sample-id            | an id breaks the id rules (spec §5.1) or repeats among its siblings              |
// | sample-type          | type is not FILE or FOLDER                                                     |
// | current-id           | internal:current_id == the row's index in its level                            |
// | parent-id            | level0 parent_id == current_id; level >= 1 parent_id names an existing FOLDER    |
// |                      | row of the level above, rows grouped by parent in parent order; every FOLDER     |
// |                      | has at least one child                                                         |
// | relative-path        | level >= 1 internal:relative_path == parent path + id (+ '/' for FOLDER)          |
// | pit                  | position-isomorphic tree: one root type; FOLDERs at the same position have the   |
// |                      | same child count and, child by child, the same type and id (padding matches any  |
// |                      | id)                                                                            |
// | padding              | a __TACOPAD__ row: id __TACOPAD__<k> numbered from 0 after its real siblings,     |
// |                      | FILE, 0 bytes, null extension values                                           |
// | meta-consistency     | a FOLDER's __meta__ lists exactly its children of the next level, in order, with |
// |                      | equal id, type and extension values                                            |
// | level-schema         | an extension column of a __meta__ has the same type as in its level and exists   |
// |                      | there                                                                          |
// | collection-json      | COLLECTION.json is a JSON object                                               |
// | collection-field     | the collection fields: required id, dataset_version, description, licenses,      |
// |                      | providers, tasks; each known field well-formed (spec §5.5.2, FORMAT §4):         |
// |                      | taco_version MAJOR.MINOR.PATCH, extent.temporal ISO-8601 with start <= end       |
// | optical-bands        | optical:bands: unique non-empty names, positive center_wavelength and            |
// |                      | full_width_half_max; optical:num_bands == number of bands and, when a level      |
// |                      | has geotiff:stats, == the band count of some stats row                         |
// | outside-link         | local FOLDER: a sample file, __meta__, level or COLLECTION.json resolves through |
// |                      | a symbolic link outside the dataset directory (readers refuse it)              |
// | stats-values         | every value of a non-null geotiff:stats / internal:stats row is finite          |
// | tacocat-part         | TACOCAT: the index rows of a source ZIP == that ZIP's level rows, in order       |
// | tacocat-sources      | TACOCAT: taco:sources count and files name the index's source files            |
// | pit-schema           | taco:pit_schema present and equal to what the level tables imply (FORMAT §4.1)   |
// | tiff-profile         | with ValidateOptions::tiff_profile: each GeoTIFF member is tiled 512x512, ZSTD,  |
// |                      | TILE-interleaved, without overviews (validate/tiff_profile.h)                  |
// | legacy-*             | Tortilla / TACO v1 files: spec/LEGACY.md §12.3 (validate/legacy_checks.h)      |
// | field-schema         | taco:field_schema present, one list per level, names and types equal to the      |
// |                      | level columns (FORMAT §4.2; offset/size not listed)                            |
#ifndef TACO_VALIDATE_H_
#define TACO_VALIDATE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "taco/dataset.h"
#include "taco/status.h"

namespace taco {

struct Violation {
  std::string rule;      // kebab-case id from the table above
  std::string where;     // "level1 row 0 (europe/item_0)", "DATA/europe/__meta__", "COLLECTION.json tasks"
  std::string found;     // what is there
  std::string expected;  // what the rule requires
  bool operator==(const Violation&) const = default;
};

struct ValidationReport {
  std::string path;
  std::string format;                       // "zip", "folder" or "tacocat"
  std::vector<Violation> violations;        // in the order found, at most max_per_rule per rule
  std::map<std::string, uint64_t> omitted;  // rule -> violations found but not listed
  std::vector<std::string> notes;           // what could not be checked, and why

  bool ok() const { return violations.empty() && omitted.empty(); }
  // Listed plus omitted.
  uint64_t total() const;
};

struct ValidateOptions {
  size_t max_per_rule = 1000;
  // Also check every GeoTIFF member against the TACO-optimised GeoTIFF profile (rule
  // `tiff-profile`: tiled, 512x512 blocks, ZSTD, TILE interleave, no overviews).
  bool tiff_profile = false;
  // ZIP: read every member's bytes once and check its CRC-32 (member-crc). False (`taco
  // validate --fast`) reads only metadata.
  bool check_data = true;
  // Called while the member data is read for member-crc (ZIP, check_data): bytes checked so
  // far and in all. Optional.
  std::function<void(uint64_t done, uint64_t total)> progress;
  // How datasets are opened (TACOCAT base path, disk cache of remote metadata; taco/dataset.h).
  OpenOptions open;
};

Result<ValidationReport> Validate(const std::string& path, const ValidateOptions& options = {});

}  // namespace taco

#endif  // TACO_VALIDATE_H_
