#include "taco/status.h"

#include <gtest/gtest.h>

namespace taco {
namespace {

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::InvalidArgument(std::to_string(x) + ": odd");
  return x / 2;
}

Result<int> Quarter(int x) {
  TACO_ASSIGN_OR_RETURN(int h, Half(x));
  TACO_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

TEST(StatusTest, OkHasNoMessage) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  Status s = Status::Corruption("x.tacozip: bad signature");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.ToString(), "corruption: x.tacozip: bad signature");
  EXPECT_EQ(s.WithPrefix("info").message(), "info: x.tacozip: bad signature");
  EXPECT_TRUE(Status::OK().WithPrefix("info").ok());
}

TEST(ResultTest, PropagatesErrors) {
  EXPECT_EQ(*Quarter(8), 2);
  Result<int> r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "3: odd");
  EXPECT_EQ(r.value_or(-1), -1);
}

TEST(ResultTest, OkStatusIsNotAValue) {
  Result<int> r = Status::OK();
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace taco
