// Synthetic Earth-Observation demo data for `taco demo` and tests: a small tree of real,
// georeferenced GeoTIFFs that looks like a change-detection dataset.
//
// Contract: SynthesizeDemoTree(dir) creates `dir` (and parents) if needed and writes
//   dir/tile_XX/before.tif  4 bands (B02, B03, B04, B08) UInt16, reflectance x 10000
//   dir/tile_XX/after.tif   same bands, later date, with some land-cover change
//   dir/tile_XX/label.tif   1 band Byte: 0 water, 1 vegetation, 2 bare soil, 3 built-up
// for XX = 00 .. tiles-1, each tile in the UTM zone (WGS 84, EPSG:326xx/327xx) of a place in
// one of several countries, 10 m pixels, DEFLATE-compressed. Existing files are overwritten.
// Output is deterministic (same options, same bytes of pixel data). It returns one DemoTile
// per tile, in order, so a caller can attach metadata (times, country) to the samples.
#ifndef TACO_DEMO_DATA_H_
#define TACO_DEMO_DATA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "taco/status.h"

namespace taco {

struct DemoOptions {
  int tiles = 48;  // >= 1
  int size = 64;   // pixels per side, >= 8
};

struct DemoTile {
  std::string id;  // "tile_00": the folder name under dir
  double lon = 0;  // EPSG:4326 centre of the tile's rasters
  double lat = 0;
  int64_t time_start_us = 0;  // acquisition of before.tif
  int64_t time_end_us = 0;    // acquisition of after.tif
  std::string country;        // "Spain", "Kenya", ...
};

Result<std::vector<DemoTile>> SynthesizeDemoTree(const std::string& dir, const DemoOptions& options = {});

}  // namespace taco

#endif  // TACO_DEMO_DATA_H_
