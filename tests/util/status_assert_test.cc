// ASSERT_OK / EXPECT_OK (tests/support/status_assert.h): pass on OK, fail with the Status
// message on an error, evaluate their argument once.
#include "support/status_assert.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>

#include "taco/status.h"

namespace taco {
namespace {

Result<int> Parse(bool good) {
  if (!good) return Status::Corruption("x.tacozip: bad signature");
  return 7;
}

Status Check(bool good) { return good ? Status::OK() : Status::NotFound("x.tacozip: no member DATA/a"); }

struct NoStatus {
  bool ok() const { return false; }
};

void AssertBadResult() { ASSERT_OK(Parse(false)); }
void AssertBadStatus() { ASSERT_OK(Check(false)); }

TEST(StatusAssertTest, PassesOnOk) {
  ASSERT_OK(Parse(true));
  ASSERT_OK(Check(true));
  EXPECT_OK(Parse(true));
  EXPECT_OK(Status::OK());
}

TEST(StatusAssertTest, ExpectOkFailsWithTheExpressionAndTheStatus) {
  Result<int> r = Parse(false);
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(r), "r is not OK: corruption: x.tacozip: bad signature");
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(Check(false)), "Check(false) is not OK: not found: x.tacozip: no member DATA/a");
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(NoStatus{}), "is not OK: (no status to print)");
}

TEST(StatusAssertTest, StreamedContextIsKept) {
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(Check(false)) << "while reading part 3", "while reading part 3");
}

TEST(StatusAssertTest, AssertOkIsFatal) {
  EXPECT_FATAL_FAILURE(AssertBadResult(), "Parse(false) is not OK: corruption: x.tacozip: bad signature");
  EXPECT_FATAL_FAILURE(AssertBadStatus(), "Check(false) is not OK: not found:");
}

TEST(StatusAssertTest, EvaluatesOnce) {
  int calls = 0;
  auto counted = [&calls] {
    ++calls;
    return Status::OK();
  };
  EXPECT_OK(counted());
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace taco
