// The parts of taco_cpp._native, each registered from its own file by NB_MODULE (module.cc).
#ifndef TACO_PYTHON_BINDINGS_H_
#define TACO_PYTHON_BINDINGS_H_

#include <nanobind/nanobind.h>

namespace taco::py {

void BindReader(nanobind::module_& m);  // reader_bindings.cc
void BindWriter(nanobind::module_& m);  // writer_bindings.cc
void BindLoader(nanobind::module_& m);  // loader_bindings.cc (taco_cpp.torch / taco_cpp.dask)
void BindTools(nanobind::module_& m);   // tools_bindings.cc (demo tree, logging, publish)

}  // namespace taco::py

#endif  // TACO_PYTHON_BINDINGS_H_
