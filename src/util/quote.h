// Quote(): "'<s>'", the whole text, for error messages that name a path, id or column
// (model/schema_util.h has a variant that shortens long values).
#ifndef TACO_UTIL_QUOTE_H_
#define TACO_UTIL_QUOTE_H_

#include <string>
#include <string_view>

namespace taco::util {

inline std::string Quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('\'');
  out.append(s);
  out.push_back('\'');
  return out;
}

}  // namespace taco::util

#endif  // TACO_UTIL_QUOTE_H_
