// Table output for people (fits the terminal, never cuts ids or GDAL paths, --no-trunc,
// --limit, --columns, WKB as WKT), the SQL WKB functions, SQL statements (errors show the
// user's query, DESCRIBE/SHOW TABLES/SUMMARIZE, one statement only), `info` fields, and
// sql/filter/export over several datasets.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

std::string Flat() { return ShellQuote(UpstreamFixtures() + "/zip/flat/flat.tacozip"); }

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Display width of a UTF-8 line.
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

TEST(TableOutput, FitsTheTerminalWidth) {
  const std::string q = " 'select id, \"istac:geometry\" as g, location, cloud_cover from data order by id'";
  CommandResult r = RunCommand("COLUMNS=60 " + ShellQuote(TACO_CLI_PATH) + " sql " + Flat() + q);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 7u) << r.out;
  for (const auto& line : lines) EXPECT_LE(Width(line), 60u) << line;
  EXPECT_EQ(lines[2].rfind("sample_0  POLYGON ((", 0), 0u) << lines[2];  // WKB shown as WKT, cut
  EXPECT_NE(lines[2].find("..."), std::string::npos) << lines[2];
  // --no-trunc: the whole WKT.
  CommandResult full = RunCommand("COLUMNS=60 " + ShellQuote(TACO_CLI_PATH) + " sql --no-trunc " + Flat() + q);
  const auto full_lines = Lines(full.out);
  ASSERT_EQ(full_lines.size(), 7u) << full.out << full.err;
  EXPECT_EQ(full_lines[2].find("..."), std::string::npos) << full.out;
  EXPECT_NE(full_lines[2].find("))"), std::string::npos) << full.out;
  // Machine formats keep the bytes.
  CommandResult csv = RunTaco("sql " + Flat() + q + " --format csv");
  EXPECT_NE(csv.out.find(",0x0103000000"), std::string::npos) << csv.out;
}

TEST(TableOutput, NeverCutsIdsOrGdalPaths) {
  CommandResult r = RunCommand("COLUMNS=30 " + ShellQuote(TACO_CLI_PATH) + " sql " + Flat() +
                               " 'select id, \"internal:gdal_vsi\", location from data order by id'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string path = UpstreamFixtures() + "/zip/flat/flat.tacozip";
  EXPECT_NE(r.out.find("/vsisubfile/200_16," + fs::canonical(path).string()), std::string::npos) << r.out;
  // Without a terminal (a pipe), long cells of other columns are cut at 40, paths never.
  CommandResult piped = RunTaco("sql " + Flat() + " 'select id, \"internal:gdal_vsi\" from data'");
  EXPECT_NE(piped.out.find(fs::canonical(path).string()), std::string::npos) << piped.out;
}

TEST(TableOutput, LimitAndColumns) {
  CommandResult r = RunTaco("sql " + Flat() + " 'select * from data order by id' --limit 2 --columns id,location");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "id        location\n"
            "--------  --------\n"
            "sample_0  valencia\n"
            "sample_1  paris\n");
  EXPECT_EQ(r.err, "(2 of 5 rows shown: --limit 2)\n");
  CommandResult csv = RunTaco("filter " + Flat() + " --columns location,id --limit 1 --format csv");
  EXPECT_EQ(csv.out, "location,id\nvalencia,sample_0\n");
  CommandResult bad = RunTaco("sql " + Flat() + " 'select id from data' --columns nope");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "taco: --columns: no column 'nope' (the columns are: id)\n");
  CommandResult ls = RunTaco("ls " + Flat() + " --columns id --limit 1");
  EXPECT_EQ(ls.out, "id\n--------\nsample_0\n");
}

TEST(SqlFunctions, WkbAsTextAndBbox) {
  CommandResult r =
      RunTaco("sql " + Flat() +
              " \"select taco_wkb_as_text(\\\"istac:centroid\\\") as t, ST_AsText(\\\"istac:centroid\\\") "
              "as s, taco_wkb_bbox(\\\"istac:centroid\\\").xmin as x, taco_wkb_bbox(\\\"istac:geometry\\\")"
              ".ymax > taco_wkb_bbox(\\\"istac:geometry\\\").ymin as tall from data where id = 'sample_0'\""
              " --format csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "t,s,x,tall\nPOINT (-0.35 39.45),POINT (-0.35 39.45),-0.35,true\n");
  CommandResult bad = RunTaco("sql " + Flat() + " \"select taco_wkb_as_text('\\\\x01'::BLOB)\"");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("taco_wkb_as_text: WKB: truncated"), std::string::npos) << bad.err;
}

