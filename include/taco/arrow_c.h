// The Arrow C data interface and C stream interface (Apache Arrow's stable ABI), declared
// here so that taco-cpp can hand query results to any Arrow consumer (pyarrow, polars, ...)
// without a row-by-row conversion and without depending on Arrow itself.
//
// The struct layouts and the ARROW_C_DATA_INTERFACE / ARROW_C_STREAM_INTERFACE include guards
// are the ones the Arrow specification prescribes, so this header coexists with any other
// definition of the same ABI (DuckDB's, nanoarrow's, Arrow C++'s) in one translation unit.
//
// Ownership rules (from the specification): whoever receives a struct with a non-null
// `release` owns it and must call `release` exactly once; moving a struct means copying it
// bitwise and setting the source's `release` to null.
#ifndef TACO_ARROW_C_H_
#define TACO_ARROW_C_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  // Callbacks providing stream functionality
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);

  // Release callback
  void (*release)(struct ArrowArrayStream*);

  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

#ifdef __cplusplus
}
#endif

#endif  // TACO_ARROW_C_H_
