// Exact "geometry intersects a closed axis-aligned box" test on Well-Known Binary, the
// predicate behind filter_bbox (FORMAT §6.5: ST_Intersects(geom, ST_MakeEnvelope(...))).
//
// Contract:
//  * Accepts ISO WKB (types 1..7, +1000 Z, +2000 M, +3000 ZM) and EWKB (flag bits
//    0x80000000 Z, 0x40000000 M, 0x20000000 SRID), both byte orders. Z/M are ignored:
//    the test is 2D, in the geometry's own coordinates (no reprojection).
//  * Closed sets: touching the box border counts as intersecting.
//  * Exact for every type: a point is inside the box; a line string has a segment that
//    meets the box; a polygon meets the box when one of its ring segments does, or when the
//    box lies inside the polygon (even-odd rule over all rings, so holes are honoured);
//    multi-geometries and collections when any part does. Empty geometries never intersect.
//  * Malformed or truncated WKB, trailing bytes, nesting deeper than 32: Corruption.
//  * No DuckDB header here; wkb_functions.cc exposes this to SQL.
#ifndef TACO_TABLE_WKB_GEOMETRY_H_
#define TACO_TABLE_WKB_GEOMETRY_H_

#include <string_view>

#include "taco/status.h"

namespace taco::table {

struct Box {
  double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
};

// True when the WKB geometry and the closed box `box` share at least one point.
// REQUIRES: box.min_x <= box.max_x and box.min_y <= box.max_y.
Result<bool> WkbIntersectsBox(std::string_view wkb, const Box& box);

}  // namespace taco::table

#endif  // TACO_TABLE_WKB_GEOMETRY_H_
