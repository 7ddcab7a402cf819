/* Shared declarations of the taco R package's C code (src/). */
#ifndef TACO_R_H_
#define TACO_R_H_

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include "taco/taco.h"

/* Consumes `stream` (released in all cases) and returns a data.frame; attribute
 * "taco_int64_lossy" = TRUE when an int64 beyond 2^53 was rounded. */
SEXP taco_r_stream_to_df(struct ArrowArrayStream* stream);

#endif
