// `taco create` refusing what its own reader could not open or would get wrong: output names
// of another format, ZIP-only options on a FOLDER, metadata that misses samples, projected
// coordinates where WGS84 degrees belong.
#include <cstring>
#include <filesystem>

#include <gtest/gtest.h>

#include "support/paths.h"
#include "table/engine.h"
#include "taco/value.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCollection = R"({"id": "rules", "dataset_version": "1", "description": "d",
  "licenses": ["CC0-1.0"], "providers": [{"name": "tests"}], "tasks": ["classification"]})";

// ISO little-endian WKB point.
std::string WkbPoint(double x, double y) {
  std::string out(21, '\0');
  out[0] = 1;
  out[1] = 1;
  std::memcpy(&out[5], &x, 8);
  std::memcpy(&out[13], &y, 8);
  return out;
}

// SRC with tile_a, tile_b, tile_c (FOLDERs of one FILE each) and collection.json.
struct Source {
  TempDir dir;
  std::string src = dir / "src";
  Source() {
    for (std::string tile : {"tile_a", "tile_b", "tile_c"}) {
      fs::create_directories(src + "/" + tile);
      WriteFile(src + "/" + tile + "/image.tif", "bytes of " + tile);
    }
    WriteFile(dir / "collection.json", kCollection);
  }
  CommandResult Create(const std::string& out, const std::string& extra = "") const {
    return RunTaco("create " + ShellQuote(src) + " " + ShellQuote(out) + " --collection " +
                   ShellQuote(dir / "collection.json") + " " + extra);
  }
};

