// How many bytes a TIFF (GeoTIFF, COG, BigTIFF) needs: the end of its last IFD, of every
// out-of-line tag value and of every strip and tile its IFDs point at. A file shorter than
// that was truncated. Reads only the header, the IFDs and their offset/byte-count arrays.
#ifndef TACO_VALIDATE_TIFF_EXTENT_H_
#define TACO_VALIDATE_TIFF_EXTENT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "taco/io.h"
#include "taco/status.h"

namespace taco::validate {

struct TiffExtent {
  uint64_t required = 0;  // bytes the file must have
  std::string what;       // what ends there, e.g. "tile 3 of IFD 0"
};

// nullopt when `reader` does not start with a TIFF header (not a TIFF: nothing to check).
// A read error (other than the truncation being measured) is returned as is. IFD chains are
// followed up to 10,000 IFDs (a loop ends the chain); arrays of more than 16,777,216
// values are not read (their tag is skipped).
Result<std::optional<TiffExtent>> MeasureTiff(const RangeReader& reader);

}  // namespace taco::validate

#endif  // TACO_VALIDATE_TIFF_EXTENT_H_
