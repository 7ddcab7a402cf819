// Internals shared by the TACOCAT/TACOLLECTION writers and create() (consolidate): the input
// ZIPs and the uncommitted TACOCAT writer.
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

#include "format/tacocat/tacocat_header.h"
#include "taco/io.h"
#include "taco/status.h"
#include "taco/tacocat.h"
#include "write/atomic_output.h"

namespace taco::write {

// The `__TACOCAT__` header codec lives in format/tacocat (the byte layout, shared with the
// reader); the writers use it under these names.
using format::ByteRange;
using format::EncodeTacocatHeader;
using format::kTacocatDirName;
using format::kTacocatFileName;
using format::kTacocatHeaderSize;
using format::kTacocatMagic;
using format::kTacocatMaxLevels;
using format::kTacocatVersion;
using format::ParseTacocatHeader;
using format::TacocatHeader;

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
Result<std::unique_ptr<AtomicOutput>> WriteTacocat(const std::vector<TacocatSource>& sources, const std::string& dir,
                                                   const TacocatOptions& options);

}  // namespace taco::write

#endif  // TACO_WRITE_TACOCAT_INTERNAL_H_