TEST(WriterRules, RefusesOutputNamesItsReaderCannotOpen) {
  Source s;
  struct Case {
    std::string out, extra, why;
  };
  for (const Case& c : {Case{"x.tacocat", "", "a FOLDER dataset may not be named *.tacocat or __TACOCAT__"},
                        Case{"x.zip", "--format folder", "may not be named *.zip or *.tacozip"},
                        Case{"x.TACOZIP", "--format folder", "may not be named *.zip or *.tacozip"},
                        Case{"__TACOCAT__", "", "may not be named *.tacocat or __TACOCAT__"},
                        Case{"y.tacocat", "--format zip", "a ZIP dataset may not be named *.tacocat"}}) {
    SCOPED_TRACE(c.out + " " + c.extra);
    const std::string out = s.dir / c.out;
    CommandResult r = s.Create(out, c.extra);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(r.err.rfind("taco: " + out + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.why), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
  // What the names allow is written and opens.
  for (const std::string& ok : {std::string("plain"), std::string("x.tacozip")}) {
    CommandResult r = s.Create(s.dir / ok);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(RunTaco("info " + ShellQuote(s.dir / ok)).exit_code, 0) << ok;
  }
}

TEST(WriterRules, ExportRefusesTheSameNames) {
  Source s;
  ASSERT_EQ(s.Create(s.dir / "ds.tacozip").exit_code, 0);
  CommandResult r =
      RunTaco("export " + ShellQuote(s.dir / "ds.tacozip") + " " + ShellQuote(s.dir / "sub.zip") + " --format folder");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("may not be named *.zip or *.tacozip"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(s.dir / "sub.zip"));
}

TEST(WriterRules, WarnsWhenZipOnlyOptionsAreIgnored) {
  Source s;
  CommandResult r = s.Create(s.dir / "folder_out", "--split-size 1MB --group-by region --no-consolidate");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* option : {"--split-size", "--group-by", "--no-consolidate"}) {
    EXPECT_NE(r.err.find(std::string("taco: warning: ") + option + " is ignored: it applies to ZIP outputs"),
              std::string::npos)
        << r.err;
  }
  // No warning for a ZIP, nor for the default --split-size.
  CommandResult zip = s.Create(s.dir / "z.tacozip", "--split-size 1MB");
  EXPECT_EQ(zip.exit_code, 0) << zip.err;
  EXPECT_EQ(zip.err.find("warning"), std::string::npos) << zip.err;
  CommandResult plain = s.Create(s.dir / "folder_two");
  EXPECT_EQ(plain.err, "");
}

TEST(WriterRules, ReportsMetadataRowsAndSamplesThatDoNotMatch) {
  Source s;
  WriteFile(s.dir / "meta.csv", "path,cloud\ntile_a,1\ntile_b,2\n");
  CommandResult warn = s.Create(s.dir / "w.tacozip", "--metadata " + ShellQuote(s.dir / "meta.csv"));
  EXPECT_EQ(warn.exit_code, 0) << warn.err;
  EXPECT_EQ(warn.err,
            "taco: warning: 1 of 3 samples of level 0 have no metadata row (their columns are null): 'tile_c'\n");
  CommandResult strict =
      s.Create(s.dir / "s.tacozip", "--require-metadata --metadata " + ShellQuote(s.dir / "meta.csv"));
  EXPECT_EQ(strict.exit_code, 2) << strict.err;
  EXPECT_NE(strict.err.find("1 of 3 samples of level 0 have no metadata row"), std::string::npos) << strict.err;
  EXPECT_NE(strict.err.find("(--require-metadata)"), std::string::npos) << strict.err;
  EXPECT_FALSE(fs::exists(s.dir / "s.tacozip"));

  // Rows that match no sample: all of them are named, in one error.
  WriteFile(s.dir / "bad.csv", "path,cloud\ntile_a,1\ntile_x,2\ntile_y,3\ntile_b/nope.tif,4\n");
  CommandResult bad = s.Create(s.dir / "b.tacozip", "--metadata " + ShellQuote(s.dir / "bad.csv"));
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_EQ(bad.err, "taco: " + s.dir / "bad.csv" + ":3: path 'tile_x' matches no sample under " + s.src +
                         " (and 2 more: " + s.dir / "bad.csv" + ":4 'tile_y', " + s.dir / "bad.csv" +
                         ":5 'tile_b/nope.tif')\n");
}

TEST(WriterRules, ProjectedCoordinatesAreNamedAsSuch) {
  Source s;
  WriteFile(s.dir / "projected.json",
            R"({"id": "rules", "dataset_version": "1", "description": "d", "licenses": ["CC0-1.0"],
                "providers": [{"name": "tests"}], "tasks": ["classification"],
                "extent": {"spatial": [500000, 4000000, 510000, 4010000], "temporal": null}})");
  CommandResult r = RunTaco("create " + ShellQuote(s.src) + " " + ShellQuote(s.dir / "p.tacozip") + " --collection " +
                            ShellQuote(s.dir / "projected.json"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("extent.spatial: longitudes must be within [-180, 180] (got [500000,4000000,510000,4010000]); "
                       "these look like projected coordinates"),
            std::string::npos)
      << r.err;

  // Centroids in metres (a Parquet metadata file): the computed extent says so too.
  Table meta;
  meta.columns.push_back(Column{"path", DataType::String(), {Value("tile_a"), Value("tile_b"), Value("tile_c")}});
  Column centroid{"stac:centroid", DataType::Binary(), {}};
  for (double x : {500000.0, 501000.0, 502000.0}) centroid.values.push_back(Value(Binary{WkbPoint(x, 4000000.0)}));
  meta.columns.push_back(std::move(centroid));
  meta.columns.push_back(
      Column{"stac:time_start", DataType::TimestampUs(), std::vector<Value>(3, Value(TimestampUs{1672531200000000}))});
  auto engine = std::move(table::Engine::Open()).value();
  auto parquet = engine->ToParquet(meta);
  ASSERT_TRUE(parquet.ok()) << parquet.status().ToString();
  WriteFile(s.dir / "centroids.parquet", *parquet);
  CommandResult c = s.Create(s.dir / "c.tacozip", "--metadata " + ShellQuote(s.dir / "centroids.parquet"));
  EXPECT_EQ(c.exit_code, 2) << c.err;
  EXPECT_NE(c.err.find("column 'stac:centroid' row 0: point (500000 4000000) is outside longitude/latitude range; "
                       "it looks like projected coordinates"),
            std::string::npos)
      << c.err;
  EXPECT_FALSE(fs::exists(s.dir / "c.tacozip"));
}

}  // namespace
}  // namespace taco::testing
