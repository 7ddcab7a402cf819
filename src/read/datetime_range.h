// The `range` argument of filter_datetime (FORMAT §6.6): "A/B" or a single instant "A".
//
// Contract: each end is ISO-8601 `YYYY-MM-DD`, optionally followed by `T` or a space and
// `HH:MM[:SS[.fraction]]`, optionally followed by `Z` or an offset `±HH[:MM]` / `±HHMM`.
// Naive times are UTC. Each end is reduced to its UTC calendar date; the filter then keeps
// rows whose value, cast to DATE, lies in [start, end] (inclusive), or equals start for a
// single instant. Errors (InvalidArgument) quote the text: bad syntax, impossible dates,
// start after end (compared as instants, before the reduction to dates).
#ifndef TACO_READ_DATETIME_RANGE_H_
#define TACO_READ_DATETIME_RANGE_H_

#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco::read {

struct DateRange {
  std::string start;  // "YYYY-MM-DD" (UTC)
  std::string end;    // == start when single
  bool single = false;
};

Result<DateRange> ParseDateRange(std::string_view text);

}  // namespace taco::read

#endif  // TACO_READ_DATETIME_RANGE_H_
