// RewriteTableNames: `data`/`data_raw` rewritten as SQL identifiers only (FORMAT §10.3).
#include "read/sql_rewrite.h"

#include <gtest/gtest.h>

namespace taco::read {
namespace {

std::string Rewrite(const std::string& sql) { return RewriteTableNames(sql, {{"data", "V"}, {"data_raw", "R"}}); }

TEST(SqlRewrite, AnyCaseAndSpacingAfterFromAndJoin) {
  EXPECT_EQ(Rewrite("SELECT * FROM data"), "SELECT * FROM V AS data");
  EXPECT_EQ(Rewrite("select id from DATA order by 1"), "select id from V AS DATA order by 1");
  EXPECT_EQ(Rewrite("SELECT * from\n\t  Data"), "SELECT * from\n\t  V AS Data");
  EXPECT_EQ(Rewrite("SELECT * FROM level1 l JOIN data d ON l.x = d.y"), "SELECT * FROM level1 l JOIN V d ON l.x = d.y");
  EXPECT_EQ(Rewrite("SELECT * FROM /* c */ data"), "SELECT * FROM /* c */ V AS data");
  EXPECT_EQ(Rewrite("SELECT * FROM -- c\ndata"), "SELECT * FROM -- c\nV AS data");
}

TEST(SqlRewrite, QuotedIdentifiers) {
  EXPECT_EQ(Rewrite("SELECT * FROM \"data\""), "SELECT * FROM V AS \"data\"");
  EXPECT_EQ(Rewrite("SELECT * FROM \"DATA\" WHERE 1=1"), "SELECT * FROM V AS \"DATA\" WHERE 1=1");
  EXPECT_EQ(Rewrite("SELECT * FROM \"da\"\"ta\""), "SELECT * FROM \"da\"\"ta\"");
}

TEST(SqlRewrite, AliasesKept) {
  EXPECT_EQ(Rewrite("SELECT d.id FROM data AS d"), "SELECT d.id FROM V AS d");
  EXPECT_EQ(Rewrite("SELECT d.id FROM data d WHERE d.id='x'"), "SELECT d.id FROM V d WHERE d.id='x'");
  EXPECT_EQ(Rewrite("SELECT data.id FROM data WHERE data.id = 'x'"),
            "SELECT data.id FROM V AS data WHERE data.id = 'x'");
}

TEST(SqlRewrite, NeverInsideLiteralsCommentsOrOtherIdentifiers) {
  EXPECT_EQ(Rewrite("SELECT 'FROM data' FROM level0"), "SELECT 'FROM data' FROM level0");
  EXPECT_EQ(Rewrite("SELECT 'it''s FROM data' AS x FROM level0"), "SELECT 'it''s FROM data' AS x FROM level0");
  EXPECT_EQ(Rewrite("SELECT $$FROM data$$ FROM level0"), "SELECT $$FROM data$$ FROM level0");
  EXPECT_EQ(Rewrite("SELECT 1 FROM level0 -- FROM data"), "SELECT 1 FROM level0 -- FROM data");
  EXPECT_EQ(Rewrite("SELECT 1 FROM mydata"), "SELECT 1 FROM mydata");
  EXPECT_EQ(Rewrite("SELECT 1 FROM data2"), "SELECT 1 FROM data2");
  EXPECT_EQ(Rewrite("SELECT 1 FROM main.data"), "SELECT 1 FROM main.data");
  EXPECT_EQ(Rewrite("SELECT data FROM level0"), "SELECT data FROM level0");
  EXPECT_EQ(Rewrite("SELECT t.data FROM level0 t"), "SELECT t.data FROM level0 t");
}

TEST(SqlRewrite, DataRawIsItsOwnIdentifier) {
  EXPECT_EQ(Rewrite("SELECT * FROM data_raw"), "SELECT * FROM R AS data_raw");
  EXPECT_EQ(RewriteTableNames("SELECT * FROM data_raw", {{"data", "V"}}), "SELECT * FROM data_raw");
}

TEST(SqlRewrite, CommaListsAndSubqueries) {
  EXPECT_EQ(Rewrite("SELECT * FROM level1 l, data WHERE 1"), "SELECT * FROM level1 l, V AS data WHERE 1");
  EXPECT_EQ(Rewrite("SELECT a, data FROM level0"), "SELECT a, data FROM level0");
  EXPECT_EQ(Rewrite("SELECT * FROM level0 WHERE id IN (SELECT id FROM data)"),
            "SELECT * FROM level0 WHERE id IN (SELECT id FROM V AS data)");
  EXPECT_EQ(Rewrite("SELECT f(a, data) FROM level0"), "SELECT f(a, data) FROM level0");
  EXPECT_EQ(Rewrite("FROM data SELECT id"), "FROM V AS data SELECT id");
}

TEST(SqlRewrite, UnterminatedInputIsCopied) {
  EXPECT_EQ(Rewrite("SELECT 'FROM data"), "SELECT 'FROM data");
  EXPECT_EQ(Rewrite("SELECT 1 /* FROM data"), "SELECT 1 /* FROM data");
}

}  // namespace
}  // namespace taco::read
