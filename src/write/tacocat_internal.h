// Internals shared by the TACOCAT/TACOLLECTION writers, create() (consolidate) and the
// TACOCAT reader: the input ZIPs, the `__TACOCAT__` header codec (FORMAT §5.1), and the
// uncommitted TACOCAT writer.
//
// Contract: no I/O in the codec; everything returns Status values naming the file.
#ifndef TACO_WRITE_TACOCAT_INTERNAL_H_
#define TACO_WRITE_TACOCAT_INTERNAL_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/io.h"
#include "taco/status.h"
#include "taco/tacocat.h"
#include "util/atomic_output.h"

namespace taco::write {

// ---- `__TACOCAT__` header (FORMAT §5.1) -------------------------------------------------
inline constexpr size_t kTacocatHeaderSize = 128;
inline constexpr std::string_view kTacocatMagic{"TACOCAT\0", 8};
inline constexpr uint32_t kTacocatVersion = 1;
inline constexpr int kTacocatMaxLevels = 6;
inline constexpr std::string_view kTacocatFileName = "__TACOCAT__";
inline constexpr std::string_view kTacocatDirName = ".tacocat";

struct ByteRange {
  uint64_t offset = 0;
  uint64_t size = 0;
  bool present() const { return offset > 0 && size > 0; }
};

struct TacocatHeader {
  uint32_t version = kTacocatVersion;
  uint32_t max_depth = 0;
  std::array<ByteRange, kTacocatMaxLevels> levels{};  // (0,0) = level absent
  ByteRange collection;
};

// The 128 header bytes (little-endian integers).
std::string EncodeTacocatHeader(const TacocatHeader& header);

// Parses and checks the header of a `__TACOCAT__` file of `file_size` bytes; `name` starts
// every error ("<name>: not a __TACOCAT__ file: <why>" / "<name>: malformed __TACOCAT__
// header: <why>"). Checks: magic, version 1, max_depth <= 5, the COLLECTION.json range
// non-zero, every present range inside [128, file_size) (overflow-safe), level0 present,
// present levels contiguous from 0 and exactly levels 0..max_depth.
Result<TacocatHeader> ParseTacocatHeader(std::string_view bytes, uint64_t file_size, const std::string& name);

// ---- input ZIPs ----------------------------------------------------------------------------
// An input: where its bytes are and the base name recorded in `internal:source_file`.
struct TacocatSource {
  std::string path;
  std::string file_name;
};

struct OpenedSource {
  TacocatSource source;
  RangeReaderPtr reader;
  std::vector<ByteRange> levels;  // METADATA/level{i}.parquet data ranges
  nlohmann::ordered_json collection;
};

// Reads the TACO_HEADER and COLLECTION.json of a TACO ZIP (errors name source.path).
Result<OpenedSource> OpenSource(const TacocatSource& source);

// Sources for `inputs` with their base names; InvalidArgument when empty or when two
// inputs share a base name.
Result<std::vector<TacocatSource>> SourcesFromPaths(const std::vector<std::string>& inputs);

// ---- writers -------------------------------------------------------------------------------
Result<nlohmann::ordered_json> BuildTacollectionFromSources(const std::vector<OpenedSource>& sources,
                                                            const TacollectionOptions& options);

// Writes `<dir>/.tacocat` (or `<dir>/__TACOCAT__`) under a temporary name and returns the
// uncommitted output (the caller commits it, e.g. after committing the parts themselves).
Result<std::unique_ptr<AtomicOutput>> WriteTacocat(const std::vector<TacocatSource>& sources,
                                                   const std::string& dir, const TacocatOptions& options);

}  // namespace taco::write

#endif  // TACO_WRITE_TACOCAT_INTERNAL_H_
