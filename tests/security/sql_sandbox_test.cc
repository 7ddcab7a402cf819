// Issue 29, item 8: SQL over a dataset is sandboxed. By default it reads only the dataset
// (read_csv/read_text/glob/FROM 'file' of anything else refused), and only read statements
// run anywhere (COPY, ATTACH, INSTALL, CREATE MACRO taco_checked_id, SET, ... refused, with
// nothing written). OpenOptions::allow_external_sql / `taco --allow-external-sql` let a user
// join their own files. Library (Sql, QueryRaw, QueryArrow; ZIP, FOLDER, concat) and CLI
// (sql, filter --sql, files --files-sql, export --sql).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "security_test_util.h"
#include "support/cli_expect.h"
#include "taco/dataset.h"

namespace taco::sectest {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;

class SqlSandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    labels_ = dir_ / "labels.csv";
    testing::WriteFile(labels_, "id,label\nsample_0,TOP-SECRET\nsample_2,forest\n");
    zip_ = Written(FlatTaco(), dir_ / "ds.tacozip");
    folder_ = Written(FlatTaco(), dir_ / "flat");
  }

  std::unique_ptr<Dataset> Open(const std::string& path, bool external = false) {
    OpenOptions options;
    options.allow_external_sql = external;
    auto ds = Dataset::Open(path, options);
    EXPECT_TRUE(ds.ok()) << ds.status().ToString();
    return ds.ok() ? std::move(*ds) : nullptr;
  }

  // Queries that read a file outside the dataset.
  std::vector<std::string> OutsideReads() const {
    return {
        "SELECT * FROM read_csv('" + labels_ + "')",
        "SELECT * FROM read_text('" + labels_ + "')",
        "SELECT * FROM read_blob('" + labels_ + "')",
        "SELECT * FROM glob('" + dir_.path() + "/*')",
        "SELECT * FROM '" + labels_ + "'",
        "SELECT d.id, l.label FROM data d JOIN read_csv('" + labels_ + "') l USING (id)",
        // The dataset's own files by path, not through its views: refused as well.
        "SELECT * FROM read_parquet('" + folder_ + "/METADATA/level0.parquet')",
    };
  }

  // Statements that write, load or replace something (never run).
  std::vector<std::string> NonReads() const {
    return {
        "COPY (SELECT 1 AS a) TO '" + dir_.path() + "/copied.csv'",
        "ATTACH '" + dir_.path() + "/attached.db' AS a",
        "EXPORT DATABASE '" + dir_.path() + "/exported'",
        "INSTALL httpfs",
        "LOAD json",
        "CREATE OR REPLACE MACRO taco_checked_id(v, f) AS v",
        "CREATE OR REPLACE TEMP VIEW data AS SELECT 1 AS id",
        "DROP VIEW level0",
        "SET enable_external_access = true",
        "RESET allowed_directories",
        "PRAGMA enable_profiling",
        "CALL pragma_version()",
        "EXPLAIN ANALYZE COPY (SELECT 1 AS a) TO '" + dir_.path() + "/copied.csv'",
    };
  }

  void ExpectNothingWritten() {
    for (const char* name : {"copied.csv", "attached.db", "exported"}) {
      EXPECT_FALSE(fs::exists(dir_ / name)) << name;
    }
  }

  TempDir dir_;
  std::string labels_, zip_, folder_;
};

void ExpectOutsideReadRefused(const Status& st) {
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("refused"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("allow_external_sql"), std::string::npos) << st.ToString();
  EXPECT_EQ(st.message().find("TOP-SECRET"), std::string::npos) << st.ToString();
}

void ExpectStatementRefused(const Status& st, const std::string& sql) {
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("refused: "), std::string::npos) << st.ToString();
  // Names the statement by its first word.
  const std::string keyword = sql.substr(0, sql.find(' '));
  EXPECT_NE(st.message().find("refused: " + keyword), std::string::npos) << st.ToString();
}

