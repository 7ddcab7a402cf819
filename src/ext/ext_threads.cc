#include "ext/ext_threads.h"

#include <cstdint>
#include <cstdlib>
#include <thread>

#include "taco/io.h"

namespace taco::ext::internal {

size_t ExtensionThreads() {
  constexpr uint64_t kMaxThreads = 256;
  const char* text = std::getenv("TACO_EXT_THREADS");
  uint64_t v = 0;
  if (text != nullptr && *text != '\0' && ParseDecimal(text, &v) && v >= 1 && v <= kMaxThreads) {
    return static_cast<size_t>(v);
  }
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<size_t>(hw);
}

}  // namespace taco::ext::internal
