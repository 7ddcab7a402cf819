// GuardExceptions: the library boundary for exceptions (include/taco/status.h: the library
// never throws). Runs `fn` (returning Status or Result<T>) and turns anything a dependency
// throws (nlohmann::json, DuckDB, std::filesystem, the standard library, bad_alloc) into a
// Status whose message starts with `what` (the file, URL or argument being worked on):
//  * std::bad_alloc          → IOError  "<what>: out of memory"
//  * filesystem_error        → IOError  "<what>: <path>: <reason>"
//  * nlohmann::json errors   → Corruption "<what>: malformed JSON value (<detail>)"
//  * anything else           → Internal "<what>: unexpected error: <detail>"
// Messages are cleaned to valid UTF-8 (an exception text may quote input bytes).
#ifndef TACO_UTIL_EXCEPTION_GUARD_H_
#define TACO_UTIL_EXCEPTION_GUARD_H_

#include <exception>
#include <string>
#include <string_view>
#include <type_traits>

#include "taco/status.h"

namespace taco::util {

// The Status for the exception being handled (call only inside a catch block).
Status StatusFromCurrentException(std::string_view what);

template <typename F>
auto GuardExceptions(std::string_view what, F&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (...) {
    return StatusFromCurrentException(what);
  }
}

}  // namespace taco::util

#endif  // TACO_UTIL_EXCEPTION_GUARD_H_
