// A TACOLLECTION.json read as a dataset: `taco sql/filter TACOLLECTION.json` open its parts as
// one (concat), and --bbox/--datetime open only the parts whose taco:sources extents meet
// them (routing), with the same rows as filtering the concat of every part; `-v` says how many
// parts were skipped. Extents across the antimeridian route on both sides; unsafe part
// names are refused.
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ext/raster_fixture.h"
#include "support/paths.h"
#include "support/status_assert.h"
#include "taco/dataset.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

// Three one-tile parts (Madrid, Paris, New York; January, February, March 2023) written by
// `taco create --group-by part`, and their TACOLLECTION.json.
struct ThreeParts {
  TempDir dir;
  std::string collection_json = dir / "parts/TACOLLECTION.json";
  std::vector<std::string> parts;

  ThreeParts() {
    struct Tile {
      const char* id;
      double lon, lat;
    };
    for (const Tile& t : {Tile{"tile_a", -3.7, 40.4}, Tile{"tile_b", 2.35, 48.85}, Tile{"tile_c", -74.0, 40.7}}) {
      fs::create_directories(dir / ("src/" + std::string(t.id)));
      RasterSpec spec;
      spec.geotransform = {t.lon, 0.001, 0, t.lat, 0, -0.001};
      spec.bands = {std::vector<double>(16, 1.0)};
      WriteRaster(dir / ("src/" + std::string(t.id) + "/image.tif"), spec);
    }
    WriteFile(dir / "collection.json", R"({"id": "parts", "dataset_version": "1.0.0", "description": "d",
      "licenses": ["CC0-1.0"], "providers": [{"name": "t"}], "tasks": ["segmentation"]})");
    WriteFile(dir / "meta.csv", "path,part,date\ntile_a,p1,2023-01-10\ntile_b,p2,2023-02-10\ntile_c,p3,2023-03-10\n");
    fs::create_directories(dir / "parts");
    CommandResult r =
        RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(dir / "parts/ds.tacozip") + " --collection " +
                ShellQuote(dir / "collection.json") + " --metadata " + ShellQuote(dir / "meta.csv") +
                " --ext stac --time-column date --group-by part --no-consolidate");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string inputs;
    for (const char* p : {"p1", "p2", "p3"}) {
      parts.push_back(dir / ("parts/ds_" + std::string(p) + ".tacozip"));
      inputs += " " + ShellQuote(parts.back());
    }
    r = RunTaco("tacollection" + inputs + " -o " + ShellQuote(collection_json));
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }

  std::string AllParts() const {
    std::string out;
    for (const std::string& p : parts) out += ShellQuote(p) + " ";
    return out;
  }
};

std::vector<std::string> Ids(const CommandResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> ids;
  if (r.exit_code != 0) return ids;
  for (const auto& row : nlohmann::json::parse(r.out)) ids.push_back(row["id"].get<std::string>());
  return ids;
}

TEST(RouteTacollectionCli, OpensTheConcatOfItsParts) {
  ThreeParts t;
  CommandResult r =
      RunTaco("sql " + ShellQuote(t.collection_json) +
              " 'select id, \"internal:source_path\" IS NOT NULL AS sourced from data_raw order by id' --json");
  EXPECT_EQ(Ids(r), (std::vector<std::string>{"tile_a", "tile_b", "tile_c"}));
  EXPECT_EQ(nlohmann::json::parse(r.out)[0]["sourced"], true);
}

