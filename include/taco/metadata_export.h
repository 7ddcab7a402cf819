// `taco export-metadata`: one level of any dataset (ZIP, FOLDER, TACOCAT, Tortilla / TACO
// v1) as a Parquet file — the v0.2 paper's footer2geoparquet / footer2geoparquetstac.
//
// Contract:
//  * Rows: the stored level (padding hidden), internal:* columns dropped except
//    internal:gdal_vsi (the sample's GDAL path).
//  * kGeoParquet (GeoParquet 1.1): a `geometry` WKB column taken from istac:geometry,
//    stac:centroid or istac:centroid (the first present, or `geometry_column`), and the file
//    metadata `geo` = {version 1.1.0, primary_column geometry, columns.geometry: {encoding
//    WKB, geometry_types (those present), crs (PROJJSON of OGC:CRS84, lon/lat), bbox}}.
//  * kStacGeoParquet (stac-geoparquet 1.0, also GeoParquet): one STAC Item per row: type,
//    stac_version, stac_extensions, id, geometry, bbox {xmin, ymin, xmax, ymax}, datetime /
//    start_datetime / end_datetime (UTC timestamps, from stac|istac:time_start/_end/_middle),
//    the other columns as properties, assets.data {href = the GDAL path, roles [data]},
//    links [], collection (the collection id).
//  * Written atomically; the output must not exist. Errors name the dataset and the level.
#ifndef TACO_METADATA_EXPORT_H_
#define TACO_METADATA_EXPORT_H_

#include <cstdint>
#include <string>

#include "taco/dataset.h"
#include "taco/status.h"

namespace taco {

enum class MetadataFlavor { kPlain, kGeoParquet, kStacGeoParquet };

struct MetadataExportOptions {
  int level = 0;
  MetadataFlavor flavor = MetadataFlavor::kPlain;
  std::string geometry_column = "auto";
};

// Returns the number of rows written.
Result<uint64_t> ExportMetadata(Dataset& dataset, const std::string& output, const MetadataExportOptions& options = {});

}  // namespace taco

#endif  // TACO_METADATA_EXPORT_H_
