// Validate() checks the rows of large datasets on several threads (validate/member_checks.cc):
// the report must be the one a single pass in row order gives, whatever the timing.
#include <filesystem>

#include "validate_test_util.h"

namespace taco {
namespace {

using testing::TempDir;
using namespace vtest;

// A FOLDER of `n` one-byte FILE samples whose level0 ids are renamed on every third row, so
// that those rows name files that do not exist (missing-member) and the files they named are
// left over (unreferenced-member).
std::string FolderWithMissingMembers(const TempDir& tmp, size_t n) {
  std::vector<Sample> samples;
  samples.reserve(n);
  for (size_t i = 0; i < n; ++i) samples.push_back(*Sample::FromBytes("s" + std::to_string(i), "x"));
  auto taco = Taco::Make(*Tortilla::Make(std::move(samples)), Collection());
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  const std::string path = Written(*taco, tmp / "many");
  EditTable(path + "/METADATA/level0.parquet", [](Table& t) {
    Column& id = Col(t, "id");
    for (size_t i = 0; i < id.values.size(); i += 3) id.values[i] = Value("gone" + std::to_string(i));
  });
  return path;
}

TEST(ValidateParallel, ReportIsInRowOrderAndCountsEveryRow) {
  constexpr size_t kRows = 12000;  // above the rows from which threads start (8192)
  TempDir tmp;
  const std::string path = FolderWithMissingMembers(tmp, kRows);
  const size_t missing = (kRows + 2) / 3;

  ValidateOptions all;
  all.max_per_rule = kRows;
  const ValidationReport full = MustValidate(path, all);
  ASSERT_EQ(CountRule(full, "missing-member"), missing) << Describe(full).substr(0, 2000);
  // Row order: the k-th listed missing member is row 3k.
  size_t k = 0;
  for (const Violation& v : full.violations) {
    if (v.rule != "missing-member") continue;
    ASSERT_EQ(v.where.rfind("level0 row " + std::to_string(3 * k) + " ", 0), 0u) << k << ": " << v.where;
    ++k;
  }

  // With a small max_per_rule: the first ones of the full report, the rest counted.
  ValidateOptions few;
  few.max_per_rule = 50;
  const ValidationReport some = MustValidate(path, few);
  std::vector<Violation> expected_missing, got_missing;
  for (const Violation& v : full.violations) {
    if (v.rule == "missing-member" && expected_missing.size() < 50) expected_missing.push_back(v);
  }
  for (const Violation& v : some.violations) {
    if (v.rule == "missing-member") got_missing.push_back(v);
  }
  EXPECT_EQ(got_missing, expected_missing);
  ASSERT_EQ(some.omitted.count("missing-member"), 1u);
  EXPECT_EQ(some.omitted.at("missing-member"), missing - 50);
  EXPECT_EQ(some.total(), full.total());

  // The same report on every run.
  for (int run = 0; run < 3; ++run) {
    const ValidationReport again = MustValidate(path, few);
    EXPECT_EQ(again.violations, some.violations);
    EXPECT_EQ(again.omitted, some.omitted);
  }
}

}  // namespace
}  // namespace taco