TEST(RouteTacollectionCli, BboxAndDatetimeOpenOnlyThePartsTheyMeet) {
  ThreeParts t;
  const std::string q = ShellQuote(t.collection_json);
  // --bbox around Paris: one part opened, two skipped; same rows as the filter over all parts.
  CommandResult routed = RunTaco("-v filter " + q + " --bbox 2,48,3,49 --json");
  EXPECT_EQ(Ids(routed), std::vector<std::string>{"tile_b"});
  EXPECT_NE(routed.err.find("2 of 3 parts skipped"), std::string::npos) << routed.err;
  EXPECT_EQ(routed.err.find("ds_p1.tacozip"), std::string::npos) << routed.err;  // never opened
  EXPECT_EQ(Ids(RunTaco("filter " + t.AllParts() + "--bbox 2,48,3,49 --json")), std::vector<std::string>{"tile_b"});
  // --datetime February..March: one part skipped.
  routed = RunTaco("-v filter " + q + " --datetime 2023-02/2023-03 --json");
  EXPECT_EQ(Ids(routed), (std::vector<std::string>{"tile_b", "tile_c"}));
  EXPECT_NE(routed.err.find("1 of 3 parts skipped"), std::string::npos) << routed.err;
  EXPECT_EQ(Ids(RunTaco("filter " + t.AllParts() + "--datetime 2023-02/2023-03 --json")),
            (std::vector<std::string>{"tile_b", "tile_c"}));
  // Both: the parts must meet both.
  routed = RunTaco("-v filter " + q + " --bbox -80,30,10,50 --datetime 2023-01 --json");
  EXPECT_EQ(Ids(routed), std::vector<std::string>{"tile_a"});
  EXPECT_NE(routed.err.find("2 of 3 parts skipped"), std::string::npos) << routed.err;
  // Nothing meets: every part skipped, an empty answer.
  routed = RunTaco("-v filter " + q + " --bbox 100,0,110,10 --json");
  EXPECT_EQ(Ids(routed), std::vector<std::string>{});
  EXPECT_NE(routed.err.find("3 of 3 parts skipped"), std::string::npos) << routed.err;
  // taco sql routes the same way, and `data` is the selected rows.
  routed = RunTaco("-v sql " + q + " --bbox 2,48,3,49 'select id from data' --json");
  EXPECT_EQ(Ids(routed), std::vector<std::string>{"tile_b"});
  EXPECT_NE(routed.err.find("2 of 3 parts skipped"), std::string::npos) << routed.err;
}

