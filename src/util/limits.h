// The fixed limits on what taco-cpp accepts from a dataset (README "Reliability"). Each is
// checked on the size a file CLAIMS, before anything of that size is allocated or read, and
// an input over a limit is refused with an error that names the file, the limit and the
// claim. They are far above anything a real dataset needs.
#ifndef TACO_UTIL_LIMITS_H_
#define TACO_UTIL_LIMITS_H_

#include <cstdint>

namespace taco::util {

// COLLECTION.json / TACOLLECTION.json bytes (a TACO_HEADER or __TACOCAT__ pair, a file).
inline constexpr uint64_t kMaxCollectionJsonBytes = uint64_t{64} << 20;
// Nesting of JSON arrays/objects (util/json_text.h has its own copy of this value).
inline constexpr uint64_t kMaxJsonNesting = 256;
// Rows of one stored level (METADATA/level<i>.parquet, from its Parquet footer).
inline constexpr uint64_t kMaxLevelRows = 1'000'000'000;
// Rows of one FOLDER's `__meta__` (children of one sample), read whole by navigation.
inline constexpr uint64_t kMaxFolderChildren = 10'000'000;
// Metadata members fetched into memory when a REMOTE dataset is opened (levels +
// COLLECTION.json together); local datasets are read in place.
inline constexpr uint64_t kMaxRemoteMetadataBytes = uint64_t{4} << 30;
// Central directory of a ZIP read by `taco validate`/`tacocat` (read whole; ~100 bytes per member).
inline constexpr uint64_t kMaxCentralDirectoryBytes = uint64_t{4} << 30;

}  // namespace taco::util

#endif  // TACO_UTIL_LIMITS_H_
