// `SELECT count(*) FROM data` from the engine-free row count (taco/count_query.h, issue 28):
// exactly that statement is recognised, its answer is the engine's table on every kind of
// dataset, and on ZIP and FOLDER datasets it starts no SQL engine. `taco sql` prints it as
// the engine's answer is printed (tests/cli/sql_count_test.cc).
#include "taco/count_query.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "read_test_util.h"
#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/diagnostics.h"
#include "taco/model.h"
#include "taco/tacocat.h"
#include "taco/writer.h"
#include "tacocat/tacocat_test_util.h"

namespace taco {
namespace {

using readtest::OpenOrDie;
using readtest::ValueOrDie;
using testing::TempDir;

TEST(CountOfData, RecognisesExactlyTheStatement) {
  for (const char* yes : {"SELECT count(*) FROM data", "select COUNT(*) from DATA", "  SELECT\ncount ( * )\tFROM data;",
                          "SELECT count(*) FROM data ; ;\n", "Select Count(*)From Data"}) {
    EXPECT_TRUE(IsCountOfData(yes)) << yes;
  }
  for (const char* no :
       {"SELECT count(*) FROM data WHERE id = 'a'", "SELECT count(*) AS n FROM data", "SELECT count(id) FROM data",
        "SELECT count(*) FROM data_raw", "SELECT count(*) FROM \"data\"", "SELECT count(*) FROM data -- all",
        "SELECTcount(*) FROM data", "SELECT count(*) FROM data LIMIT 1", "SELECT count(*), 1 FROM data",
        "SELECT count(*) FROM level0", "SELECT count(**) FROM data", "EXPLAIN SELECT count(*) FROM data", ""}) {
    EXPECT_FALSE(IsCountOfData(no)) << no;
  }
}

// ZIP and FOLDER, padded and not, of our writer and of tacotoolbox.
std::vector<std::string> LazyPaths(const TempDir& dir) {
  std::vector<std::string> paths = {readtest::FlatZip(), readtest::FlatFolder(), readtest::NestedZip(),
                                    readtest::NestedFolder()};
  std::vector<Sample> samples;
  for (int i = 0; i < 5; ++i) samples.push_back(*Sample::FromBytes("s" + std::to_string(i), "bytes"));
  TortillaOptions pad;
  pad.pad_to = 4;  // 5 samples + 3 padding rows
  nlohmann::ordered_json collection = {{"id", "count"},
                                       {"dataset_version", "1.0.0"},
                                       {"description", "count test"},
                                       {"licenses", {"CC-BY-4.0"}},
                                       {"providers", {{{"name", "Test"}}}},
                                       {"tasks", {"classification"}}};
  const Taco padded = *Taco::Make(*Tortilla::Make(std::move(samples), pad), collection);
  CreateOptions folder;
  folder.format = OutputFormat::kFolder;
  EXPECT_TRUE(Create(padded, dir / "padded.tacozip").ok());
  EXPECT_TRUE(Create(padded, dir / "padded_folder", folder).ok());
  paths.push_back(dir / "padded.tacozip");
  paths.push_back(dir / "padded_folder");
  return paths;
}

void ExpectEnginesTable(const Dataset& ds, const Table& ours) {
  auto view = ValueOrDie(ds.Sql("SELECT count(*) FROM data"));
  const Table engine = ValueOrDie(view->DataRaw());
  ASSERT_EQ(ours.columns.size(), 1u);
  ASSERT_EQ(engine.columns.size(), 1u);
  EXPECT_EQ(ours.columns[0].name, engine.columns[0].name);
  EXPECT_EQ(ours.columns[0].type.ToString(), engine.columns[0].type.ToString());
  EXPECT_TRUE(ours.columns[0].values == engine.columns[0].values);
}

TEST(CountOfData, ZipAndFolderStartNoEngineAndAnswerAsTheEngine) {
  TempDir dir;
  for (const std::string& path : LazyPaths(dir)) {
    SCOPED_TRACE(path);
    auto ds = OpenOrDie(path);
    ASSERT_NE(ds, nullptr);
    const uint64_t before = EnginesStarted();
    const Table ours = ValueOrDie(CountOfData(*ds));
    if (path.find("padded") == std::string::npos) {
      // Without padding rows the count is the level-0 footer's (with them the padding rows are
      // counted by the engine, as RowCount() does).
      EXPECT_EQ(EnginesStarted(), before) << "the count started the SQL engine";
    }
    ExpectEnginesTable(*ds, ours);
  }
  auto padded = OpenOrDie(dir / "padded.tacozip");
  EXPECT_EQ(ValueOrDie(CountOfData(*padded)).columns[0].values[0].get<int64_t>(), 5);
}

TEST(CountOfData, TacocatAndConcatAnswerAsTheEngine) {
  TempDir dir;
  const std::vector<std::string> parts = tacocattest::WriteParts(dir.path(), tacocattest::DefaultRegions());
  ASSERT_EQ(parts.size(), 4u);
  const std::string cat = ValueOrDie(CreateTacocat(parts));
  auto tacocat = OpenOrDie(cat);
  ASSERT_NE(tacocat, nullptr);
  ExpectEnginesTable(*tacocat, ValueOrDie(CountOfData(*tacocat)));
  EXPECT_EQ(ValueOrDie(CountOfData(*tacocat)).columns[0].values[0].get<int64_t>(), 4);
  auto concat = Dataset::OpenList({parts[0], parts[1], parts[2]});
  ASSERT_TRUE(concat.ok()) << concat.status().ToString();
  ExpectEnginesTable(**concat, ValueOrDie(CountOfData(**concat)));
}

}  // namespace
}  // namespace taco
