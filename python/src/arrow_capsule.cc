#include "arrow_capsule.h"

namespace nb = nanobind;

namespace taco::py {
namespace {

void DeleteStream(void* p) noexcept {
  auto* stream = static_cast<ArrowArrayStream*>(p);
  if (stream->release != nullptr) stream->release(stream);
  delete stream;
}

}  // namespace

nb::capsule StreamCapsule(ArrowArrayStream* stream) {
  auto* owned = new ArrowArrayStream(*stream);
  stream->release = nullptr;
  return nb::capsule(owned, "arrow_array_stream", &DeleteStream);
}

}  // namespace taco::py
