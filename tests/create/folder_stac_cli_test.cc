// `taco create` on the common layout "a folder per sample holding image.tif and mask.tif":
// --ext NAME:GLOB targets files (stats on the image, stats-categorical on the mask, one
// geotiff:stats column), STAC/ISTAC fill the FOLDER rows from their files (footprint box,
// centre, times), and --time-column gives samples their time, so that level-0 --bbox and
// --datetime filters and the collection's temporal extent work. Errors name what is wrong.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ext/raster_fixture.h"
#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCollection = R"({"id": "image_mask", "dataset_version": "1.0.0",
  "description": "image and mask per sample", "licenses": ["CC-BY-4.0"],
  "providers": [{"name": "tests"}], "tasks": ["segmentation"]})";

// A GeoTIFF of `bands` bands (cols = rows = 16, 100 m pixels) at (x, y) in UTM `epsg`.
void Raster(const std::string& path, int epsg, double x, double y, int bands, GDALDataType type, int modulo) {
  RasterSpec spec;
  spec.cols = spec.rows = 16;
  spec.type = type;
  spec.epsg = epsg;
  spec.geotransform = {x, 100, 0, y, 0, -100};
  for (int b = 0; b < bands; ++b) {
    std::vector<double> px;
    for (int i = 0; i < 256; ++i) px.push_back((i + b) % modulo);
    spec.bands.push_back(px);
  }
  WriteRaster(path, spec);
}

// tile_a near Madrid (UTM 30N), tile_b near Paris (31N), tile_c near New York (18N); each with
// image.tif (4 bands uint16) and mask.tif (1 band uint8, classes 0..2); a date per tile.
struct ImageMaskTree {
  TempDir dir;
  std::string src = dir / "src";

  ImageMaskTree() {
    struct Tile {
      const char* id;
      int epsg;
      double x, y;
    };
    for (const Tile& t : {Tile{"tile_a", 32630, 440000, 4480000}, Tile{"tile_b", 32631, 450000, 5410000},
                          Tile{"tile_c", 32618, 580000, 4500000}}) {
      fs::create_directories(src + "/" + t.id);
      Raster(src + "/" + t.id + "/image.tif", t.epsg, t.x, t.y, 4, GDT_UInt16, 1000);
      Raster(src + "/" + t.id + "/mask.tif", t.epsg, t.x, t.y, 1, GDT_Byte, 3);
    }
    WriteFile(dir / "collection.json", kCollection);
    WriteFile(dir / "meta.csv",
              "path,date,label\ntile_a,2023-01-10,land\ntile_b,2023-02-10,water\n"
              "tile_c,2023-03-10T12:00:00Z,land\n");
  }

  std::string Create(const std::string& out, const std::string& options) const {
    return "create " + ShellQuote(src) + " " + ShellQuote(out) + " --collection " +
           ShellQuote(dir / "collection.json") + " " + options;
  }
};

std::vector<std::string> Ids(const CommandResult& r) {
  std::vector<std::string> ids;
  if (r.exit_code != 0) return ids;
  for (const auto& row : nlohmann::json::parse(r.out)) ids.push_back(row["id"].get<std::string>());
  return ids;
}

