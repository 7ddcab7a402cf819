// Byte layout of the legacy BLOB formats (spec/LEGACY.md §1–§2, §11): the 200-byte header of
// Tortilla 0.5 (`#y`) and TACO v1 (`WX`), the short-lived P2 variant, the 50-byte P0/P1
// prototypes, and the `pointer` of a chained footer. Pure byte work: no I/O.
//
// Contract:
//  * ParseLegacyHeader() follows LEGACY.md §2.3: magic, then P2 when `#y`, bytes 18–41 are a
//    space-padded driver name and u64(18) > 2^32; else P3. A 50-byte prototype (P0/P1) is
//    NotSupported; anything else wrong is Corruption naming the file and the field.
//  * Checks made here: size >= 200, 200 <= FO, FO + FL <= size, CO + CL <= size (TACO).
//    Footer magic, CO == FO + FL and the free bytes are the caller's (warnings or rules).
//  * EncodeLegacyHeader() writes P3 only (the spec layout), free bytes zero.
#ifndef TACO_FORMAT_LEGACY_LEGACY_LAYOUT_H_
#define TACO_FORMAT_LEGACY_LEGACY_LAYOUT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "taco/status.h"

namespace taco::format {

inline constexpr size_t kLegacyHeaderSize = 200;
inline constexpr size_t kLegacyPrototypeHeaderSize = 50;

struct LegacyHeader {
  bool p2 = false;        // layout P2 (else P3)
  bool is_taco = false;   // TACO (collection appended) rather than Tortilla
  bool magic_wx = false;  // the magic is `WX`
  uint64_t footer_offset = 0;
  uint64_t footer_length = 0;
  uint64_t partitions = 0;
  uint64_t collection_offset = 0;
  uint64_t collection_length = 0;
  std::string driver;           // P2: DF, right-stripped
  bool free_bytes_zero = true;  // P3: 26–199 (Tortilla) / 42–199 (TACO) all zero
};

// True when `prefix` starts with `#y` or `WX`.
bool HasLegacyMagic(std::string_view prefix);

// `prefix` = the first min(size, 200) bytes of a file of `size` bytes named `name`.
Result<LegacyHeader> ParseLegacyHeader(std::string_view prefix, uint64_t size, const std::string& name);

// 200 bytes: magic, FO, FL, DP, and CO/CL for TACO v1 (P3).
std::string EncodeLegacyHeader(bool is_taco, uint64_t footer_offset, uint64_t footer_length, uint64_t partitions,
                               uint64_t collection_offset, uint64_t collection_length);

// The next (offset, length) of a chained footer from a `pointer` value (LEGACY.md §11):
// `OFFSETLENGTH(A, B)`, optionally JSON-quoted. nullopt at the end of the chain (JSON null,
// "NULL", empty). Corruption for anything else.
Result<std::optional<std::pair<uint64_t, uint64_t>>> ParseFooterPointer(std::string_view value,
                                                                        const std::string& where);

// `name.NNNN.part<suffix>` → (name.  , NNNN, .part<suffix>) split; nullopt when the file
// name does not follow that pattern. `stem` keeps everything before ".NNNN".
struct PartName {
  std::string stem;    // "dir/x"
  int number = 0;      // NNNN
  std::string suffix;  // ".part.taco"
};
std::optional<PartName> ParsePartName(std::string_view path);
std::string FormatPartName(const PartName& name, int number);

}  // namespace taco::format

#endif  // TACO_FORMAT_LEGACY_LEGACY_LAYOUT_H_
