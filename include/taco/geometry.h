// Geometry values stored as Well-Known Binary (stac:centroid, istac:geometry, ...), turned
// into text and boxes for people and for SQL (the same code serves the SQL functions
// taco_wkb_as_text / ST_AsText and taco_wkb_bbox).
//
// Accepted input: ISO WKB (types 1..7 with Z, M, ZM) and EWKB (Z/M/SRID flags), either byte
// order, nesting up to 32 levels. Malformed, truncated or trailing bytes: Corruption.
#ifndef TACO_GEOMETRY_H_
#define TACO_GEOMETRY_H_

#include <optional>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco {

// WKT as in OGC Simple Features 1.2 / ISO SQL/MM: "POINT (1 2)", "POINT Z (1 2 3)",
// "POLYGON ((0 0, 1 0, 1 1, 0 0))", "MULTIPOINT ((1 2), (3 4))", "LINESTRING EMPTY",
// "GEOMETRYCOLLECTION (POINT (1 2), ...)"; EWKB with an SRID gets an "SRID=<n>;" prefix.
// Numbers in their shortest round-trip form; NaN coordinates of an empty point give
// "POINT EMPTY".
Result<std::string> WkbToWkt(std::string_view wkb);

struct Bounds {
  double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
};
// The 2D bounding box of every coordinate (Z/M ignored); nullopt for an empty geometry.
Result<std::optional<Bounds>> WkbBounds(std::string_view wkb);

}  // namespace taco

#endif  // TACO_GEOMETRY_H_
