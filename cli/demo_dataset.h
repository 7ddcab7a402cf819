// The demo dataset: synthetic GeoTIFF tiles turned into a 2-level Taco with STAC and
// GeoTIFF-stats extensions (used by `taco demo`). Public API only.
#ifndef TACO_CLI_DEMO_DATASET_H_
#define TACO_CLI_DEMO_DATASET_H_

#include <string>
#include <vector>

#include "taco/demo_data.h"
#include "taco/model.h"

namespace taco::cli {

// Level 0: one FOLDER per tile (country, split, stac:centroid, stac:time_start/end);
// level 1: before.tif, after.tif, label.tif with STAC fields and geotiff:stats.
// The collection carries Labels and OpticalData (Sentinel-2 B02, B03, B04, B08).
Result<Taco> BuildDemoTaco(const std::string& tiles_dir, const std::vector<DemoTile>& tiles);

}  // namespace taco::cli

#endif  // TACO_CLI_DEMO_DATASET_H_
