// Helpers for the reader tests: fixture paths and opening datasets with assertions.
#ifndef TACO_TESTS_READ_READ_TEST_UTIL_H_
#define TACO_TESTS_READ_READ_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/io.h"

namespace taco::readtest {

inline std::string FlatZip() { return testing::UpstreamFixtures() + "/zip/flat/flat.tacozip"; }
inline std::string NestedZip() { return testing::UpstreamFixtures() + "/zip/nested/nested.tacozip"; }
inline std::string FlatFolder() { return testing::UpstreamFixtures() + "/folder/flat"; }
inline std::string NestedFolder() { return testing::UpstreamFixtures() + "/folder/nested"; }

inline std::unique_ptr<Dataset> OpenOrDie(const std::string& path, const OpenOptions& options = {}) {
  auto ds = Dataset::Open(path, options);
  EXPECT_TRUE(ds.ok()) << ds.status().ToString();
  return ds.ok() ? std::move(*ds) : nullptr;
}

template <typename T>
T ValueOrDie(Result<T> r) {
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) throw std::runtime_error(r.status().ToString());
  return std::move(*r);
}

// The string column `name` of `t` (null → "<null>").
inline std::vector<std::string> Strings(const Table& t, const std::string& name) {
  std::vector<std::string> out;
  int c = t.FindColumn(name);
  EXPECT_GE(c, 0) << "no column " << name;
  if (c < 0) return out;
  for (const auto& v : t.columns[static_cast<size_t>(c)].values) {
    out.push_back(v.is<std::string>() ? v.get<std::string>() : "<null>");
  }
  return out;
}

inline std::vector<std::string> Ids(const Dataset& ds) { return Strings(ValueOrDie(ds.Data()), "id"); }

}  // namespace taco::readtest

#endif  // TACO_TESTS_READ_READ_TEST_UTIL_H_
