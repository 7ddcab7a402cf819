// DaysFromCivil(): days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
// algorithm), for parsing dates and timestamps without the C library's time zone.
#ifndef TACO_UTIL_CIVIL_DATE_H_
#define TACO_UTIL_CIVIL_DATE_H_

#include <cstdint>

namespace taco::util {

inline int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace taco::util

#endif  // TACO_UTIL_CIVIL_DATE_H_
