// An independent writer of legacy Tortilla 0.5 / TACO v1 files for the tests (spec/LEGACY.md
// §12.2), written from the dossier and NOT sharing code with src/legacy: headers, piles and
// COLLECTION are assembled byte by byte here; footers are Parquet files made by DuckDB from
// SQL literals (so they are not our writer's Table→Parquet path either). Also an independent
// structural checker (§12.3) used on what src/legacy writes.
#ifndef TACO_TESTS_LEGACY_LEGACY_SYNTH_H_
#define TACO_TESTS_LEGACY_LEGACY_SYNTH_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace taco::testing {

// One footer row: an item and its bytes (a payload, or a whole nested tortilla).
struct SynthItem {
  std::string id;
  std::string format;  // GTiff, BYTES, TORTILLA, ...
  std::string data;
};

// An extra footer column: its SQL type and one SQL literal per item ("NULL" allowed).
struct SynthColumn {
  std::string name;
  std::string sql_type;
  std::vector<std::string> values;
};

struct SynthFooter {
  bool with_file_format = true;  // false for P2 footers
  bool pandas_index = false;     // add an `__index_level_0__` BIGINT column (pyarrow from pandas)
  std::vector<SynthColumn> extra;
  std::vector<std::pair<std::string, std::string>> kv;  // file key/value metadata
  std::vector<int64_t> offsets_override;                // tests of bad offsets: stored offsets (relative)
};

// u64 little-endian.
uint64_t U64At(const std::string& bytes, size_t at);

// The footer Parquet for `items` placed back to back from byte 200.
std::string SynthFooterBytes(const std::vector<SynthItem>& items, const SynthFooter& footer);
// A P3 Tortilla: `#y`, FO, FL, DP, 174 zero bytes, pile, footer.
std::string SynthTortilla(const std::vector<SynthItem>& items, const SynthFooter& footer = {}, uint64_t dp = 1);
// tortilla2taco: `WX`, CO = size at 26, CL at 34, compact JSON appended.
std::string SynthToTaco(std::string tortilla, const std::string& json);
// A P2 file: DF (24 bytes, space padded) at 18, DP at 42; TACO keeps `#y` with CO/CL at 50/58.
std::string SynthP2(const std::vector<SynthItem>& items, const std::string& driver, const SynthFooter& footer,
                    const std::string& json = "");
// The 50-byte P0 prototype: `#y`, FO, FL, DF (32 bytes), JSON footer {"id": [offset, length]}.
std::string SynthP0(const std::vector<SynthItem>& items, const std::string& driver);

// An 8x8 Byte GeoTIFF, every pixel `value`, EPSG:32630, origin (x0, y0), 10 m pixels.
std::string SynthGeoTiff(int value, double x0 = 440000, double y0 = 4480000);

// LEGACY.md §12.3 1-6 checked independently of src/; every problem as one line ("" = fine).
// `base`/`end` bound a nested item; top level: 0 and size.
std::vector<std::string> CheckLegacyStructure(const std::string& bytes, bool top_level = true);

}  // namespace taco::testing

#endif  // TACO_TESTS_LEGACY_LEGACY_SYNTH_H_
