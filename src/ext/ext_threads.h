// How many threads compute the sample extensions of `taco create --ext` (internal).
#ifndef TACO_SRC_EXT_EXT_THREADS_H_
#define TACO_SRC_EXT_EXT_THREADS_H_

#include <cstddef>

namespace taco::ext::internal {

// TACO_EXT_THREADS when it holds a decimal in 1..256, else the hardware concurrency (at
// least 1). Read at each call. The thread count never changes the values computed, nor their
// order (write/tree_builder.cc consumes them in sample order).
size_t ExtensionThreads();

}  // namespace taco::ext::internal

#endif  // TACO_SRC_EXT_EXT_THREADS_H_