TEST(SqlStatements, ErrorsShowTheUsersQuery) {
  CommandResult r = RunTaco("sql " + Flat() + " 'select nope from data'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("SQL \"select nope from data\": "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("CREATE TEMP VIEW"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("view_"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(SqlStatements, DescribeShowTablesSummarize) {
  CommandResult d = RunTaco("sql " + Flat() + " 'DESCRIBE data' --columns column_name,column_type --format csv");
  EXPECT_EQ(d.exit_code, 0) << d.err;
  EXPECT_EQ(d.out.rfind("column_name,column_type\nid,VARCHAR\ntype,VARCHAR\nistac:geometry,BLOB\n", 0), 0u) << d.out;
  EXPECT_NE(d.out.find("internal:gdal_vsi,VARCHAR\n"), std::string::npos) << d.out;
  EXPECT_EQ(d.out.find("internal:offset"), std::string::npos) << d.out;
  CommandResult raw = RunTaco("sql " + Flat() + " 'describe data_raw;' --format csv");
  EXPECT_NE(raw.out.find("internal:offset"), std::string::npos) << raw.out;
  CommandResult q = RunTaco("sql " + Flat() +
                            " 'DESCRIBE SELECT id, cloud_cover FROM data' --format csv "
                            "--columns column_name,column_type");
  EXPECT_EQ(q.out, "column_name,column_type\nid,VARCHAR\ncloud_cover,DOUBLE\n") << q.err;
  CommandResult t = RunTaco("sql " + Flat() + " 'SHOW TABLES' --format csv --columns name");
  EXPECT_EQ(t.out, "name\ndata\ndata_raw\nlevel0\n") << t.err;
  CommandResult s = RunTaco("sql " + Flat() + " 'SUMMARIZE data' --format json");
  EXPECT_EQ(s.exit_code, 0) << s.err;
  auto j = nlohmann::json::parse(s.out);
  bool found = false;
  for (const auto& row : j) {
    if (row["column_name"] == "cloud_cover") {
      found = true;
      EXPECT_EQ(row["count"], 5);
    }
  }
  EXPECT_TRUE(found) << s.out;
}

TEST(SqlStatements, ASecondStatementIsAnError) {
  CommandResult r = RunTaco("sql " + Flat() + " 'select 1 as a; select 2 as b' --format csv");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("2 statements, but one query is run at a time (the second is \"SELECT 2 AS b\")"),
            std::string::npos)
      << r.err;
  // A ';' inside a string or after the only statement is fine.
  CommandResult ok = RunTaco("sql " + Flat() + " \"select 'a;b' as x;\" --format csv");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "x\na;b\n");
}

TEST(InfoOutput, FieldSchemaProvidersCurators) {
  TempDir tmp;
  fs::copy(UpstreamFixtures() + "/folder/flat", tmp / "flat", fs::copy_options::recursive);
  auto c = nlohmann::ordered_json::parse(ReadFile(tmp / "flat/COLLECTION.json"));
  c["curators"] = {{{"name", "Ana"}, {"organization", "Lab"}, {"email", "ana@lab.org"}, {"role", "maintainer"}}};
  WriteFile(tmp / "flat/COLLECTION.json", c.dump(4));
  CommandResult j = RunTaco("info --json " + ShellQuote(tmp / "flat"));
  ASSERT_EQ(j.exit_code, 0) << j.err;
  auto info = nlohmann::json::parse(j.out);
  ASSERT_TRUE(info["field_schema"].is_object()) << j.out;
  EXPECT_EQ(info["field_schema"]["level0"][0][0], "id");
  EXPECT_EQ(info["collection"]["providers"][0]["name"], "Test");
  EXPECT_EQ(info["collection"]["curators"][0]["name"], "Ana");
  CommandResult text = RunTaco("info " + ShellQuote(tmp / "flat"));
  EXPECT_NE(text.out.find("\nproviders:     Test\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\ncurators:      Ana (Lab, ana@lab.org, maintainer)\n"), std::string::npos) << text.out;
  // Column descriptions from taco:field_schema beside the types.
  EXPECT_NE(text.out.find("Unique sample identifier within parent scope."), std::string::npos) << text.out;
}

// Two small datasets with distinct ids, as ZIPs.
struct TwoDatasets {
  TempDir tmp;
  std::string a = tmp / "a.tacozip", b = tmp / "b.tacozip";
  TwoDatasets() {
    WriteFile(tmp / "c.json", R"({"id": "m", "dataset_version": "1", "description": "d", "licenses": ["x"],
      "providers": [{"name": "t"}], "tasks": ["other"]})");
    for (const auto& [dir, ids] :
         {std::pair<std::string, std::vector<std::string>>{"sa", {"a1", "a2"}}, {"sb", {"b1", "b2", "b3"}}}) {
      fs::create_directories(tmp / dir);
      for (const auto& id : ids) WriteFile(tmp / (dir + "/" + id), "bytes " + id);
    }
    for (const auto& [dir, out] : {std::pair<std::string, std::string>{"sa", a}, {"sb", b}}) {
      CommandResult r = RunTaco("-q create " + ShellQuote(tmp / dir) + " " + ShellQuote(out) + " --collection " +
                                ShellQuote(tmp / "c.json"));
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
  }
};

TEST(SeveralDatasets, SqlFilterExport) {
  TwoDatasets d;
  const std::string both = ShellQuote(d.a) + " " + ShellQuote(d.b);
  CommandResult sql = RunTaco("sql " + both + " 'select id from data order by id' --format csv");
  EXPECT_EQ(sql.exit_code, 0) << sql.err;
  EXPECT_EQ(sql.out, "id\na1\na2\nb1\nb2\nb3\n");
  CommandResult filter = RunTaco("filter " + both +
                                 " --sql \"select * from data where id like '%2'\" --format csv "
                                 "--columns id");
  EXPECT_EQ(filter.exit_code, 0) << filter.err;
  EXPECT_EQ(filter.out, "id\na2\nb2\n");
  CommandResult exp = RunTaco("-q export " + both + " " + ShellQuote(d.tmp / "out.tacozip") +
                              " --sql \"select * from data where id <> 'b3'\"");
  EXPECT_EQ(exp.exit_code, 0) << exp.err;
  CommandResult check = RunTaco("sql " + ShellQuote(d.tmp / "out.tacozip") +
                                " 'select id from data order by id' "
                                "--format csv");
  EXPECT_EQ(check.out, "id\na1\na2\nb1\nb2\n") << check.err;
  CommandResult bytes = RunTaco("cat " + ShellQuote(d.tmp / "out.tacozip") + " b2");
  EXPECT_EQ(bytes.out, "bytes b2");
}

}  // namespace
}  // namespace taco::testing
