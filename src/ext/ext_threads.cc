#include "ext/ext_threads.h"

#include <cstdint>
#include <cstdlib>
#include <thread>

#include "util/env_defaults.h"

namespace taco::ext::internal {

size_t ExtensionThreads() {
  if (auto v = util::EnvExtensionThreads()) return *v;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<size_t>(hw);
}

}  // namespace taco::ext::internal
