// taco_cpp._native: the nanobind extension module of the taco_cpp package.
#include <nanobind/nanobind.h>

#include "bindings.h"
#include "errors.h"
#include "taco/version.h"

NB_MODULE(_native, m) {
  m.doc() = "taco-cpp C++ core (use the taco_cpp package, not this module)";
  m.attr("__version__") = taco::kLibraryVersion;
  m.attr("TACO_SPEC_VERSION") = taco::kTacoSpecVersion;
  taco::py::RegisterErrors(m);
  taco::py::BindReader(m);
  taco::py::BindWriter(m);
}
