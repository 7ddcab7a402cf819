// ParseDateRange (FORMAT §6.6): UTC calendar dates, inclusive, start <= end.
#include "read/datetime_range.h"

#include <gtest/gtest.h>

namespace taco::read {
namespace {

TEST(DateRange, RangeAndSingle) {
  auto r = ParseDateRange("2023-01-01/2023-02-15");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->start, "2023-01-01");
  EXPECT_EQ(r->end, "2023-02-15");
  EXPECT_FALSE(r->single);
  auto s = ParseDateRange("2023-01-01");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->single);
  EXPECT_EQ(s->start, "2023-01-01");
}

TEST(DateRange, TimesAndZonesReduceToUtcDates) {
  auto r = ParseDateRange("2023-01-01T23:30:00-02:00/2023-03-01T00:30:00+01:00");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->start, "2023-01-02");
  EXPECT_EQ(r->end, "2023-02-28");
  auto z = ParseDateRange("2024-02-29T12:00:00.123456Z/2024-03-01 00:00");
  ASSERT_TRUE(z.ok()) << z.status().ToString();
  EXPECT_EQ(z->start, "2024-02-29");
  EXPECT_EQ(z->end, "2024-03-01");
}

TEST(DateRange, Errors) {
  EXPECT_FALSE(ParseDateRange("2023-02-15/2023-01-01").ok());
  EXPECT_FALSE(ParseDateRange("2023-02-30").ok());
  EXPECT_FALSE(ParseDateRange("2023-1-1").ok());
  EXPECT_FALSE(ParseDateRange("yesterday").ok());
  EXPECT_FALSE(ParseDateRange("2023-01-01/").ok());
  EXPECT_FALSE(ParseDateRange("2023-01-01T25:00").ok());
  auto bad = ParseDateRange("2023-02-15/2023-01-01");
  EXPECT_NE(bad.status().message().find("start is after the end"), std::string::npos);
}

}  // namespace
}  // namespace taco::read
