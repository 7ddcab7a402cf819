// ParseJsonText: JSON from outside bytes (COLLECTION.json, TACOLLECTION.json, metadata JSON
// files) without exceptions, with errors a person can act on, and within fixed limits.
//
// Contract:
//  * Never throws. Returns the parsed value, or Corruption "<what>: <why>" where <why> is one
//    of: "is not valid UTF-8 (byte 0xFF at line 2, column 12)", "is not valid JSON (syntax
//    error at line 3, column 5)", "nests deeper than 256 levels", "is 1073741824 bytes, more
//    than the 268435456 allowed". The message never contains the input's own bytes, so it is
//    always valid UTF-8 itself.
//  * UTF-8 is checked first (RFC 3629: no overlong forms, no surrogates, nothing above
//    U+10FFFF), so that a file that is not text is reported as such and never as a syntax
//    error somewhere in it.
//  * Nesting of arrays/objects is limited to kMaxJsonDepth (the parsed tree, its dump() and
//    our own walkers recurse), the size to `max_bytes` (checked before anything is parsed).
//
// DumpJsonText: dump() that never throws: invalid UTF-8 inside strings (e.g. from a Parquet
// cell) becomes U+FFFD.
#ifndef TACO_UTIL_JSON_TEXT_H_
#define TACO_UTIL_JSON_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "taco/status.h"
#include "util/limits.h"

namespace taco::util {

inline constexpr size_t kMaxJsonDepth = kMaxJsonNesting;

struct TextPosition {
  size_t offset = 0;  // byte offset from 0
  size_t line = 1;    // from 1
  size_t column = 1;  // bytes from the line start, from 1
};

// Position of the first byte that breaks UTF-8, or nullopt when `text` is valid UTF-8.
std::optional<TextPosition> FindInvalidUtf8(std::string_view text);
// True when `text` is valid UTF-8.
bool IsValidUtf8(std::string_view text);
// `text` with every byte that breaks UTF-8 replaced by '?' (for messages quoting input).
std::string SanitizeUtf8(std::string_view text);

Result<nlohmann::ordered_json> ParseJsonText(std::string_view text, std::string_view what,
                                             uint64_t max_bytes = kMaxCollectionJsonBytes);

std::string DumpJsonText(const nlohmann::ordered_json& j, int indent = -1);
std::string DumpJsonText(const nlohmann::json& j, int indent = -1);

}  // namespace taco::util

#endif  // TACO_UTIL_JSON_TEXT_H_
