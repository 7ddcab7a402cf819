// Issue 16 B: metadata is untrusted. Ids that break the id rule and paths that leave the
// dataset are refused on read (cat, read, ls, sql's internal:gdal_vsi, validate) for FOLDER,
// ZIP, TACOCAT and concat; nothing outside the dataset is ever printed.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "security_test_util.h"
#include "taco/dataset.h"
#include "taco/tacocat.h"

namespace taco::sectest {
namespace {

namespace fs = std::filesystem;
using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;

class PathTraversal : public ::testing::Test {
 protected:
  void SetUp() override {
    secret_ = dir_ / "secret.txt";
    testing::WriteFile(secret_, "TOP-SECRET\n");
  }
  TempDir dir_;
  std::string secret_;
};

TEST_F(PathTraversal, FolderLevel0IdLeavingTheDatasetIsRefused) {
  const std::string ds = Written(FlatTaco(), dir_ / "ds");
  // DATA/<id> with this id is <dir>/secret.txt.
  EditParquetFile(ds + "/METADATA/level0.parquet",
                  [](Table& t) { Col(t, "id").values[0] = Value(std::string("../../secret.txt")); });
  const std::string q = ShellQuote(ds);
  ExpectRefused("cat " + q + " 0");
  ExpectRefused("read " + q + " 0");
  ExpectRefused("ls " + q);
  ExpectRefused("sql " + q + " 'SELECT \"internal:gdal_vsi\" FROM data'");
  // The other samples and queries that build no path still work.
  testing::CommandResult count = RunTaco("sql " + q + " 'SELECT count(*) AS n FROM data' --format csv");
  EXPECT_EQ(count.exit_code, 0) << count.err;
  EXPECT_EQ(count.out, "n\n3\n");
  // validate names the id and reads nothing outside (exit 1: a violation, not a crash).
  testing::CommandResult v = RunTaco("validate " + q);
  EXPECT_EQ(v.exit_code, 1) << v.out << v.err;
  EXPECT_NE(v.out.find("sample-id"), std::string::npos) << v.out;
  EXPECT_EQ(v.out.find("TOP-SECRET"), std::string::npos);
}

TEST_F(PathTraversal, FolderChildIdInMetaLeavingTheDatasetIsRefused) {
  const std::string ds = Written(NestedTaco(), dir_ / "ds");
  // DATA/europe/<id> with this id is <dir>/secret.txt.
  EditParquetFile(ds + "/DATA/europe/__meta__",
                  [](Table& t) { Col(t, "id").values[1] = Value(std::string("../../../secret.txt")); });
  ExpectRefused("cat " + ShellQuote(ds) + " europe 1");
  ExpectRefused("read " + ShellQuote(ds) + " europe 1");
  ExpectRefused("ls " + ShellQuote(ds) + " europe");
  // The untouched folder still navigates.
  testing::CommandResult ok = RunTaco("cat " + ShellQuote(ds) + " asia 1");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "data_asia_1");
}

TEST_F(PathTraversal, FolderRelativePathLeavingTheDatasetIsRefused) {
  const std::string ds = Written(NestedTaco(), dir_ / "ds");
  EditParquetFile(ds + "/METADATA/level1.parquet", [](Table& t) {
    Col(t, "internal:relative_path").values[0] = Value(std::string("europe/../../../secret.txt"));
  });
  ExpectRefused("sql " + ShellQuote(ds) + " 'SELECT \"internal:gdal_vsi\" FROM level1'");
}

TEST_F(PathTraversal, FolderSymlinkLeavingTheDatasetIsRefused) {
  const std::string ds = Written(FlatTaco(), dir_ / "ds");
  fs::remove(ds + "/DATA/sample_1");
  fs::create_symlink(secret_, ds + "/DATA/sample_1");
  ExpectRefused("cat " + ShellQuote(ds) + " sample_1");
  ExpectRefused("read " + ShellQuote(ds) + " sample_1");
  // A symbolic link that stays inside the dataset is fine.
  fs::remove(ds + "/DATA/sample_1");
  fs::create_symlink(ds + "/DATA/sample_2", ds + "/DATA/sample_1");
  testing::CommandResult ok = RunTaco("cat " + ShellQuote(ds) + " sample_1");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "content_2");
}

