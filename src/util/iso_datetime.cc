#include "util/iso_datetime.h"

#include "util/civil_date.h"

namespace taco::util {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Exactly `n` digits at s[*i], advancing *i.
bool Digits(std::string_view s, size_t* i, size_t n, int* out) {
  if (*i + n > s.size()) return false;
  int v = 0;
  for (size_t k = 0; k < n; ++k) {
    if (!IsDigit(s[*i + k])) return false;
    v = v * 10 + (s[*i + k] - '0');
  }
  *i += n;
  *out = v;
  return true;
}

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// "+hh[:mm]" / "-hh[:mm]" / "Z" at s[*i] (minutes east of UTC).
bool Offset(std::string_view s, size_t* i, int64_t* minutes) {
  if (s[*i] == 'Z' || s[*i] == 'z') {
    ++*i;
    return true;
  }
  if (s[*i] != '+' && s[*i] != '-') return false;
  const int sign = s[*i] == '-' ? -1 : 1;
  ++*i;
  int oh = 0, om = 0;
  if (!Digits(s, i, 2, &oh)) return false;
  if (*i < s.size() && s[*i] == ':') ++*i;
  if (*i < s.size() && !Digits(s, i, 2, &om)) return false;
  if (oh > 23 || om > 59) return false;
  *minutes = sign * (oh * 60 + om);
  return true;
}

}  // namespace

bool ParseIsoDatetime(std::string_view s, int64_t* micros) {
  size_t i = 0;
  int year = 0, month = 0, day = 0;
  if (!Digits(s, &i, 4, &year) || i >= s.size() || s[i++] != '-' || !Digits(s, &i, 2, &month) || i >= s.size() ||
      s[i++] != '-' || !Digits(s, &i, 2, &day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return false;
  int hour = 0, minute = 0, second = 0;
  int64_t frac_us = 0, offset_min = 0;
  if (i < s.size()) {
    if (s[i] != 'T' && s[i] != 't' && s[i] != ' ') return false;
    ++i;
    if (!Digits(s, &i, 2, &hour) || i >= s.size() || s[i++] != ':' || !Digits(s, &i, 2, &minute)) return false;
    if (i < s.size() && s[i] == ':') {
      ++i;
      if (!Digits(s, &i, 2, &second)) return false;
      if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
        ++i;
        size_t n = 0;
        int64_t scale = 100000;
        for (; i < s.size() && IsDigit(s[i]); ++i, ++n) {
          if (n < 6) frac_us += (s[i] - '0') * scale;
          scale /= 10;
        }
        if (n == 0) return false;
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return false;
    if (i < s.size() && !Offset(s, &i, &offset_min)) return false;
  }
  if (i != s.size()) return false;
  const int64_t seconds =
      DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset_min * 60;
  *micros = seconds * 1000000 + frac_us;
  return true;
}

}  // namespace taco::util
