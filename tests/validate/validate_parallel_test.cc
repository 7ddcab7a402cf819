// Validate() checks the rows of large datasets on several threads (validate/member_checks.cc):
// the report must be the one a single pass in row order gives, whatever the timing.
#include <filesystem>

#include "validate_test_util.h"

namespace taco {
namespace {

using testing::TempDir;
using namespace vtest;

// A ZIP of `n` FILE samples where every third one's bytes are a GDAL VRT (which names other
// files: rule external-reference), the others one byte. One file on disk, so quick to write.
std::string ZipWithReferencingSamples(const TempDir& tmp, size_t n) {
  std::vector<Sample> samples;
  samples.reserve(n);
  const std::string vrt = "<VRTDataset rasterXSize=\"1\" rasterYSize=\"1\"></VRTDataset>";
  for (size_t i = 0; i < n; ++i) samples.push_back(*Sample::FromBytes("s" + std::to_string(i), i % 3 == 0 ? vrt : "x"));
  auto taco = Taco::Make(*Tortilla::Make(std::move(samples)), Collection());
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return Written(*taco, tmp / "many.tacozip");
}

TEST(ValidateParallel, ReportIsInRowOrderAndCountsEveryRow) {
  constexpr size_t kRows = 12000;  // above the rows from which threads start (8192)
  TempDir tmp;
  const std::string path = ZipWithReferencingSamples(tmp, kRows);
  const size_t flagged = (kRows + 2) / 3;

  ValidateOptions all;
  all.max_per_rule = kRows;
  const ValidationReport full = MustValidate(path, all);
  ASSERT_EQ(CountRule(full, "external-reference"), flagged) << Describe(full).substr(0, 2000);
  // Row order: the k-th listed one is row 3k.
  size_t k = 0;
  for (const Violation& v : full.violations) {
    if (v.rule != "external-reference") continue;
    ASSERT_EQ(v.where.rfind("level0 row " + std::to_string(3 * k) + " ", 0), 0u) << k << ": " << v.where;
    ++k;
  }

  // With a small max_per_rule: the first ones of the full report, the rest counted.
  ValidateOptions few;
  few.max_per_rule = 50;
  const ValidationReport some = MustValidate(path, few);
  std::vector<Violation> expected_listed, got_listed;
  for (const Violation& v : full.violations) {
    if (v.rule == "external-reference" && expected_listed.size() < 50) expected_listed.push_back(v);
  }
  for (const Violation& v : some.violations) {
    if (v.rule == "external-reference") got_listed.push_back(v);
  }
  EXPECT_EQ(got_listed, expected_listed);
  ASSERT_EQ(some.omitted.count("external-reference"), 1u);
  EXPECT_EQ(some.omitted.at("external-reference"), flagged - 50);
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