TEST_F(SqlSandbox, ReadsOutsideTheDatasetAreRefused) {
  for (const std::string& path : {zip_, folder_}) {
    SCOPED_TRACE(path);
    auto ds = Open(path);
    ASSERT_NE(ds, nullptr);
    for (const std::string& sql : OutsideReads()) {
      SCOPED_TRACE(sql);
      auto view = ds->Sql(sql);
      ASSERT_FALSE(view.ok());
      ExpectOutsideReadRefused(view.status());
      auto raw = ds->QueryRaw(sql);
      ASSERT_FALSE(raw.ok());
      ExpectOutsideReadRefused(raw.status());
      ArrowArrayStream stream{};
      Status arrow = ds->QueryArrow(sql, &stream);
      ASSERT_FALSE(arrow.ok());
      ExpectOutsideReadRefused(arrow);
    }
    // The dataset's own views still answer.
    auto count = ds->QueryRaw("SELECT count(*) AS n FROM data");
    ASSERT_TRUE(count.ok()) << count.status().ToString();
    EXPECT_EQ(count->columns[0].values[0].get<int64_t>(), 3);
  }
}

TEST_F(SqlSandbox, StatementsOtherThanReadsAreRefusedAndRunNothing) {
  for (bool external : {false, true}) {
    for (const std::string& path : {zip_, folder_}) {
      SCOPED_TRACE(path + (external ? " (allow_external_sql)" : ""));
      auto ds = Open(path, external);
      ASSERT_NE(ds, nullptr);
      for (const std::string& sql : NonReads()) {
        SCOPED_TRACE(sql);
        auto raw = ds->QueryRaw(sql);
        ASSERT_FALSE(raw.ok());
        ExpectStatementRefused(raw.status(), sql);
        ArrowArrayStream stream{};
        Status arrow = ds->QueryArrow(sql, &stream);
        ASSERT_FALSE(arrow.ok());
        ExpectStatementRefused(arrow, sql);
        auto view = ds->Sql(sql);
        ASSERT_FALSE(view.ok());
        ExpectStatementRefused(view.status(), sql);
      }
      ExpectNothingWritten();
      // Our id check is still ours, and the views are still the dataset's.
      auto guard = ds->QueryRaw("SELECT taco_checked_id('../secret.txt', false) AS x");
      ASSERT_FALSE(guard.ok()) << "taco_checked_id was replaced";
      EXPECT_NE(guard.status().message().find("refused"), std::string::npos) << guard.status().ToString();
      auto ids = ds->QueryRaw("SELECT id FROM data ORDER BY id");
      ASSERT_TRUE(ids.ok()) << ids.status().ToString();
      ASSERT_EQ(ids->num_rows(), 3u);
      EXPECT_EQ(ids->columns[0].values[0].get<std::string>(), "sample_0");
    }
  }
}

TEST_F(SqlSandbox, ReadStatementsStillWork) {
  auto ds = Open(zip_);
  ASSERT_NE(ds, nullptr);
  for (const char* sql : {
           "WITH t AS (SELECT id FROM data) SELECT count(*) FROM t",
           "FROM level0 SELECT id",
           "DESCRIBE data",
           "SUMMARIZE data",
           "SHOW TABLES",
           "EXPLAIN SELECT id FROM data",
           "(SELECT id FROM data) UNION ALL (SELECT id FROM level0)",
       }) {
    SCOPED_TRACE(sql);
    auto raw = ds->QueryRaw(sql);
    EXPECT_TRUE(raw.ok()) << raw.status().ToString();
  }
  for (const char* sql : {"DESCRIBE data", "SUMMARIZE data", "SHOW TABLES", "SELECT id FROM data"}) {
    SCOPED_TRACE(sql);
    auto view = ds->Sql(sql);
    EXPECT_TRUE(view.ok()) << view.status().ToString();
  }
}

TEST_F(SqlSandbox, AllowExternalSqlJoinsAUsersFile) {
  const std::string join =
      "SELECT d.id, l.label FROM data d JOIN read_csv('" + labels_ + "') l USING (id) ORDER BY d.id";
  for (const std::string& path : {zip_, folder_}) {
    SCOPED_TRACE(path);
    auto ds = Open(path, /*external=*/true);
    ASSERT_NE(ds, nullptr);
    auto view = ds->Sql(join);
    ASSERT_TRUE(view.ok()) << view.status().ToString();
    auto rows = (*view)->DataRaw();
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    ASSERT_EQ(rows->num_rows(), 2u);
    EXPECT_EQ(rows->columns[1].values[1].get<std::string>(), "forest");
    auto raw = ds->QueryRaw(join);
    ASSERT_TRUE(raw.ok()) << raw.status().ToString();
    EXPECT_EQ(raw->num_rows(), 2u);
  }
}

