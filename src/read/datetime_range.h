// The `range` argument of filter_datetime / `--datetime` (FORMAT §6.6, with the STAC API
// syntax): "A/B", "A", "../B" or "/B" (open start), "A/.." or "A/" (open end).
//
// Contract: each end is
//   YYYY                     the whole year          (partial dates: a whole period)
//   YYYY-MM                  the whole month
//   YYYY-MM-DD               the whole day (UTC)
//   YYYY-MM-DD[T| ]HH:MM[:SS[.fraction]][Z|±HH[:MM]|±HHMM]   that instant (naive = UTC)
// A range keeps instants from the start of A's period to the end of B's period, both
// inclusive; a single A keeps the instants of A's period (an instant: exactly it). Open
// ends are unbounded; both open is an error. Results are microseconds since the epoch,
// UTC (fractions beyond microseconds are truncated). Errors (InvalidArgument) quote the
// text and say what is expected: bad syntax, impossible dates or times, start after end.
#ifndef TACO_READ_DATETIME_RANGE_H_
#define TACO_READ_DATETIME_RANGE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco::read {

struct DateRange {
  std::optional<int64_t> start_us;  // inclusive; nullopt = open
  std::optional<int64_t> end_us;    // inclusive; nullopt = open
};

Result<DateRange> ParseDateRange(std::string_view text);

// "YYYY-MM-DD HH:MM:SS.ffffff+00" (a TIMESTAMPTZ literal's text) of an instant.
std::string FormatUtcInstant(int64_t micros);

}  // namespace taco::read

#endif  // TACO_READ_DATETIME_RANGE_H_
