// gtest expectations shared by the CLI tests: the error contract of every `taco` command
// (exit 2, nothing on stdout, one line `taco: <what failed>: <why>` on stderr).
#ifndef TACO_TESTS_SUPPORT_CLI_EXPECT_H_
#define TACO_TESTS_SUPPORT_CLI_EXPECT_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "support/paths.h"

namespace taco::testing {

// `r` failed with exit 2, printed nothing on stdout and one `taco: ` line holding `needle`.
inline void ExpectOneLineError(const CommandResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("taco: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace taco::testing

#endif  // TACO_TESTS_SUPPORT_CLI_EXPECT_H_