TEST_F(PathTraversal, ZipIdsAndRangesAreChecked) {
  const std::string zip = Written(NestedTaco(), dir_ / "ds.tacozip");
  {  // an id that breaks the id rule
    Table t = ParquetTable(MemberBytes(zip, "METADATA/level0.parquet"));
    Col(t, "id").values[0] = Value(std::string("../../secret.txt"));
    const std::string bad = dir_ / "bad_id.tacozip";
    RebuildZip(zip, bad, {{"METADATA/level0.parquet", ParquetBytes(t)}});
    ExpectRefused("read " + ShellQuote(bad) + " 0");
    ExpectRefused("ls " + ShellQuote(bad));
  }
  {  // a range that is negative / ends past the container: the views take the member's range
     // from the central directory by archive path (read/member_resolver.h), never the bytes
     // the stored range names
    Table t = ParquetTable(MemberBytes(zip, "METADATA/level0.parquet"));
    Col(t, "internal:offset").values[0] = Value(int64_t{-100});
    Col(t, "internal:offset").values[1] = Value(int64_t{1} << 40);
    const std::string bad = dir_ / "bad_range.tacozip";
    RebuildZip(zip, bad, {{"METADATA/level0.parquet", ParquetBytes(t)}});
    const std::string query = "SELECT id, \"internal:offset\", \"internal:size\" FROM level0 ORDER BY id";
    testing::CommandResult good = RunTaco("sql " + ShellQuote(zip) + " '" + query + "' --format csv");
    testing::CommandResult fixed = RunTaco("sql " + ShellQuote(bad) + " '" + query + "' --format csv");
    EXPECT_EQ(good.exit_code, 0) << good.err;
    EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
    EXPECT_EQ(fixed.out, good.out);
    // Without a central directory entry to look it up by, the stored range is refused.
    Col(t, "id").values[1] = Value(std::string("no_such_member"));
    const std::string lost = dir_ / "bad_range_id.tacozip";
    RebuildZip(zip, lost, {{"METADATA/level0.parquet", ParquetBytes(t)}});
    ExpectRefused("read " + ShellQuote(lost) + " 1");
  }
}

TEST_F(PathTraversal, TacocatSourceFileLeavingTheDatasetIsRefused) {
  fs::create_directories(dir_ / "parts");
  const std::string a = Written(FlatTaco(), dir_ / "parts/a.tacozip");
  const std::string b = Written(FlatTaco("other_"), dir_ / "parts/b.tacozip");
  TacocatOptions options;
  auto folder = CreateTacocat({a, b}, options);
  ASSERT_TRUE(folder.ok()) << folder.status().ToString();
  const uint64_t size = fs::file_size(secret_);
  EditParquetFile(*folder + "/level0.parquet", [&](Table& t) {
    Col(t, "internal:source_file").values[0] = Value(std::string("../secret.txt"));
    Col(t, "internal:offset").values[0] = Value(int64_t{0});
    Col(t, "internal:size").values[0] = Value(static_cast<int64_t>(size));
  });
  ExpectRefused("cat " + ShellQuote(*folder) + " 0");
  ExpectRefused("read " + ShellQuote(*folder) + " 0");
  // Absolute paths too.
  EditParquetFile(*folder + "/level0.parquet",
                  [&](Table& t) { Col(t, "internal:source_file").values[0] = Value(secret_); });
  ExpectRefused("cat " + ShellQuote(*folder) + " 0");
  // The untouched rows still read.
  testing::CommandResult ok = RunTaco("cat " + ShellQuote(*folder) + " 4");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "content_1");
}

TEST_F(PathTraversal, ConcatKeepsTheChecks) {
  const std::string good = Written(FlatTaco(), dir_ / "good");
  const std::string bad = Written(FlatTaco(), dir_ / "bad");
  EditParquetFile(bad + "/METADATA/level0.parquet",
                  [](Table& t) { Col(t, "id").values[2] = Value(std::string("../../secret.txt")); });
  auto ds = Dataset::OpenList({good, bad});
  ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  auto fine = (*ds)->Read(SampleKey(int64_t{3}));
  ASSERT_TRUE(fine.ok()) << fine.status().ToString();
  EXPECT_EQ(*(*ds)->ReadBytes(*fine), "content_0");
  auto node = (*ds)->Read(SampleKey(int64_t{5}));
  ASSERT_FALSE(node.ok());
  EXPECT_NE(node.status().message().find("refused"), std::string::npos) << node.status().ToString();
  EXPECT_FALSE((*ds)->Data().ok());
}

TEST_F(PathTraversal, ReadBytesRefusesANodeMadeUpByTheCaller) {
  const std::string ds_path = Written(FlatTaco(), dir_ / "ds");
  auto ds = Dataset::Open(ds_path);
  ASSERT_TRUE(ds.ok());
  Node node;
  node.id = "x";
  node.type = "FILE";
  node.gdal_path = secret_;
  auto bytes = (*ds)->ReadBytes(node);
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().message().find("refused"), std::string::npos) << bytes.status().ToString();
}

}  // namespace
}  // namespace taco::sectest
