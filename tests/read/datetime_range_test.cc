// ParseDateRange (FORMAT §6.6 with the STAC API syntax): instants, whole periods for partial
// dates, open ends, errors.
#include "read/datetime_range.h"

#include <gtest/gtest.h>

namespace taco::read {
namespace {

constexpr int64_t kSecond = 1000000;
constexpr int64_t kDay = 86400 * kSecond;
constexpr int64_t k20230101 = 19358 * kDay;  // 2023-01-01T00:00:00Z

TEST(DateRange, DatesAreWholeUtcDays) {
  auto r = ParseDateRange("2023-01-01/2023-02-15");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r->start_us, k20230101);
  EXPECT_EQ(*r->end_us, k20230101 + 46 * kDay - 1);
  auto s = ParseDateRange("2023-01-01");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s->start_us, k20230101);
  EXPECT_EQ(*s->end_us, k20230101 + kDay - 1);
}

TEST(DateRange, TimesOfDayAndZonesAreInstants) {
  auto r = ParseDateRange("2023-01-01T12:00:00Z/2023-01-01T13:00Z");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r->start_us, k20230101 + 12 * 3600 * kSecond);
  EXPECT_EQ(*r->end_us, k20230101 + 13 * 3600 * kSecond);
  auto z = ParseDateRange("2023-01-01T23:30:00-02:00/2023-01-02 03:30:00.25+01:00");
  ASSERT_TRUE(z.ok()) << z.status().ToString();
  EXPECT_EQ(*z->start_us, k20230101 + kDay + 5400 * kSecond);
  EXPECT_EQ(*z->end_us, k20230101 + kDay + 9000 * kSecond + 250000);
  auto naive = ParseDateRange("2023-01-01T06:00");
  ASSERT_TRUE(naive.ok());
  EXPECT_EQ(*naive->start_us, *naive->end_us);
  EXPECT_EQ(*naive->start_us, k20230101 + 6 * 3600 * kSecond);
}

TEST(DateRange, PartialDatesAndOpenEnds) {
  auto year = ParseDateRange("2023");
  ASSERT_TRUE(year.ok()) << year.status().ToString();
  EXPECT_EQ(*year->start_us, k20230101);
  EXPECT_EQ(*year->end_us, k20230101 + 365 * kDay - 1);
  auto month = ParseDateRange("2024-02");
  ASSERT_TRUE(month.ok());
  EXPECT_EQ(*month->end_us - *month->start_us, 29 * kDay - 1);  // leap year
  auto open_start = ParseDateRange("../2023-06");
  ASSERT_TRUE(open_start.ok()) << open_start.status().ToString();
  EXPECT_FALSE(open_start->start_us.has_value());
  EXPECT_EQ(*open_start->end_us, k20230101 + 181 * kDay - 1);
  auto open_end = ParseDateRange("2023-06/..");
  ASSERT_TRUE(open_end.ok());
  EXPECT_EQ(*open_end->start_us, k20230101 + 151 * kDay);
  EXPECT_FALSE(open_end->end_us.has_value());
  EXPECT_TRUE(ParseDateRange("/2023").ok());
  EXPECT_TRUE(ParseDateRange("2023/").ok());
  EXPECT_EQ(FormatUtcInstant(k20230101 + 13 * 3600 * kSecond + 5), "2023-01-01 13:00:00.000005+00");
  EXPECT_EQ(FormatUtcInstant(-1), "1969-12-31 23:59:59.999999+00");
}

TEST(DateRange, Errors) {
  auto bad = ParseDateRange("2023-02-15/2023-01-01");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("start is after the end"), std::string::npos);
  for (const char* text : {"2023-02-30", "2023-1-1", "yesterday", "../..", "/", "2023-01-01T25:00", "2023-13",
                           "2023-01-01T12", "2023-01-01/2023-02-01/2023-03-01", "", "2023-01-01Z"}) {
    SCOPED_TRACE(text);
    auto r = ParseDateRange(text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  }
  EXPECT_NE(ParseDateRange("yesterday").status().message().find("expected A, A/B, ../B or A/.."), std::string::npos);
}

}  // namespace
}  // namespace taco::read
