// The TACO_HEADER: the fixed 157-byte first entry of every TACO ZIP (FORMAT §1.2, §1.7).
//
// Bytes 0..156 are a ZIP local file header for a STORE member named "TACO_HEADER" whose
// 116-byte payload (at byte 41) is: count:u8, 3 zero bytes, 7 × {u64 offset, u64 length}.
// Pairs 0..count-1 locate the data of METADATA/level{i}.parquet and, last, COLLECTION.json.
// The older libzip-era "TACO_GHOST" entry (name of 10 bytes, payload at byte 40) is read too.
//
// Errors (all Corruption): "<name>: not a TACO ZIP: <why>" when the bytes are not a TACO
// ZIP at all (too short, no local header at 0, another entry name), and
// "<name>: malformed TACO_HEADER: <why>" when the entry is there but its content is wrong.
#ifndef TACO_FORMAT_ZIP_TACO_HEADER_H_
#define TACO_FORMAT_ZIP_TACO_HEADER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "taco/io.h"
#include "taco/status.h"

namespace taco::zip {

inline constexpr size_t kTacoHeaderSize = 157;  // bytes 0..156 of the file
inline constexpr size_t kTacoGhostSize = 156;   // the TACO_GHOST variant (name one byte shorter)
inline constexpr size_t kTacoHeaderPayloadSize = 116;
inline constexpr size_t kMaxHeaderEntries = 7;
inline constexpr size_t kTacoHeaderPrefixRead = 256;  // what ReadTacoHeader fetches
inline constexpr std::string_view kTacoHeaderName = "TACO_HEADER";
inline constexpr std::string_view kTacoGhostName = "TACO_GHOST";

// Absolute byte range of a member's data in the ZIP.
struct HeaderEntry {
  uint64_t offset = 0;
  uint64_t length = 0;
  bool operator==(const HeaderEntry&) const = default;
};

enum class HeaderVariant { kTacoHeader, kTacoGhost };

struct TacoHeader {
  HeaderVariant variant = HeaderVariant::kTacoHeader;
  std::vector<HeaderEntry> entries;  // only the `count` valid pairs, in order
};

// The 116-byte payload for `entries`: count = entries.size(), 3 zero bytes, the pairs,
// then (0,0) for the unused slots.
// REQUIRES: entries.size() <= kMaxHeaderEntries (extra entries are not encoded).
std::string EncodeTacoHeaderPayload(const std::vector<HeaderEntry>& entries);

// Parses the header from the first bytes of a file. `prefix` = the first min(file_size, 256)
// bytes (at least the header's size); `file_size` = the whole file's size; `name` is used in
// error messages. Checks: the file is long enough, the local header signature at byte 0, the
// entry name at byte 30 (TACO_HEADER or TACO_GHOST), extra length 0, count <= 7, and for the
// valid pairs: inside the file (overflow-safe), not overlapping the header, not overlapping
// each other, and the last one (COLLECTION.json) at most util::kMaxCollectionJsonBytes. Unused slots past `count` are
// not checked. A `prefix` shorter than min(file_size, 157) is a caller bug (Internal).
Result<TacoHeader> ParseTacoHeader(std::string_view prefix, uint64_t file_size, const std::string& name);

// Reads the header through `reader` with exactly one ReadAt of min(size, 256) bytes at 0
// (none for an empty file), then ParseTacoHeader. Errors from the reader pass through.
Result<TacoHeader> ReadTacoHeader(const RangeReader& reader);

}  // namespace taco::zip

#endif  // TACO_FORMAT_ZIP_TACO_HEADER_H_
