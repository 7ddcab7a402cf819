// The memory budget of materialized query results (util/memory_budget.h): Engine::Query
// refuses a result over TACO_MEMORY_LIMIT while converting it, naming what was read; results
// under it and streamed aggregates are unaffected.
#include "util/memory_budget.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>
#include <string>

#include "table/engine.h"

namespace taco {
namespace {

// Sets TACO_MEMORY_LIMIT for the scope (restores the previous value).
class ScopedMemoryLimit {
 public:
  explicit ScopedMemoryLimit(const char* value) {
    if (const char* old = ::getenv("TACO_MEMORY_LIMIT")) previous_ = old;
    ::setenv("TACO_MEMORY_LIMIT", value, 1);
  }
  ~ScopedMemoryLimit() {
    if (previous_) {
      ::setenv("TACO_MEMORY_LIMIT", previous_->c_str(), 1);
    } else {
      ::unsetenv("TACO_MEMORY_LIMIT");
    }
  }

 private:
  std::optional<std::string> previous_;
};

TEST(MemoryBudget, ParsesSizes) {
  EXPECT_EQ(util::ParseMemorySize("1073741824"), uint64_t{1} << 30);
  EXPECT_EQ(util::ParseMemorySize("512M"), uint64_t{512} << 20);
  EXPECT_EQ(util::ParseMemorySize("2g"), uint64_t{2} << 30);
  EXPECT_EQ(util::ParseMemorySize("3KiB"), uint64_t{3} << 10);
  EXPECT_EQ(util::ParseMemorySize("1TB"), uint64_t{1} << 40);
  EXPECT_EQ(util::ParseMemorySize("7B"), 7u);
  EXPECT_EQ(util::ParseMemorySize(""), std::nullopt);
  EXPECT_EQ(util::ParseMemorySize("M"), std::nullopt);
  EXPECT_EQ(util::ParseMemorySize("12X"), std::nullopt);
  EXPECT_EQ(util::ParseMemorySize("-5"), std::nullopt);
  EXPECT_EQ(util::ParseMemorySize("99999999999999999999"), std::nullopt);
  EXPECT_EQ(util::ParseMemorySize("99999999999T"), std::nullopt);
}

TEST(MemoryBudget, TheVariableSetsItAndAnUnparsableOneIsIgnored) {
  const uint64_t system = [] {
    ScopedMemoryLimit none("");
    return util::MemoryBudget();
  }();
  EXPECT_GT(system, 0u);
  {
    ScopedMemoryLimit limit("3M");
    EXPECT_EQ(util::MemoryBudget(), uint64_t{3} << 20);
  }
  ScopedMemoryLimit junk("lots");
  EXPECT_EQ(util::MemoryBudget(), system);
}

TEST(MemoryBudget, QueryRefusesAResultOverTheBudgetAndNamesIt) {
  auto engine = table::Engine::Open();
  ASSERT_TRUE(engine.ok()) << engine.status().ToString();
  ScopedMemoryLimit limit("1M");
  // 100,000 rows x 2 columns hold far more than 1 MiB of values.
  auto big = (*engine)->Query("SELECT range AS i, 'row ' || range::VARCHAR AS s FROM range(100000)");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), StatusCode::kNotSupported);
  EXPECT_TRUE(util::IsOverMemoryBudget(big.status())) << big.status().ToString();
  EXPECT_NE(big.status().message().find("needs more than the memory budget of 1 MiB"), std::string::npos)
      << big.status().message();
  EXPECT_NE(big.status().message().find("TACO_MEMORY_LIMIT"), std::string::npos);
  // Under the budget, and streamed work whatever its size, are unaffected.
  auto small = (*engine)->Query("SELECT range AS i FROM range(1000)");
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ(small->num_rows(), 1000u);
  auto count = (*engine)->Query("SELECT count(*) FROM range(10000000)");
  ASSERT_TRUE(count.ok()) << count.status().ToString();
  EXPECT_EQ(count->columns.at(0).values.at(0).get<int64_t>(), 10000000);
  // The engine is usable after a refused result.
  auto again = (*engine)->Query("SELECT 42 AS x");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->columns.at(0).values.at(0).get<int32_t>(), 42);
}

TEST(MemoryBudget, ErrorsOfAStreamedResultAreStillReported) {
  auto engine = table::Engine::Open();
  ASSERT_TRUE(engine.ok());
  // The error is raised while rows are fetched, after the first chunks were produced.
  auto failed = (*engine)->Query(
      "SELECT CASE WHEN range < 5000 THEN range ELSE error('boom at ' || range) END "
      "FROM range(10000)");
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("boom at"), std::string::npos) << failed.status().message();
  auto refused = (*engine)->Query("SELECT error('taco-refused: no, thanks')");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(), "no, thanks");
}

}  // namespace
}  // namespace taco
