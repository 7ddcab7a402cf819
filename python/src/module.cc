// taco_cpp._native: the nanobind extension module of the taco_cpp package.
#include <string>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <stdexcept>

#include "bindings.h"
#include "errors.h"
#include "taco/diagnostics.h"
#include "taco/log.h"
#include "taco/version.h"

NB_MODULE(_native, m) {
  m.doc() = "taco-cpp C++ core (use the taco_cpp package, not this module)";
  m.attr("__version__") = taco::kLibraryVersion;
  m.attr("TACO_SPEC_VERSION") = taco::kTacoSpecVersion;
  // Objects still referenced when an interpreter exits (a spawned DataLoader worker keeps its
  // dataset in the Process arguments until the end) are reclaimed by the OS: no leak report.
  nanobind::set_leak_warnings(false);
  taco::py::RegisterErrors(m);
  taco::py::BindReader(m);
  taco::py::BindWriter(m);
  taco::py::BindLoader(m);
  taco::py::BindTools(m);
  // For the tests of the error mapping: raises the exception of Status code `code` (its
  // taco::StatusCode number) with `message`, through the same translator as every call.
  m.def("_raise_status", [](int code, const std::string& message) {
    throw taco::py::StatusError(static_cast<taco::StatusCode>(code), message);
  });
  // The same with a message of arbitrary bytes (a message quoting a damaged dataset).
  m.def("_raise_status_bytes", [](int code, nanobind::bytes message) {
    throw taco::py::StatusError(static_cast<taco::StatusCode>(code), std::string(message.c_str(), message.size()));
  });
  m.def("_raise_cpp_exception", [](const std::string& message) { throw std::logic_error(message); });
  // For the tests of laziness (taco/diagnostics.h): SQL engines started by this process.
  m.def("_engines_started", []() { return taco::EnginesStarted(); });
}