TEST(StacFolderCli, ImageMaskLayoutFiltersOnLevelZeroAndHasATemporalExtent) {
  ImageMaskTree tree;
  const std::string out = tree.dir / "out.tacozip";
  CommandResult r = RunTaco(tree.Create(out, "--metadata " + ShellQuote(tree.dir / "meta.csv") +
                                                 " --ext stac,stats:image.tif,stats-categorical:mask.tif"
                                                 " --time-column date"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string q = ShellQuote(out);

  // One geotiff:stats column on level 1: 4 continuous bands on images, 3 class probabilities on masks.
  r = RunTaco("sql " + q +
              " 'select id, len(\"geotiff:stats\") AS bands, len(\"geotiff:stats\"[1]) AS k from level1 "
              "order by \"internal:parent_id\", id' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = nlohmann::json::parse(r.out);
  ASSERT_EQ(rows.size(), 6u);
  for (const auto& row : rows) {
    const bool image = row["id"] == "image.tif";
    EXPECT_EQ(row["bands"], image ? 4 : 1) << row.dump();
    EXPECT_EQ(row["k"], image ? 9 : 3) << row.dump();
  }
  r = RunTaco("info --json " + q);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto info = nlohmann::json::parse(r.out);
  for (const auto& level : info["levels"]) {
    int stats_columns = 0;
    for (const auto& c : level["columns"]) stats_columns += c[0] == "geotiff:stats" ? 1 : 0;
    EXPECT_EQ(stats_columns, level["level"] == 1 ? 1 : 0) << level.dump();
  }
  // The collection extent: temporal from --time-column, spatial from the FOLDER centroids.
  EXPECT_EQ(info["collection"]["extent"]["temporal"],
            nlohmann::json::parse(R"(["2023-01-10T00:00:00Z", "2023-03-10T12:00:00Z"])"));
  auto spatial = info["collection"]["extent"]["spatial"];
  EXPECT_NEAR(spatial[0].get<double>(), -74.0, 0.2) << spatial.dump();
  EXPECT_NEAR(spatial[2].get<double>(), 2.4, 0.2) << spatial.dump();

  // Level-0 filters, without --level.
  EXPECT_EQ(Ids(RunTaco("filter " + q + " --bbox -5,40,-3,41 --json")), std::vector<std::string>{"tile_a"});
  EXPECT_EQ(Ids(RunTaco("filter " + q + " --bbox -80,35,5,50 --json")),
            (std::vector<std::string>{"tile_a", "tile_b", "tile_c"}));
  EXPECT_EQ(Ids(RunTaco("filter " + q + " --datetime 2023-02 --json")), std::vector<std::string>{"tile_b"});
  EXPECT_EQ(Ids(RunTaco("filter " + q + " --datetime 2023-01-01/2023-02-28 --bbox -80,35,0,50 --json")),
            std::vector<std::string>{"tile_a"});
  // FOLDER rows: centroid and time filled, the per-raster columns null.
  r = RunTaco("sql " + q +
              " 'select id, \"stac:crs\" AS crs, \"stac:geotransform\" AS gt, \"stac:time_start\" AS t from data "
              "order by id' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rows = nlohmann::json::parse(r.out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[0]["crs"].is_null());
  EXPECT_TRUE(rows[0]["gt"].is_null());
  EXPECT_EQ(rows[1]["t"], "2023-02-10T00:00:00");

  // Statistics of one child file under every level-0 row: the images (continuous) and the
  // masks (categorical) of the same tiles are aggregated separately (they share the column).
  r = RunTaco("stats " + q + " --level 1 --file image.tif --band 0,3 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto image_stats = nlohmann::json::parse(r.out);
  EXPECT_EQ(image_stats["samples"], 3) << image_stats.dump();
  ASSERT_TRUE(image_stats["mean"].is_array()) << image_stats.dump();
  EXPECT_EQ(image_stats["mean"].size(), 2u);
  r = RunTaco("stats " + q + " --level 1 --file mask.tif --band 0 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto mask_stats = nlohmann::json::parse(r.out);
  ASSERT_TRUE(mask_stats["categorical"].is_array()) << mask_stats.dump();
  EXPECT_EQ(mask_stats["categorical"].size(), 3u);
  // The two kinds under one parent are refused as mixed, with a pointer to --file.
  r = RunTaco("stats " + q + " --level 1 --id tile_a --band 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("choose one child file with --file"), std::string::npos) << r.err;

  r = RunTaco("validate " + q);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(StacFolderCli, FolderTimesComeFromTheFilesWhenTheFoldersHaveNone) {
  ImageMaskTree tree;
  WriteFile(tree.dir / "files.csv",
            "path,when\ntile_a/image.tif,2023-05-01\ntile_a/mask.tif,2023-05-03\n"
            "tile_b/image.tif,2023-06-01\n");
  const std::string out = tree.dir / "out";
  CommandResult r =
      RunTaco(tree.Create(out, "--metadata " + ShellQuote(tree.dir / "files.csv") + " --ext istac --time-column when"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunTaco("sql " + ShellQuote(out) +
              " 'select id, \"istac:time_start\" AS s, \"istac:time_end\" AS e, \"istac:crs\" AS crs from data "
              "order by id' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = nlohmann::json::parse(r.out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["s"], "2023-05-01T00:00:00");
  EXPECT_EQ(rows[0]["e"], "2023-05-03T00:00:00");
  EXPECT_EQ(rows[0]["crs"], "EPSG:4326");
  EXPECT_EQ(rows[1]["s"], "2023-06-01T00:00:00");
  EXPECT_TRUE(rows[1]["e"].is_null());  // one instant
  EXPECT_TRUE(rows[2]["s"].is_null());
  // istac:geometry of a FOLDER is its lon/lat box (tile_b: lon ~2.318..2.340, centre ~2.329):
  // a box that meets its eastern part, not its centre, finds it on level 0.
  EXPECT_EQ(Ids(RunTaco("filter " + ShellQuote(out) + " --bbox 2.335,48.7,2.345,48.9 --json")),
            std::vector<std::string>{"tile_b"});
  EXPECT_EQ(Ids(RunTaco("filter " + ShellQuote(out) + " --datetime 2023-05-02 --json")),
            std::vector<std::string>{});  // start is 05-01: the filter tests time_start
  r = RunTaco("validate " + ShellQuote(out));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(StacFolderCli, FolderAcrossTheAntimeridianIsOneBoxAcrossIt) {
  TempDir dir;
  // UTM 60N, 300 km east of 177°E (lon ~ -178.4) and UTM 1N, 300 km west of 177°W (~178.5).
  fs::create_directories(dir / "src/tile_x");
  Raster(dir / "src/tile_x/a.tif", 32660, 800000, 6000000, 1, GDT_Byte, 3);
  Raster(dir / "src/tile_x/b.tif", 32601, 200000, 6000000, 1, GDT_Byte, 3);
  fs::create_directories(dir / "src/tile_y");
  Raster(dir / "src/tile_y/a.tif", 32631, 450000, 5410000, 1, GDT_Byte, 3);
  Raster(dir / "src/tile_y/b.tif", 32631, 460000, 5410000, 1, GDT_Byte, 3);
  WriteFile(dir / "collection.json", kCollection);
  const std::string out = dir / "am.tacozip";
  CommandResult r = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(out) + " --collection " +
                            ShellQuote(dir / "collection.json") + " --ext istac");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Both sides of the antimeridian find tile_x; the gap between them (0°) does not.
  EXPECT_EQ(Ids(RunTaco("filter " + ShellQuote(out) + " --bbox 179.5,50,180,60 --json")),
            std::vector<std::string>{"tile_x"});
  EXPECT_EQ(Ids(RunTaco("filter " + ShellQuote(out) + " --bbox -180,50,-179.5,60 --json")),
            std::vector<std::string>{"tile_x"});
  EXPECT_EQ(Ids(RunTaco("filter " + ShellQuote(out) + " --bbox -10,50,10,60 --json")), std::vector<std::string>{});
  r = RunTaco("sql " + ShellQuote(out) + " 'select taco_wkb_as_text(\"istac:centroid\") AS c from data' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string centroid = nlohmann::json::parse(r.out)[0]["c"];
  EXPECT_EQ(centroid.rfind("POINT (-179.9", 0), 0u) << centroid;
  auto info = nlohmann::json::parse(RunTaco("info --json " + ShellQuote(out)).out);
  auto spatial = info["collection"]["extent"]["spatial"];
  EXPECT_GT(spatial[0].get<double>(), spatial[2].get<double>()) << spatial.dump();  // crosses it
  r = RunTaco("validate " + ShellQuote(out));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(StacFolderCli, FilePatternsAndTimeColumnErrorsNameTheProblem) {
  ImageMaskTree tree;
  struct Case {
    std::string options, expected;
  };
  const std::string meta = " --metadata " + ShellQuote(tree.dir / "meta.csv");
  for (const Case& c : std::vector<Case>{
           {"--ext stac,stats:imgae.tif", "'stats:imgae.tif': the pattern 'imgae.tif' matches no FILE sample"},
           {"--ext stats,stats-categorical:mask.tif",
            "matched by both --ext 'stats' and 'stats-categorical:mask.tif', which both give the column "
            "'geotiff:stats'"},
           {"--ext stac,majortom:x.tif", "majortom applies to tortillas, it takes no file pattern"},
           {"--ext stats:", "empty file pattern"},
           {"--ext stac --time-column date", "--time-column 'date': no --metadata column has that name"},
           {meta + " --ext stac --time-column label", "--time-column 'label': sample 'tile_a': 'land' is not an ISO"},
           {meta + " --ext stats --time-column date", "has a time but no stac:/istac: columns"},
       }) {
    const std::string out = tree.dir / "bad.tacozip";
    CommandResult r = RunTaco(tree.Create(out, c.options));
    EXPECT_EQ(r.exit_code, 2) << c.options;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.options << "\n" << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.options;
  }
  // A pattern with '/' is matched against the path under SRC.
  const std::string out = tree.dir / "path.tacozip";
  CommandResult r = RunTaco(tree.Create(out, "--ext 'stats:tile_b/*.tif'"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunTaco("sql " + ShellQuote(out) +
              " 'select count(*) AS n from level1 where \"geotiff:stats\" is not null' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)[0]["n"], 2);
}

}  // namespace
}  // namespace taco::testing
