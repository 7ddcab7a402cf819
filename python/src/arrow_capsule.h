// An ArrowArrayStream handed to Python as the PyCapsule of the Arrow PyCapsule interface
// (name "arrow_array_stream"): pyarrow, polars, ... import it without copying the buffers.
#ifndef TACO_PYTHON_ARROW_CAPSULE_H_
#define TACO_PYTHON_ARROW_CAPSULE_H_

#include <nanobind/nanobind.h>

#include "taco/arrow_c.h"

namespace taco::py {

// Takes ownership of `*stream` (moved into a heap copy; `stream->release` is set to null).
// The capsule releases the stream unless a consumer moved it out first, as the interface
// requires. GIL held.
nanobind::capsule StreamCapsule(ArrowArrayStream* stream);

}  // namespace taco::py

#endif  // TACO_PYTHON_ARROW_CAPSULE_H_
