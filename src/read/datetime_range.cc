// Implementation of datetime_range.h.
#include "read/datetime_range.h"

#include <cctype>
#include <cstdint>
#include <cstdio>

#include "util/civil_date.h"

namespace taco::read {
namespace {

using util::DaysFromCivil;

std::string CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  char buf[80];
  std::snprintf(buf, sizeof(buf), "%04lld-%02lld-%02lld", static_cast<long long>(y), static_cast<long long>(m),
                static_cast<long long>(d));
  return buf;
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

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

// Seconds since the epoch (UTC) of one ISO instant; false on bad syntax or values.
bool ParseInstant(std::string_view text, int64_t* seconds) {
  Parser p(text);
  int64_t y, mo, d, h = 0, mi = 0, sec = 0;
  if (!p.Digits(4, &y) || !p.Accept('-') || !p.Digits(2, &mo) || !p.Accept('-') || !p.Digits(2, &d)) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (mo < 1 || mo > 12 || d < 1 || d > kDays[mo - 1] + ((mo == 2 && IsLeap(y)) ? 1 : 0)) return false;
  int64_t offset = 0;
  if (p.Accept('T') || p.Accept('t') || p.Accept(' ')) {
    if (!p.Digits(2, &h) || !p.Accept(':') || !p.Digits(2, &mi)) return false;
    if (p.Accept(':')) {
      if (!p.Digits(2, &sec)) return false;
      if (p.Accept('.') || p.Accept(',')) {
        int64_t digit;
        if (!p.Digits(1, &digit)) return false;
        while (p.Digits(1, &digit)) {
        }
      }
    }
    if (h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi != 0 || sec != 0))) return false;
    if (p.Accept('Z') || p.Accept('z')) {
    } else if (p.Peek() == '+' || p.Peek() == '-') {
      const bool negative = p.Accept('-');
      if (!negative) p.Accept('+');
      int64_t oh, om = 0;
      if (!p.Digits(2, &oh)) return false;
      if (p.Accept(':')) {
        if (!p.Digits(2, &om)) return false;
      } else {
        p.Digits(2, &om);
      }
      if (oh > 23 || om > 59) return false;
      offset = (oh * 3600 + om * 60) * (negative ? -1 : 1);
    }
  }
  if (!p.AtEnd()) return false;
  *seconds = DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset;
  return true;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace

Result<DateRange> ParseDateRange(std::string_view text) {
  const std::string quoted = "datetime range '" + std::string(text) + "'";
  const size_t slash = text.find('/');
  const std::string a = Trim(text.substr(0, slash));
  const std::string b = slash == std::string_view::npos ? std::string() : Trim(text.substr(slash + 1));
  int64_t start = 0, end = 0;
  if (!ParseInstant(a, &start)) {
    return Status::InvalidArgument(quoted + ": '" + a + "' is not an ISO-8601 date or date-time (YYYY-MM-DD[THH:MM[:SS]][Z])");
  }
  DateRange range;
  range.single = slash == std::string_view::npos;
  if (range.single) {
    end = start;
  } else if (!ParseInstant(b, &end)) {
    return Status::InvalidArgument(quoted + ": '" + b + "' is not an ISO-8601 date or date-time (YYYY-MM-DD[THH:MM[:SS]][Z])");
  }
  if (start > end) return Status::InvalidArgument(quoted + ": the start is after the end");
  range.start = CivilFromDays(FloorDiv(start, 86400));
  range.end = CivilFromDays(FloorDiv(end, 86400));
  return range;
}

}  // namespace taco::read
