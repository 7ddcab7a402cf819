// Copying a byte range of a RangeReader into a new local file (FOLDER outputs of samples
// made with Sample::FromRange).
//
// Contract: `dest` must not exist (AlreadyExists); up to 4 chunks of 4 MiB are read in
// flight (remote sources are fetched in parallel) and written in order; memory is bounded
// by that window. On error the partial `dest` is removed. Errors name the reader or `dest`.
#ifndef TACO_WRITE_REBUILD_COPY_H_
#define TACO_WRITE_REBUILD_COPY_H_

#include <cstdint>
#include <string>

#include "taco/io.h"
#include "taco/status.h"

namespace taco::write {

Status CopyRangeToNewFile(const RangeReader& reader, uint64_t offset, uint64_t size, const std::string& dest);

}  // namespace taco::write

#endif  // TACO_WRITE_REBUILD_COPY_H_
