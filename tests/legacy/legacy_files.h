// The synthesised legacy test files (spec/LEGACY.md §12.2), built once per test binary in a
// temporary directory with the independent writer of legacy_synth.h.
//
//  demo.taco / demo.tortilla   3 TORTILLA samples s1..s3, each {image GTiff, notes BYTES,
//                              sub TORTILLA {a GTiff, b BYTES}}: nesting 2 levels deep
//  parts/demo.000{0,1}.part.taco   the same 3 samples in 2 parts (DP 2), 0-based
//  parts1/demo.000{1,2}.part.tortilla   1-based numbering (the spec's)
//  flat.taco                   3 GTiff samples, no nesting
//  p2.tortilla / p2.taco       the P2 layout (driver GTiff in the header, no file_format)
//  proto.tortilla              a 50-byte-header P0 prototype
//  chain.taco                  flat.taco whose footer chains to 2 more Parquet files
#ifndef TACO_TESTS_LEGACY_LEGACY_FILES_H_
#define TACO_TESTS_LEGACY_LEGACY_FILES_H_

#include <string>
#include <vector>

#include "legacy/legacy_synth.h"

namespace taco::testing {

struct LegacyFiles {
  std::string dir;
  std::string taco, tortilla, part0, part1, part1_1, part1_2, flat, p2_tortilla, p2_taco, proto, chain;
  std::string collection_json;
  // Per top-level sample k (0..2): the GeoTIFF bytes of image / sub.a, the BYTES payloads.
  std::vector<std::string> image, sub_a, notes, sub_b;
};

// Built on first use (process-wide), in a directory removed at exit.
const LegacyFiles& Files();

// A nested tortilla {image, notes, sub{a, b}} for sample k.
std::string NestedSample(int k);
// The extra top-level columns for `n` samples (split, stac:*, rai:ele).
std::vector<SynthColumn> TopColumns(size_t n);

}  // namespace taco::testing

#endif  // TACO_TESTS_LEGACY_LEGACY_FILES_H_
