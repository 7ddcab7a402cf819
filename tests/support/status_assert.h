// ASSERT_OK(expr) / EXPECT_OK(expr): GoogleTest assertions that `expr` (a taco::Status, a
// taco::Result<T>, or anything else with an `ok()` member) is OK. On failure the message
// names the expression and prints its Status ("<code>: <message>"), so a failing test says
// why without a hand-written `<< x.status().ToString()`.
//
//   ASSERT_OK(ds);                        // Result<Dataset> ds = Dataset::Open(...)
//   EXPECT_OK(writer->Finish()) << path;  // more context can be streamed, as usual
//
// `expr` is evaluated exactly once. Like ASSERT_TRUE, ASSERT_OK returns from the enclosing
// function on failure, so it needs a function returning void.
#ifndef TACO_TESTS_SUPPORT_STATUS_ASSERT_H_
#define TACO_TESTS_SUPPORT_STATUS_ASSERT_H_

#include <gtest/gtest.h>

#include <string>

#include "taco/status.h"

namespace taco::testing::internal {

// What to print about a value that is not OK: its Status when it has one.
template <typename T>
std::string DescribeNotOk(const T& value) {
  if constexpr (requires { value.status().ToString(); }) {
    return value.status().ToString();
  } else if constexpr (requires { value.ToString(); }) {
    return value.ToString();
  } else if constexpr (requires { value.message(); }) {
    return std::string(value.message());
  } else {
    return "(no status to print)";
  }
}

// The predicate-formatter behind ASSERT_OK/EXPECT_OK.
template <typename T>
::testing::AssertionResult IsOk(const char* expr_text, const T& value) {
  if (value.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expr_text << " is not OK: " << DescribeNotOk(value);
}

}  // namespace taco::testing::internal

#define ASSERT_OK(expr) ASSERT_PRED_FORMAT1(::taco::testing::internal::IsOk, expr)
#define EXPECT_OK(expr) EXPECT_PRED_FORMAT1(::taco::testing::internal::IsOk, expr)

#endif  // TACO_TESTS_SUPPORT_STATUS_ASSERT_H_
