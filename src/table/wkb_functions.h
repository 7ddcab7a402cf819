// SQL scalar functions for spatial filters, registered on an Engine's connection (DuckDB
// has no spatial extension here; FORMAT §6.5).
//
//   taco_wkb_intersects_box(wkb BLOB, minx DOUBLE, miny DOUBLE, maxx DOUBLE, maxy DOUBLE)
//     → BOOLEAN: the geometry meets the closed box (exact, see wkb_geometry.h).
//     NULL when any argument is NULL. Malformed WKB is an error naming the function.
//
// Registration is per connection (temporary functions); call it once per Engine.
#ifndef TACO_TABLE_WKB_FUNCTIONS_H_
#define TACO_TABLE_WKB_FUNCTIONS_H_

#include "table/engine.h"
#include "taco/status.h"

namespace taco::table {

inline constexpr const char* kWkbIntersectsBox = "taco_wkb_intersects_box";

Status RegisterWkbFunctions(Engine& engine);

}  // namespace taco::table

#endif  // TACO_TABLE_WKB_FUNCTIONS_H_