TEST(RouteTacollectionCli, ExtentsAcrossTheAntimeridianAndUnsafeNames) {
  ThreeParts t;
  auto collection = nlohmann::ordered_json::parse(ReadFile(t.collection_json));
  // Pretend part 1 spans 170°E .. 170°W: a box on either side of the antimeridian meets it.
  collection["taco:sources"]["extents"][0]["spatial"] = {170.0, -10.0, -170.0, 10.0};
  WriteFile(t.collection_json, collection.dump(4));
  for (const std::string box : {"175,-5,179,5", "-179,-5,-175,5"}) {
    CommandResult r = RunTaco("-v filter " + ShellQuote(t.collection_json) + " --bbox " + box + " --json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("2 of 3 parts skipped"), std::string::npos) << box << "\n" << r.err;
    EXPECT_NE(r.err.find("ds_p1.tacozip"), std::string::npos) << box << "\n" << r.err;
  }
  CommandResult r = RunTaco("-v filter " + ShellQuote(t.collection_json) + " --bbox 0,-5,10,5 --json");
  EXPECT_NE(r.err.find("3 of 3 parts skipped"), std::string::npos) << r.err;

  collection["taco:sources"]["files"][1] = "../elsewhere.tacozip";
  WriteFile(t.collection_json, collection.dump(4));
  r = RunTaco("sql " + ShellQuote(t.collection_json) + " 'select 1'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("refused: taco:sources.files entry '../elsewhere.tacozip'"), std::string::npos) << r.err;
  WriteFile(t.collection_json, "{\"id\": \"x\"}");
  r = RunTaco("sql " + ShellQuote(t.collection_json) + " 'select 1'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no taco:sources.files"), std::string::npos) << r.err;
}

// A part without a geometry column (no --ext stac) hides the column from the whole concat
// (intersection): --bbox fails, and the error names that part (it named none before).
TEST(RouteTacollectionCli, BboxNamesThePartsWithoutAGeometryColumn) {
  ThreeParts t;
  fs::create_directories(t.dir / "src_plain/tile_d");
  RasterSpec spec;
  spec.bands = {std::vector<double>(16, 1.0)};
  WriteRaster(t.dir / "src_plain/tile_d/image.tif", spec);
  const std::string plain = t.dir / "parts/plain.tacozip";
  CommandResult r = RunTaco("create " + ShellQuote(t.dir / "src_plain") + " " + ShellQuote(plain) + " --collection " +
                            ShellQuote(t.dir / "collection.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  fs::remove(t.collection_json);
  r = RunTaco("tacollection " + t.AllParts() + ShellQuote(plain) + " -o " + ShellQuote(t.collection_json) +
              " --no-validate");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string q = ShellQuote(t.collection_json);
  EXPECT_EQ(Ids(RunTaco("sql " + q + " 'select id from data order by id' --json")),
            (std::vector<std::string>{"tile_a", "tile_b", "tile_c", "tile_d"}));
  for (const std::string& command :
       {"sql " + q + " 'select id from data' --bbox -180,-90,180,90", "filter " + q + " --bbox -180,-90,180,90",
        "filter " + q + " --bbox -180,-90,180,90 --geometry-col stac:centroid"}) {
    r = RunTaco(command);
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_NE(r.err.find("plain.tacozip"), std::string::npos) << command << "\n" << r.err;
    EXPECT_NE(r.err.find("every part"), std::string::npos) << command << "\n" << r.err;
    EXPECT_EQ(r.err.find("ds_p1.tacozip have"), std::string::npos) << command << "\n" << r.err;
  }
}

// The library operation both fronts use (OpenRouted, issue 25): which parts it opens, what it
// reports, and that it opens nothing else for a path that is not a TACOLLECTION.
TEST(RouteTacollectionCli, OpenRoutedIsTheOneOperationBehindBothFronts) {
  ThreeParts t;
  const std::array<double, 4> madrid = {-4, 40, -3, 41};
  auto routed = OpenRouted({t.collection_json}, madrid, "");
  ASSERT_OK(routed);
  ASSERT_TRUE(routed->routing.has_value());
  EXPECT_EQ(routed->routing->total, 3u);
  EXPECT_EQ(routed->routing->skipped, 2u);
  EXPECT_EQ(routed->opened, std::vector<std::string>{t.parts[0]});
  EXPECT_EQ(*routed->dataset->RowCount(), int64_t{1});

  auto by_time = OpenRouted({t.collection_json}, std::nullopt, "2023-02-01/2023-03-31");
  ASSERT_OK(by_time);
  ASSERT_TRUE(by_time->routing.has_value());
  EXPECT_EQ(by_time->routing->skipped, 1u);
  EXPECT_EQ(by_time->opened, (std::vector<std::string>{t.parts[1], t.parts[2]}));

  // Nothing meets the box: the first part gives the empty selection its columns.
  auto none = OpenRouted({t.collection_json}, std::array<double, 4>{100, -10, 101, -9}, "");
  ASSERT_OK(none);
  EXPECT_EQ(none->routing->skipped, 3u);
  EXPECT_EQ(none->opened, std::vector<std::string>{t.parts[0]});

  // No box, no range: every part, and no routing reported.
  auto all = OpenRouted({t.collection_json}, std::nullopt, "");
  ASSERT_OK(all);
  EXPECT_FALSE(all->routing.has_value());
  EXPECT_EQ(all->opened, t.parts);
  EXPECT_EQ(*all->dataset->RowCount(), int64_t{3});

  // Not a TACOLLECTION: the paths as given, never routed.
  auto plain = OpenRouted({t.parts[1]}, madrid, "");
  ASSERT_OK(plain);
  EXPECT_FALSE(plain->routing.has_value());
  EXPECT_EQ(plain->opened, std::vector<std::string>{t.parts[1]});
  EXPECT_EQ(*plain->dataset->RowCount(), int64_t{1});
}

}  // namespace
}  // namespace taco::testing
