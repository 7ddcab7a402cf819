// `taco validate` for the legacy BLOB formats (Tortilla 0.5 / TACO v1, spec/LEGACY.md §12.3):
// every part of the set and every nested tortilla, checked from the raw bytes (not through
// Dataset::Open, so that broken files are described, not just refused).
//
// Rules (violations): legacy-header (size, magic, layout; P0/P1 prototypes), legacy-footer
// (200 <= FO, FO + FL inside the file or nested item, PAR1 at both ends, readable Parquet),
// legacy-file-end (Tortilla FO + FL == size; TACO CO == FO + FL and CO + CL == size),
// legacy-collection (UTF-8 JSON object with an id), legacy-column (tortilla:id, offset,
// length, file_format unless P2; offset/length non-null and >= 0), legacy-id (unique in a
// footer and across parts), legacy-item-range (items inside the pile, no overlap),
// legacy-file-format (BYTES, TORTILLA or a GDAL driver name), legacy-nested (a TORTILLA item
// is a standalone Tortilla: magic, FO + FL == its length), legacy-value (data_split,
// geotransform, raster_shape, time_start <= time_end, centroid WKT), legacy-parts (same DP
// = number of parts, contiguous names, identical COLLECTION bytes).
// Warnings (report notes, "warning: ..."): non-zero free header bytes, gaps or out-of-order
// items (edit_footer can leave them), 1-based part numbers.
#ifndef TACO_VALIDATE_LEGACY_CHECKS_H_
#define TACO_VALIDATE_LEGACY_CHECKS_H_

#include <string>

#include "taco/status.h"
#include "taco/validate.h"

namespace taco::validate {

Result<ValidationReport> ValidateLegacy(const std::string& path, const ValidateOptions& options);

}  // namespace taco::validate

#endif  // TACO_VALIDATE_LEGACY_CHECKS_H_
