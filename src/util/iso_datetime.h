// ISO-8601 dates and datetimes as written in COLLECTION.json and metadata files.
//
// Accepted: "YYYY-MM-DD", optionally followed by 'T', 't' or ' ' and "hh:mm[:ss[.frac]]",
// optionally followed by 'Z'/'z' or a "+hh[:mm]"/"-hh[:mm]" offset. Fields are range-checked
// (month 1-12, the day within its month, hour < 24, minute and second < 60); a fraction
// keeps microseconds. A value without offset is UTC.
#ifndef TACO_UTIL_ISO_DATETIME_H_
#define TACO_UTIL_ISO_DATETIME_H_

#include <cstdint>
#include <string_view>

namespace taco::util {

// Microseconds since 1970-01-01T00:00:00Z, or false when `text` is not such a value.
bool ParseIsoDatetime(std::string_view text, int64_t* micros);

}  // namespace taco::util

#endif  // TACO_UTIL_ISO_DATETIME_H_
