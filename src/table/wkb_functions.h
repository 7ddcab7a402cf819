// SQL scalar functions for spatial filters, registered on an Engine's connection (DuckDB
// has no spatial extension here; FORMAT §6.5).
//
//   taco_wkb_intersects_box(wkb BLOB, minx DOUBLE, miny DOUBLE, maxx DOUBLE, maxy DOUBLE)
//     → BOOLEAN: the geometry meets the closed box (exact, see wkb_geometry.h).
//     NULL when any argument is NULL. Malformed WKB is an error naming the function.
//   taco_wkb_as_text(wkb BLOB) → VARCHAR, also registered as ST_AsText(wkb BLOB): the WKT
//     of the geometry (taco/geometry.h WkbToWkt). NULL for NULL.
//   taco_wkb_bbox(wkb BLOB) → STRUCT(xmin DOUBLE, ymin DOUBLE, xmax DOUBLE, ymax DOUBLE):
//     the 2D bounding box (taco/geometry.h WkbBounds); NULL for NULL or an empty geometry.
//     Use taco_wkb_bbox(g).xmin, ...
//   Malformed WKB is an error naming the function.
//
// Registration is per connection (temporary functions); call it once per Engine.
#ifndef TACO_TABLE_WKB_FUNCTIONS_H_
#define TACO_TABLE_WKB_FUNCTIONS_H_

#include "table/engine.h"
#include "taco/status.h"

namespace taco::table {

inline constexpr const char* kWkbIntersectsBox = "taco_wkb_intersects_box";
inline constexpr const char* kWkbAsText = "taco_wkb_as_text";
inline constexpr const char* kStAsText = "ST_AsText";
inline constexpr const char* kWkbBbox = "taco_wkb_bbox";

Status RegisterWkbFunctions(Engine& engine);

}  // namespace taco::table

#endif  // TACO_TABLE_WKB_FUNCTIONS_H_
