// A small reader for (ISO/OGC and EWKB) Well-Known Binary: points and bounding boxes.
//
// Contract: accepts both byte orders; geometry type codes in ISO form (1..7, +1000 Z,
// +2000 M, +3000 ZM) and EWKB form (high flag bits 0x80000000 Z, 0x40000000 M, 0x20000000
// SRID, the SRID then skipped). Z/M ordinates are read and ignored. Anything malformed,
// truncated or with trailing bytes is Corruption with a short reason. Empty geometries
// (points with NaN coordinates, zero-count collections) are reported as empty.
#ifndef TACO_MODEL_WKB_H_
#define TACO_MODEL_WKB_H_

#include <string_view>

#include "taco/status.h"

namespace taco::model {

struct WkbPoint {
  double x = 0;
  double y = 0;
};

struct WkbBox {
  bool empty = true;
  double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
};

// The point of a WKB Point; Corruption for another geometry type. `empty` (optional) is set
// when the point is POINT EMPTY (NaN coordinates); then the result holds NaNs.
Result<WkbPoint> ParseWkbPoint(std::string_view wkb, bool* empty = nullptr);

// The 2D bounding box of any WKB geometry (Point .. GeometryCollection).
Result<WkbBox> WkbBounds(std::string_view wkb);

}  // namespace taco::model

#endif  // TACO_MODEL_WKB_H_