TEST_F(SqlSandbox, ConcatAllowsExternalFilesOnlyWhenEverySourceDoes) {
  const std::string sql = "SELECT * FROM read_csv('" + labels_ + "')";
  const std::string other = Written(FlatTaco("other_"), dir_ / "other.tacozip");
  auto closed = Dataset::OpenList({zip_, other});
  ASSERT_TRUE(closed.ok()) << closed.status().ToString();
  auto refused = (*closed)->Sql(sql);
  ASSERT_FALSE(refused.ok());
  ExpectOutsideReadRefused(refused.status());
  auto count = (*closed)->RowCount();
  ASSERT_TRUE(count.ok()) << count.status().ToString();
  EXPECT_EQ(*count, 6);

  OpenOptions options;
  options.allow_external_sql = true;
  auto open = Dataset::OpenList({zip_, other}, options);
  ASSERT_TRUE(open.ok()) << open.status().ToString();
  auto allowed = (*open)->QueryRaw(sql);
  ASSERT_TRUE(allowed.ok()) << allowed.status().ToString();
  EXPECT_EQ(allowed->num_rows(), 2u);
  auto copy = (*open)->QueryRaw("COPY (SELECT 1 AS a) TO '" + dir_.path() + "/copied.csv'");
  EXPECT_FALSE(copy.ok());
  ExpectNothingWritten();
}

// ---- CLI ------------------------------------------------------------------------------

TEST_F(SqlSandbox, CliRefusesReadsOutsideTheDataset) {
  for (const std::string& path : {zip_, folder_}) {
    SCOPED_TRACE(path);
    const std::string q = ShellQuote(path);
    for (const std::string& sql : OutsideReads()) {
      SCOPED_TRACE(sql);
      CommandResult r = RunTaco("sql " + q + " " + ShellQuote(sql));
      testing::ExpectOneLineError(r, "--allow-external-sql");
      EXPECT_NE(r.err.find("refused"), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find("TOP-SECRET"), std::string::npos) << r.err;
    }
    const std::string read_csv = ShellQuote("SELECT d.* FROM data d JOIN read_csv('" + labels_ + "') l USING (id)");
    testing::ExpectOneLineError(RunTaco("filter " + q + " --sql " + read_csv), "--allow-external-sql");
    testing::ExpectOneLineError(RunTaco("files " + q + " --files-sql " + read_csv), "--allow-external-sql");
    const std::string out = dir_ / "exported.tacozip";
    testing::ExpectOneLineError(RunTaco("export " + q + " " + ShellQuote(out) + " --sql " + read_csv),
                                "--allow-external-sql");
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST_F(SqlSandbox, CliRefusesStatementsOtherThanReads) {
  for (const char* global : {"", "--allow-external-sql "}) {
    for (const std::string& path : {zip_, folder_}) {
      SCOPED_TRACE(path + " " + global);
      for (const std::string& sql : NonReads()) {
        SCOPED_TRACE(sql);
        CommandResult r = RunTaco(std::string(global) + "sql " + ShellQuote(path) + " " + ShellQuote(sql));
        testing::ExpectOneLineError(r, "refused: " + sql.substr(0, sql.find(' ')));
      }
      ExpectNothingWritten();
    }
  }
}

TEST_F(SqlSandbox, CliAllowExternalSqlJoinsAUsersFile) {
  const std::string join =
      ShellQuote("SELECT d.id, l.label FROM data d JOIN read_csv('" + labels_ + "') l USING (id) ORDER BY d.id");
  for (const std::string& path : {zip_, folder_}) {
    SCOPED_TRACE(path);
    CommandResult r = RunTaco("--allow-external-sql sql " + ShellQuote(path) + " " + join + " --format csv");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "id,label\nsample_0,TOP-SECRET\nsample_2,forest\n");
    EXPECT_EQ(r.err, "");
    // After the command word too (a global option).
    CommandResult after = RunTaco("sql --allow-external-sql " + ShellQuote(path) + " " + join + " --format csv");
    EXPECT_EQ(after.exit_code, 0) << after.err;
    EXPECT_EQ(after.out, r.out);
    CommandResult filtered = RunTaco(
        "--allow-external-sql filter " + ShellQuote(path) + " --sql " +
        ShellQuote("SELECT d.* FROM data d JOIN read_csv('" + labels_ + "') l USING (id) WHERE l.label = 'forest'") +
        " --format csv");
    EXPECT_EQ(filtered.exit_code, 0) << filtered.err;
    EXPECT_NE(filtered.out.find("sample_2"), std::string::npos) << filtered.out;
    EXPECT_EQ(filtered.out.find("sample_0"), std::string::npos) << filtered.out;
  }
}

}  // namespace
}  // namespace taco::sectest
