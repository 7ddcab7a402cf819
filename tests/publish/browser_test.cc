// The HTML page in a real browser (headless Debian Chromium driven by playwright-core,
// tests/publish/browser/check_page.mjs): zero network requests, no console errors, the title,
// extent numbers, level counts and field names visible, a <script> in the description shown as
// text. Also the 10-million-sample case: bounded page size and thinned centroids.
#include <gtest/gtest.h>

#include <filesystem>

#include "publish/model.h"
#include "publish_test_util.h"
#include "support/paths.h"
#include "table/engine.h"
#include "taco/publish.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

// Runs check_page.mjs; a missing browser or node module is a failure (scripts/bootstrap.sh
// installs both), not a skip.
testing::CommandResult CheckPage(const std::string& page, const json& expect, const std::string& dir) {
  std::string browser_dir = publishtest::PublishDir() + "/browser";
  EXPECT_TRUE(fs::exists(browser_dir + "/node_modules/playwright-core"))
      << "run scripts/bootstrap.sh (npm ci in tests/publish/browser)";
  WriteFile(dir + "/expect.json", expect.dump());
  return testing::RunCommand("node " + testing::ShellQuote(browser_dir + "/check_page.mjs") + " " +
                             testing::ShellQuote(page) + " " + testing::ShellQuote(dir + "/expect.json"));
}

TEST(PublishBrowser, NestedFixturePageInChromium) {
  TempDir dir;
  fs::copy(testing::UpstreamFixtures() + "/folder/nested", dir / "nested", fs::copy_options::recursive);
  publishtest::PatchFolderCollection(dir / "nested",
                                     {{"description",
                                       "Nested *test* fixture.\n\n- first item\n- second "
                                       "item\n\n<script>alert('pwned')</script>\n\n```\ncode block\n```"}});
  PublishOptions options = publishtest::FullOptions();
  options.only = {PublishOutput::kHtml};
  auto r = Publish(dir / "nested", dir / "pub", options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  json expect = {{"title", "test_dataset"},
                 {"texts",
                  {"test_dataset", "[2.35, -33.85, 151.2, 52.5]", "2023-01-01T00:00:00Z", "0\t3\t0\t0\t3",
                   "1\t9\t0\t9\t0", "istac:geometry", "istac:time_start", "region", "cloud_cover", "geotiff:stats",
                   "location", "<script>alert('pwned')</script>", "first item", "second item", "code block",
                   "Doe, Jane", "10.5072/taco-test", "@misc{test_dataset_2026,"}},
                 {"no_texts", {"None", "\u2022 first item - second item"}}};
  auto check = CheckPage(dir / "pub/index.html", expect, dir.path());
  EXPECT_EQ(check.exit_code, 0) << check.err << check.out;

  // The checker itself fails on a page that loads something or runs a script.
  WriteFile(dir / "bad.html",
            "<!DOCTYPE html><html><head><title>test_dataset</title></head><body>"
            "<img src=\"http://127.0.0.1:9/x.png\"><script>console.error('boom')</script></body></html>");
  auto bad = CheckPage(dir / "bad.html", {{"title", "test_dataset"}, {"texts", {"never shown"}}}, dir.path());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("network request: http://127.0.0.1:9/x.png"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("executable <script>"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("not visible: \"never shown\""), std::string::npos) << bad.err;
}

// A FOLDER dataset with 10,000,000 FILE rows (level0.parquet written by DuckDB directly; no
// DATA files): the page stays small, the map gets at most max_map_points centroids.
TEST(PublishScale, TenMillionSamples) {
  TempDir dir;
  const std::string root = dir / "big";
  fs::create_directories(root + "/METADATA");
  auto engine = table::Engine::Open();
  ASSERT_TRUE(engine.ok());
  // 500 distinct centroids, joined onto the rows (a small table; no per-row list building).
  std::string values;
  for (int k = 0; k < 500; ++k) {
    std::string wkb = publishtest::WkbPoint(-179.0 + 0.717 * k, -60.0 + 0.27 * k);
    std::string hex;
    for (unsigned char c : wkb) {
      const char* d = "0123456789abcdef";
      hex += d[c >> 4];
      hex += d[c & 15];
    }
    if (k) values += ',';
    values.append("(").append(std::to_string(k)).append(", from_hex('").append(hex).append("'))");
  }
  Status st = (*engine)->Execute("CREATE TABLE pts AS SELECT * FROM (VALUES " + values + ") v(k, wkb)");
  ASSERT_TRUE(st.ok()) << st.ToString();
  st = (*engine)->Execute(
      "COPY (SELECT 'tile_' || i AS id, 'FILE' AS type, pts.wkb AS \"stac:centroid\", TIMESTAMP '2015-01-01' + "
      "to_days((i % 3650)::INTEGER) AS \"stac:time_start\", CASE WHEN i % 10 = 0 THEN 'test' ELSE 'train' END AS "
      "split, "
      "i AS \"internal:current_id\", i AS \"internal:parent_id\" FROM range(10000000) t(i) JOIN pts ON pts.k = i % "
      "500) TO '" +
      root + "/METADATA/level0.parquet' (FORMAT parquet, COMPRESSION zstd)");
  ASSERT_TRUE(st.ok()) << st.ToString();
  json collection = {
      {"id", "big"},
      {"dataset_version", "1.0.0"},
      {"description", "Ten million samples."},
      {"licenses", {"CC0-1.0"}},
      {"providers", {{{"name", "Scale Lab"}, {"roles", {"host"}}}}},
      {"tasks", {"classification"}},
      {"extent",
       {{"spatial", {-179.0, -60.0, 179.0, 75.0}}, {"temporal", {"2015-01-01T00:00:00Z", "2024-12-30T00:00:00Z"}}}},
      {"taco:pit_schema", {{"root", {{"n", 10000000}, {"type", "FILE"}}}, {"hierarchy", json::object()}}},
      {"taco:field_schema",
       {{"level0",
         {{"id", "string", ""},
          {"type", "string", ""},
          {"stac:centroid", "binary", ""},
          {"stac:time_start", "timestamp[us]", ""},
          {"split", "string", ""},
          {"internal:current_id", "int64", ""},
          {"internal:parent_id", "int64", ""}}}}}};
  WriteFile(root + "/COLLECTION.json", collection.dump(4));

  PublishOptions options = publishtest::FullOptions();
  options.only = {PublishOutput::kHtml, PublishOutput::kStac, PublishOutput::kHuggingFace};
  auto model = publish::BuildModel(root, options);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ(model->samples(), 10000000u);
  EXPECT_EQ(model->centroid_total, 10000000u);
  EXPECT_LE(model->centroids.size(), options.max_map_points);
  EXPECT_GE(model->centroids.size(), options.max_map_points * 9 / 10);
  EXPECT_EQ(model->histogram_unit, "year");
  ASSERT_EQ(model->splits.size(), 2u);
  EXPECT_EQ(model->splits[0].count, 9000000u);

  auto r = Publish(root, dir / "pub", options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::string html = ReadFile(dir / "pub/index.html");
  EXPECT_LT(html.size(), 300u * 1024u) << "page size " << html.size();
  EXPECT_NE(ReadFile(dir / "pub/README.md").find("- \"10M<n<100M\""), std::string::npos);
  auto check = CheckPage(
      dir / "pub/index.html",
      {{"title", "big"}, {"texts", {"10,000,000", "[-179, -60, 179, 75]", "0\t10,000,000\t0\t10,000,000\t0"}}},
      dir.path());
  EXPECT_EQ(check.exit_code, 0) << check.err << check.out;
}

}  // namespace
}  // namespace taco
