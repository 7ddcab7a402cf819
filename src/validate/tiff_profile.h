// `taco validate --tiff-profile`: every GeoTIFF member (a FILE sample whose bytes start with
// a TIFF or BigTIFF signature; others are skipped) must follow the TACO-optimised GeoTIFF
// profile of the v0.2 paper (spec/000, "TOG"): tiled, 512x512 blocks, ZSTD compression,
// TILE interleave (multi-band: planar-separate tiles stored tile by tile, every band of a
// tile before the next tile; GDAL >= 3.11 writes this as INTERLEAVE=TILE), no overviews.
// Each departure is one violation of rule `tiff-profile` at "level N sample <path>". Only
// the TIFF header and IFDs are read (a few small ranged reads per member), never pixels.
#ifndef TACO_VALIDATE_TIFF_PROFILE_H_
#define TACO_VALIDATE_TIFF_PROFILE_H_

#include <string>

#include "taco/status.h"
#include "taco/validate.h"

namespace taco::validate {

// Adds the violations to `report` (and a note with how many members were checked).
Status CheckTiffProfile(const std::string& path, const ValidateOptions& options, ValidationReport& report);

}  // namespace taco::validate

#endif  // TACO_VALIDATE_TIFF_PROFILE_H_
