// Decoding one raster with GDAL into a C-contiguous (bands, rows, cols) buffer: the pixel
// half of SampleDecoder (taco/sample_loader.h). Thread-safe (one GDAL dataset per call).
#ifndef TACO_READ_RASTER_DECODE_H_
#define TACO_READ_RASTER_DECODE_H_

#include <cstddef>
#include <string>

#include "gdal/sample_raster.h"
#include "taco/sample_loader.h"
#include "taco/status.h"

namespace taco::read {

// Decodes the raster at the GDAL path `path`, opened by ext::internal::OpenSampleRaster
// under `access` (by default only self-contained formats, no side-car files, no network).
// `what` prefixes every error ("<dataset>: sample 'x' (row 3), file 'image.tif'").
// `target` (may be null): written instead of a buffer of its own when the raster has exactly
// its type and shape (DecodeTarget in taco/sample_loader.h).
Result<DecodedRaster> DecodeRasterPath(const std::string& path, const RasterSelection& selection,
                                       const std::string& what, const ext::internal::RasterAccess& access,
                                       const DecodeTarget* target = nullptr);

// The same for `size` bytes in memory (a /vsimem/ file over them for the call; the bytes are
// not copied). `leaf` is the file name drivers see (its extension may matter).
Result<DecodedRaster> DecodeRasterBytes(const char* data, size_t size, const std::string& leaf,
                                        const RasterSelection& selection, const std::string& what,
                                        const ext::internal::RasterAccess& access,
                                        const DecodeTarget* target = nullptr);

}  // namespace taco::read

#endif  // TACO_READ_RASTER_DECODE_H_
