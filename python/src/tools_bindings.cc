// Tools of taco_cpp._native beyond reading and writing: the synthetic demo tree of `taco demo`
// (taco/demo_data.h). Thin: the behaviour is the C++ library's.
#include <string>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "errors.h"
#include "taco/demo_data.h"

namespace nb = nanobind;

namespace taco::py {

void BindTools(nb::module_& m) {
  // The GeoTIFF tree of `taco demo` in `dir`: a list of dicts, one per tile (id, lon, lat,
  // time_start_us, time_end_us, country).
  m.def("demo_tree", [](const std::string& dir, int tiles, int size) {
    DemoOptions o;
    o.tiles = tiles;
    o.size = size;
    std::vector<DemoTile> made = [&] {
      nb::gil_scoped_release release;
      return Take(SynthesizeDemoTree(dir, o));
    }();
    nb::list out;
    for (const auto& t : made) {
      nb::dict d;
      d["id"] = t.id;
      d["lon"] = t.lon;
      d["lat"] = t.lat;
      d["time_start_us"] = t.time_start_us;
      d["time_end_us"] = t.time_end_us;
      d["country"] = t.country;
      out.append(d);
    }
    return out;
  }, nb::arg("dir"), nb::arg("tiles"), nb::arg("size"));
}

}  // namespace taco::py
