// Issue 16 B: views returned by Sql() keep the protected internal:* columns as the dataset
// computed them. Rewriting one (SELECT * REPLACE ('/etc/passwd' AS "internal:gdal_vsi")),
// computing one, or pairing one with another sample's id is refused: in `taco sql`,
// `taco filter`, `taco export` (which would copy the forged path's bytes) and navigation.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "security_test_util.h"
#include "taco/dataset.h"

namespace taco::sectest {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;

class ProtectedColumns : public ::testing::Test {
 protected:
  void SetUp() override {
    secret_ = dir_ / "secret.txt";
    testing::WriteFile(secret_, "TOP-SECRET\n");
    zip_ = Written(NestedTaco(), dir_ / "ds.tacozip");
    folder_ = Written(FlatTaco(), dir_ / "flat");
  }
  std::string Forged() const { return "/vsisubfile/0_11," + secret_; }
  TempDir dir_;
  std::string secret_, zip_, folder_;
};

TEST_F(ProtectedColumns, RewritingAProtectedColumnIsRefused) {
  for (const std::string& ds : {zip_, folder_}) {
    SCOPED_TRACE(ds);
    const std::string q = ShellQuote(ds);
    for (const std::string& sql : {
             "SELECT * REPLACE ('" + Forged() + "' AS \"internal:gdal_vsi\") FROM data",
             "SELECT * REPLACE ('" + secret_ + "' AS \"internal:gdal_vsi\") FROM data_raw",
             "SELECT * EXCLUDE (\"internal:gdal_vsi\"), '" + secret_ + "' AS \"INTERNAL:GDAL_VSI\" FROM data",
             "SELECT id, type, '" + Forged() + "' AS \"internal:gdal_vsi\" FROM data",
             std::string("SELECT a.id, a.type, b.\"internal:gdal_vsi\" FROM data a, data b WHERE a.id <> b.id"),
             "SELECT 'x' AS id, '" + secret_ + "' AS \"internal:gdal_vsi\"",
         }) {
      SCOPED_TRACE(sql);
      ExpectRefused("sql " + q + " " + ShellQuote(sql));
    }
    ExpectRefused("filter " + q + " --sql " +
                  ShellQuote("SELECT * REPLACE ('" + Forged() + "' AS \"internal:gdal_vsi\") FROM data_raw"));
  }
  // export would have copied the forged path's bytes into the new dataset.
  const std::string out = dir_ / "stolen.tacozip";
  ExpectRefused("export " + ShellQuote(folder_) + " " + ShellQuote(out) + " --sql " +
                ShellQuote("SELECT * REPLACE ('" + Forged() + "' AS \"internal:gdal_vsi\") FROM data_raw"));
  EXPECT_FALSE(fs::exists(out));
  // Offsets are protected too (a concat or export rebuilds paths from them).
  ExpectRefused("sql " + ShellQuote(zip_) + " " +
                ShellQuote("SELECT * REPLACE (0 AS \"internal:offset\") FROM data_raw"));
}

TEST_F(ProtectedColumns, LegitimateQueriesKeepWorking) {
  const std::string q = ShellQuote(zip_);
  auto csv = [&](const std::string& sql) {
    CommandResult r = RunTaco("sql " + q + " " + ShellQuote(sql) + " --format csv");
    EXPECT_EQ(r.exit_code, 0) << sql << "\n" << r.err;
    return r.out;
  };
  const std::string all = csv("SELECT id, \"internal:gdal_vsi\" FROM data ORDER BY id DESC");
  EXPECT_EQ(all.substr(0, all.find('\n', 3) + 1), "id,internal:gdal_vsi\n");
  EXPECT_EQ(all.find("europe"), all.find('\n') + 1) << all;  // ORDER BY kept
  // Joins, subqueries and computed columns with other names are fine (checked, genuine).
  EXPECT_EQ(csv("SELECT d.id, d.\"internal:gdal_vsi\" FROM data d JOIN level1 l ON l.\"internal:parent_id\" = "
                "0 AND d.id = 'europe' ORDER BY d.id LIMIT 1"),
            csv("SELECT id, \"internal:gdal_vsi\" FROM data WHERE id = 'europe'"));
  EXPECT_NE(csv("SELECT id, '" + secret_ + "' AS gdal_path FROM data").find(secret_), std::string::npos);
  EXPECT_NE(csv("SELECT * FROM level1 WHERE id = 'item_1'").find("item_1"), std::string::npos);
  EXPECT_NE(csv("SELECT id, \"internal:gdal_vsi\" FROM (SELECT * FROM data WHERE id <> 'asia') ORDER BY id DESC")
                .find("europe"),
            std::string::npos);
  EXPECT_EQ(csv("SELECT count(*) AS n FROM data"), "n\n2\n");
  // `filter --sql` then navigation of the survivors.
  CommandResult f =
      RunTaco("filter " + q + " --sql " + ShellQuote("SELECT * FROM data_raw WHERE id = 'asia'") + " --format csv");
  EXPECT_EQ(f.exit_code, 0) << f.err;
}

TEST_F(ProtectedColumns, NavigationOfAForgedViewIsRefused) {
  auto ds = Dataset::Open(folder_);
  ASSERT_TRUE(ds.ok());
  auto forged = (*ds)->Sql("SELECT * REPLACE ('" + secret_ + "' AS \"internal:gdal_vsi\") FROM data_raw");
  ASSERT_TRUE(forged.ok()) << forged.status().ToString();  // lazy: refused when read
  auto node = (*forged)->Read(SampleKey(int64_t{0}));
  ASSERT_FALSE(node.ok());
  EXPECT_NE(node.status().message().find("refused"), std::string::npos) << node.status().ToString();
  EXPECT_FALSE((*forged)->Data().ok());
  // A concat cannot rebuild a path from a forged offset either.
  fs::copy_file(zip_, dir_ / "copy.tacozip");
  auto zip = Dataset::Open(zip_);
  auto other = Dataset::Open(dir_ / "copy.tacozip");
  ASSERT_TRUE(zip.ok() && other.ok());
  auto offset = (*zip)->Sql("SELECT * REPLACE (0 AS \"internal:offset\") FROM data_raw");
  ASSERT_TRUE(offset.ok()) << offset.status().ToString();
  auto concat = Dataset::Concat({offset->get(), other->get()});
  ASSERT_FALSE(concat.ok());
  EXPECT_NE(concat.status().message().find("refused"), std::string::npos) << concat.status().ToString();
  // A genuine view navigates, in the query's order.
  auto sorted = (*ds)->Sql("SELECT * FROM data_raw ORDER BY id DESC");
  ASSERT_TRUE(sorted.ok()) << sorted.status().ToString();
  auto first = (*sorted)->Read(SampleKey(int64_t{0}));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->id, "sample_2");
  EXPECT_EQ(*(*sorted)->ReadBytes(*first), "content_2");
  auto joined = (*ds)->Sql("SELECT d.* FROM data_raw d JOIN level0 l USING (id) ORDER BY d.id DESC");
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  auto via_join = (*joined)->Read(SampleKey(int64_t{0}));
  ASSERT_TRUE(via_join.ok()) << via_join.status().ToString();
  EXPECT_EQ(via_join->id, "sample_2");
}

}  // namespace
}  // namespace taco::sectest
