// Implementation of datetime_range.h.
#include "read/datetime_range.h"

#include <cctype>
#include <cstdint>
#include <cstdio>

#include "util/civil_date.h"

namespace taco::read {
namespace {

using util::DaysFromCivil;

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return kDays[m - 1] + ((m == 2 && IsLeap(y)) ? 1 : 0);
}

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  // Reads exactly `n` digits.
  bool Digits(size_t n, int64_t* out) {
    if (pos_ + n > s_.size()) return false;
    int64_t v = 0;
    for (size_t i = 0; i < n; ++i) {
      char c = s_[pos_ + i];
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
      v = v * 10 + (c - '0');
    }
    pos_ += n;
    *out = v;
    return true;
  }
  bool Accept(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool AtEnd() const { return pos_ == s_.size(); }
  char Peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

// One end: the first and last microsecond of its period (equal for an instant).
struct Period {
  int64_t first = 0;
  int64_t last = 0;
};

// Why `text` is not an end, or "".
std::string ParseEnd(std::string_view text, Period* out) {
  Parser p(text);
  int64_t y = 0, mo = 1, d = 1;
  if (!p.Digits(4, &y)) return "expected a year YYYY first";
  if (p.AtEnd()) {
    out->first = DaysFromCivil(y, 1, 1) * kMicrosPerDay;
    out->last = DaysFromCivil(y + 1, 1, 1) * kMicrosPerDay - 1;
    return "";
  }
  if (!p.Accept('-') || !p.Digits(2, &mo)) return "expected YYYY-MM";
  if (mo < 1 || mo > 12) return "month " + std::to_string(mo) + " does not exist";
  if (p.AtEnd()) {
    out->first = DaysFromCivil(y, mo, 1) * kMicrosPerDay;
    out->last = (DaysFromCivil(y, mo, 1) + DaysInMonth(y, mo)) * kMicrosPerDay - 1;
    return "";
  }
  if (!p.Accept('-') || !p.Digits(2, &d)) return "expected YYYY-MM-DD";
  if (d < 1 || d > DaysInMonth(y, mo)) return "day " + std::to_string(d) + " does not exist in that month";
  const int64_t day = DaysFromCivil(y, mo, d) * kMicrosPerDay;
  if (p.AtEnd()) {
    out->first = day;
    out->last = day + kMicrosPerDay - 1;
    return "";
  }
  if (!(p.Accept('T') || p.Accept('t') || p.Accept(' '))) return "expected 'T' and a time after the date";
  int64_t h = 0, mi = 0, sec = 0, micros = 0;
  if (!p.Digits(2, &h) || !p.Accept(':') || !p.Digits(2, &mi)) return "expected a time HH:MM[:SS[.fraction]]";
  if (p.Accept(':')) {
    if (!p.Digits(2, &sec)) return "expected seconds SS after HH:MM:";
    if (p.Accept('.') || p.Accept(',')) {
      int64_t digit = 0, scale = 100000;
      if (!p.Digits(1, &digit)) return "expected digits after the decimal point";
      do {
        micros += digit * scale;
        scale /= 10;
      } while (p.Digits(1, &digit));
    }
  }
  if (h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi != 0 || sec != 0 || micros != 0))) {
    return "the time " + std::string(text.substr(11)) + " does not exist";
  }
  int64_t offset = 0;
  if (p.Accept('Z') || p.Accept('z')) {
  } else if (p.Peek() == '+' || p.Peek() == '-') {
    const bool negative = p.Accept('-');
    if (!negative) p.Accept('+');
    int64_t oh = 0, om = 0;
    if (!p.Digits(2, &oh)) return "expected a UTC offset ±HH[:MM]";
    if (p.Accept(':')) {
      if (!p.Digits(2, &om)) return "expected a UTC offset ±HH:MM";
    } else {
      p.Digits(2, &om);
    }
    if (oh > 23 || om > 59) return "the UTC offset does not exist";
    offset = (oh * 3600 + om * 60) * (negative ? -1 : 1);
  }
  if (!p.AtEnd()) return "unexpected text after the time";
  out->first = day + (h * 3600 + mi * 60 + sec - offset) * kMicrosPerSecond + micros;
  out->last = out->first;
  return "";
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

bool IsOpen(const std::string& end) { return end.empty() || end == ".."; }

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

}  // namespace

std::string FormatUtcInstant(int64_t micros) {
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t rest = micros - days * kMicrosPerDay;
  // Civil date from days (H. Hinnant's algorithm).
  int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const int64_t h = rest / (3600 * kMicrosPerSecond);
  rest %= 3600 * kMicrosPerSecond;
  const int64_t mi = rest / (60 * kMicrosPerSecond);
  rest %= 60 * kMicrosPerSecond;
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%04lld-%02lld-%02lld %02lld:%02lld:%02lld.%06lld+00", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d), static_cast<long long>(h),
                static_cast<long long>(mi), static_cast<long long>(rest / kMicrosPerSecond),
                static_cast<long long>(rest % kMicrosPerSecond));
  return buf;
}

Result<DateRange> ParseDateRange(std::string_view text) {
  const std::string quoted = "datetime '" + std::string(text) + "'";
  const std::string syntax =
      " (expected A, A/B, ../B or A/.. where each end is YYYY, YYYY-MM, YYYY-MM-DD or "
      "YYYY-MM-DDTHH:MM[:SS[.f]][Z|±HH:MM]; UTC when no offset is given)";
  const size_t slash = text.find('/');
  if (slash != std::string_view::npos && text.find('/', slash + 1) != std::string_view::npos) {
    return Status::InvalidArgument(quoted + ": more than one '/'" + syntax);
  }
  const std::string a = Trim(text.substr(0, slash));
  const std::string b = slash == std::string_view::npos ? std::string() : Trim(text.substr(slash + 1));
  DateRange range;
  auto end = [&](const std::string& part, Period* out) -> Status {
    std::string why = ParseEnd(part, out);
    if (why.empty()) return Status::OK();
    return Status::InvalidArgument(quoted + ": '" + part + "': " + why + syntax);
  };
  if (slash == std::string_view::npos) {
    if (a.empty()) return Status::InvalidArgument(quoted + ": empty" + syntax);
    Period p;
    TACO_RETURN_IF_ERROR(end(a, &p));
    range.start_us = p.first;
    range.end_us = p.last;
    return range;
  }
  if (IsOpen(a) && IsOpen(b)) return Status::InvalidArgument(quoted + ": both ends are open" + syntax);
  if (!IsOpen(a)) {
    Period p;
    TACO_RETURN_IF_ERROR(end(a, &p));
    range.start_us = p.first;
  }
  if (!IsOpen(b)) {
    Period p;
    TACO_RETURN_IF_ERROR(end(b, &p));
    range.end_us = p.last;
  }
  if (range.start_us && range.end_us && *range.start_us > *range.end_us) {
    return Status::InvalidArgument(quoted + ": the start is after the end");
  }
  return range;
}

}  // namespace taco::read
