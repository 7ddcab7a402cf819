// The lazy engine (issue 28): opening a ZIP or FOLDER dataset, num_levels(), collection()
// and RowCount() of the whole dataset start no SQL engine; the first statement starts one,
// once, for every view of the dataset.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "read/lazy_engine.h"
#include "read/read_test_util.h"
#include "table/engine.h"
#include "taco/diagnostics.h"

namespace taco::readtest {
namespace {

using testing::TempDir;

TEST(LazyEngine, OpenLenAndCollectionStartNoEngine) {
  for (const std::string& path : {FlatZip(), FlatFolder(), NestedZip(), NestedFolder()}) {
    const uint64_t before = EnginesStarted();
    auto ds = OpenOrDie(path);
    ASSERT_NE(ds, nullptr);
    EXPECT_GE(ds->num_levels(), 1);
    EXPECT_TRUE(ds->collection().contains("taco:pit_schema")) << path;
    const int64_t rows = ValueOrDie(ds->RowCount());
    EXPECT_EQ(EnginesStarted(), before) << path << ": opening or counting started the engine";
    // The first statement starts it, once, and the count agrees with the engine's.
    Table counted = ValueOrDie(ds->QueryRaw("SELECT count(*) FROM data"));
    EXPECT_EQ(counted.columns.at(0).values.at(0).get<int64_t>(), rows) << path;
    EXPECT_EQ(EnginesStarted(), before + 1) << path;
    auto view = ValueOrDie(ds->Sql("SELECT * FROM data"));
    EXPECT_EQ(ValueOrDie(view->RowCount()), rows);
    EXPECT_EQ(EnginesStarted(), before + 1) << path << ": a second engine for the same dataset";
  }
}

TEST(LazyEngine, ThreadsRacingToStartShareOneEngine) {
  const uint64_t before = EnginesStarted();
  auto ds = OpenOrDie(NestedZip());
  ASSERT_NE(ds, nullptr);
  std::vector<std::thread> threads;
  std::vector<int64_t> counts(4, -1);
  for (size_t i = 0; i < counts.size(); ++i) {
    threads.emplace_back([&, i] {
      auto t = ds->QueryRaw("SELECT count(*) FROM level1");
      if (t.ok()) counts[i] = t->columns.at(0).values.at(0).get<int64_t>();
    });
  }
  for (auto& t : threads) t.join();
  for (int64_t c : counts) EXPECT_EQ(c, 9);
  EXPECT_EQ(EnginesStarted(), before + 1);
}

// A level whose `id` statistics may hold padding: RowCount() asks the engine (and is right).
TEST(LazyEngine, PossiblePaddingIsCountedByTheEngine) {
  TempDir dir;
  auto engine = ValueOrDie(table::Engine::Open());
  Table level0;
  level0.columns.push_back({"id", DataType::String(), {"a", "__TACOPAD__0"}});
  level0.columns.push_back({"type", DataType::String(), {"FILE", "FILE"}});
  level0.columns.push_back({"internal:current_id", DataType::Int64(), {int64_t{0}, int64_t{1}}});
  level0.columns.push_back({"internal:parent_id", DataType::Int64(), {int64_t{0}, int64_t{1}}});
  ASSERT_EQ(std::system(("mkdir -p " + testing::ShellQuote(dir / "ds/METADATA")).c_str()), 0);
  testing::WriteFile(dir / "ds/METADATA/level0.parquet", ValueOrDie(engine->ToParquet(level0)));
  testing::WriteFile(dir / "ds/COLLECTION.json",
                     R"({"id": "pad", "taco:pit_schema": {"root": {"n": 2, "type": "FILE"}}})");
  const uint64_t before = EnginesStarted();
  auto ds = OpenOrDie(dir / "ds");
  ASSERT_NE(ds, nullptr);
  EXPECT_EQ(EnginesStarted(), before);
  EXPECT_EQ(ValueOrDie(ds->RowCount()), 1);
  EXPECT_EQ(EnginesStarted(), before + 1);
}

// A setup that fails: every statement reports its error (not a missing view), and the setup
// runs once however often the engine is asked for.
TEST(LazyEngine, AStartThatFailsReportsItsErrorOnEveryStatement) {
  read::LazyEngine lazy;
  int runs = 0;
  lazy.set_setup([&runs](table::Engine& engine) -> Status {
    ++runs;
    TACO_RETURN_IF_ERROR(engine.Execute("CREATE VIEW v AS SELECT 1 AS x"));
    return Status::Corruption("ds: METADATA/level0.parquet: damaged");
  });
  EXPECT_FALSE(lazy.started());
  auto first = lazy->Query("SELECT * FROM v");
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.status().ToString(), Status::Corruption("ds: METADATA/level0.parquet: damaged").ToString());
  EXPECT_EQ(lazy->Execute("SELECT 1").ToString(), first.status().ToString());
  EXPECT_EQ(lazy->CheckReadOnly("SELECT 1").ToString(), first.status().ToString());
  EXPECT_EQ(lazy.Start().ToString(), first.status().ToString());
  EXPECT_EQ(runs, 1);
  EXPECT_TRUE(lazy.started());
}

TEST(LazyEngine, ASetupThatSucceedsIsSeenByEveryStatement) {
  read::LazyEngine lazy;
  const uint64_t before = EnginesStarted();
  lazy.set_setup([](table::Engine& engine) { return engine.Execute("CREATE VIEW v AS SELECT 41 + 1 AS x"); });
  EXPECT_EQ(EnginesStarted(), before);
  auto t = lazy->Query("SELECT x FROM v");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->columns.at(0).values.at(0).get<int32_t>(), 42);
  EXPECT_EQ(EnginesStarted(), before + 1);
}

}  // namespace
}  // namespace taco::readtest
