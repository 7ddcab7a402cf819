// `taco create SRC OUT` end to end: a 3-level tree (ids out of sorted order, uneven
// children padded with --pad-to, extension columns at every level from CSV and JSON Lines)
// written as ZIP and FOLDER, read back with `taco info --json` and Dataset::QueryRaw; and
// the bad inputs that must exit 2 with one line and leave nothing behind.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ext/raster_fixture.h"
#include "support/paths.h"
#include "taco/dataset.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCollection = R"({"id": "three_levels", "dataset_version": "0.1.0",
  "description": "tiles, sensors, bands", "licenses": ["CC-BY-4.0"],
  "providers": [{"name": "tests", "roles": ["producer"]}], "tasks": ["segmentation"]})";

void Put(const std::string& path, const std::string& bytes) {
  fs::create_directories(fs::path(path).parent_path());
  WriteFile(path, bytes);
}

// Distinct bytes per file, so that a wrong offset cannot read the right bytes.
std::string Bytes(const std::string& rel) {
  std::string out = "<" + rel + ">";
  for (size_t i = 0; i < rel.size() * 7; ++i) out.push_back(static_cast<char>((i * 31 + rel.size()) % 251));
  return out;
}

// tiles (level 0) → s2, s1 (level 1) → bands (level 2). tile_c/s2 lacks B04.
struct Tree {
  TempDir dir;
  std::string src = dir / "src";
  std::vector<std::string> files;  // relative paths

  Tree() {
    for (std::string tile : {"tile_b", "tile_a", "tile_c"}) {
      for (std::string band : {"B02.tif", "B03.tif", "B04.tif"}) {
        if (tile == "tile_c" && band == "B04.tif") continue;
        files.push_back(tile + "/s2/" + band);
      }
      for (std::string band : {"VH.tif", "VV.tif"}) files.push_back(tile + "/s1/" + band);
    }
    for (const std::string& rel : files) Put(src + "/" + rel, Bytes(rel));
    Put(src + "/.hidden_notes", "not a sample");
    WriteFile(dir / "collection.json", kCollection);
    // Tiles out of sorted order; s2 before s1 everywhere; VV before VH.
    WriteFile(dir / "order.txt",
              "tile_c\ntile_a\ntile_b\n"
              "tile_a/s2\ntile_b/s2\ntile_c/s2\n"
              "tile_a/s1/VV.tif\ntile_b/s1/VV.tif\ntile_c/s1/VV.tif\n");
    WriteFile(dir / "meta.csv",
              "path,cloud_cover,region,acquired,valid,count\n"
              "tile_a,12.5,europe,2023-01-01T10:00:00Z,true,3\n"
              "tile_b,3,africa,2023-02-01,false,\n"
              "tile_c,,,,,\n"
              "tile_a/s2,,,,,7\n"
              "tile_b/s2/B02.tif,,,,,2\n"
              "tile_c/s1/VV.tif,0.25,,,,\n");
    WriteFile(dir / "meta.jsonl",
              "{\"path\": \"tile_a/s1/VV.tif\", \"shape\": [1, 64, 64], \"note\": \"vv\"}\n"
              "{\"path\": \"tile_c\", \"tags\": [\"coast\", \"urban\"]}\n"
              "{\"path\": \"tile_b/s1\", \"resolution\": 10.0}\n");
  }

  std::string CreateArgs(const std::string& out) const {
    return "create " + ShellQuote(src) + " " + ShellQuote(out) + " --collection " +
           ShellQuote(dir / "collection.json") + " --order " + ShellQuote(dir / "order.txt") + " --metadata " +
           ShellQuote(dir / "meta.csv") + " --metadata " + ShellQuote(dir / "meta.jsonl") + " --pad-to 3";
  }
};

nlohmann::json Info(const std::string& path) {
  CommandResult r = RunTaco("info --json " + ShellQuote(path));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// name → type of a level, and the names in order.
std::map<std::string, std::string> Types(const nlohmann::json& level) {
  std::map<std::string, std::string> out;
  for (const auto& c : level["columns"]) out[c[0].get<std::string>()] = c[1].get<std::string>();
  return out;
}
std::vector<std::string> Names(const nlohmann::json& level) {
  std::vector<std::string> out;
  for (const auto& c : level["columns"]) out.push_back(c[0].get<std::string>());
  return out;
}

// The internal columns at the end of a level, as FORMAT §3.1/§3.2 require.
std::vector<std::string> ExpectedInternal(int level, bool zip) {
  std::vector<std::string> out = {"internal:current_id", "internal:parent_id"};
  if (zip) out.insert(out.end(), {"internal:offset", "internal:size"});
  if (level >= 1) out.push_back("internal:relative_path");
  return out;
}

// The extension columns each level must carry, with their types.
std::map<std::string, std::string> ExpectedExtensions(int level) {
  if (level == 0) {
    return {{"cloud_cover", "double"}, {"region", "string"}, {"acquired", "timestamp[us]"},
            {"valid", "bool"},         {"count", "int64"},   {"tags", "list<item: string>"}};
  }
  if (level == 1) return {{"count", "int64"}, {"resolution", "double"}};
  return {{"cloud_cover", "double"}, {"count", "int64"}, {"shape", "list<item: int64>"}, {"note", "string"}};
}

void CheckLevels(const nlohmann::json& info, bool zip) {
  ASSERT_EQ(info["levels"].size(), 3u);
  const std::vector<uint64_t> rows = {3, 9, 18};
  for (int level = 0; level < 3; ++level) {
    SCOPED_TRACE("level " + std::to_string(level));
    const nlohmann::json& l = info["levels"][level];
    EXPECT_EQ(l["rows"], rows[static_cast<size_t>(level)]);
    std::vector<std::string> names = Names(l);
    std::map<std::string, std::string> types = Types(l);
    ASSERT_GE(names.size(), 2u);
    EXPECT_EQ(names[0], "id");
    EXPECT_EQ(names[1], "type");
    EXPECT_EQ(types["id"], "string");
    EXPECT_EQ(types["type"], "string");
    const std::vector<std::string> internal = ExpectedInternal(level, zip);
    ASSERT_GE(names.size(), 2 + internal.size());
    EXPECT_EQ(std::vector<std::string>(names.end() - static_cast<long>(internal.size()), names.end()), internal);
    for (const std::string& name : internal) {
      EXPECT_EQ(types[name], name == "internal:relative_path" ? "string" : "int64") << name;
    }
    // Exactly the expected extension columns, with their types.
    std::map<std::string, std::string> extensions;
    for (size_t i = 2; i + internal.size() < names.size(); ++i) extensions[names[i]] = types[names[i]];
    EXPECT_EQ(extensions, ExpectedExtensions(level));
    if (level == 0) {
      // Level 0 keeps the metadata order: CSV header order, then the JSON Lines keys.
      EXPECT_EQ(std::vector<std::string>(names.begin() + 2, names.begin() + 8),
                (std::vector<std::string>{"cloud_cover", "region", "acquired", "valid", "count", "tags"}));
    }
  }
  EXPECT_EQ(info["pit_schema"]["root"]["n"], 3);
  EXPECT_EQ(info["pit_schema"]["root"]["type"], "FOLDER");
  EXPECT_EQ(info["pit_schema"]["hierarchy"]["1"][0]["id"], nlohmann::json::parse(R"(["s2", "s1", "__TACOPAD__0"])"));
  EXPECT_EQ(info["pit_schema"]["hierarchy"]["2"][0]["id"],
            nlohmann::json::parse(R"(["B02.tif", "B03.tif", "B04.tif"])"));
  EXPECT_EQ(info["pit_schema"]["hierarchy"]["2"][1]["id"],
            nlohmann::json::parse(R"(["VV.tif", "VH.tif", "__TACOPAD__0"])"));
}

std::vector<std::string> Strings(const Column& column) {
  std::vector<std::string> out;
  for (const Value& v : column.values) out.push_back(v.is_null() ? "<null>" : v.ToString());
  return out;
}

TEST(CreateCommand, ThreeLevelTreeAsZip) {
  Tree tree;
  const std::string out = tree.dir / "out/ds.tacozip";
  CommandResult r = RunTaco(tree.CreateArgs(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, out + "\n");
  // stderr is not a terminal here: no progress bar; the sparse metadata is reported.
  EXPECT_EQ(r.err,
            "taco: warning: 4 of 6 samples of level 1 have no metadata row (their columns are null): 'tile_c/s2', "
            "'tile_c/s1', 'tile_a/s1', 'tile_b/s2'\n"
            "taco: warning: 11 of 14 samples of level 2 have no metadata row (their columns are null): "
            "'tile_c/s2/B02.tif', 'tile_c/s2/B03.tif', 'tile_c/s1/VH.tif', 'tile_a/s2/B02.tif', 'tile_a/s2/B03.tif', "
            "...\n");
  nlohmann::json info = Info(out);
  EXPECT_EQ(info["format"], "zip");
  EXPECT_EQ(info["id"], "three_levels");
  CheckLevels(info, /*zip=*/true);

  auto opened = Dataset::Open(out);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  Dataset& ds = **opened;
  auto level0 = ds.QueryRaw(
      "SELECT id, cloud_cover, acquired, valid, count, tags FROM level0_table ORDER BY \"internal:current_id\"");
  ASSERT_TRUE(level0.ok()) << level0.status().ToString();
  EXPECT_EQ(Strings(level0->column("id")), (std::vector<std::string>{"tile_c", "tile_a", "tile_b"}));
  EXPECT_EQ(level0->column("cloud_cover").values[1], Value(12.5));
  EXPECT_EQ(level0->column("cloud_cover").values[2], Value(3.0));
  EXPECT_TRUE(level0->column("cloud_cover").values[0].is_null());
  EXPECT_EQ(level0->column("acquired").values[1], Value(TimestampUs{1672567200000000}));
  EXPECT_EQ(level0->column("acquired").values[2], Value(TimestampUs{1675209600000000}));
  EXPECT_EQ(level0->column("valid").values[2], Value(false));
  EXPECT_EQ(level0->column("count").values[1], Value(int64_t{3}));
  EXPECT_EQ(level0->column("tags").values[0], Value(ValueList{Value("coast"), Value("urban")}));

  // Every FILE row's (offset, size) holds that file's bytes; FOLDER rows point at a
  // Parquet __meta__ member.
  const std::string zip = ReadFile(out);
  for (int level = 0; level < 3; ++level) {
    SCOPED_TRACE("level " + std::to_string(level));
    std::string sql = "SELECT id, type, \"internal:offset\" AS o, \"internal:size\" AS s" +
                      std::string(level > 0 ? ", \"internal:relative_path\" AS rp" : ", id AS rp") + " FROM level" +
                      std::to_string(level) + "_table";
    auto rows = ds.QueryRaw(sql);
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    size_t files_checked = 0;
    for (size_t i = 0; i < rows->num_rows(); ++i) {
      const std::string id = rows->column("id").values[i].get<std::string>();
      const std::string type = rows->column("type").values[i].get<std::string>();
      const std::string rel = rows->column("rp").values[i].get<std::string>();
      const auto offset = static_cast<size_t>(rows->column("o").values[i].get<int64_t>());
      const auto size = static_cast<size_t>(rows->column("s").values[i].get<int64_t>());
      ASSERT_LE(offset + size, zip.size()) << rel;
      const std::string bytes = zip.substr(offset, size);
      if (type == "FOLDER") {
        ASSERT_GE(size, 8u) << rel;
        EXPECT_EQ(bytes.substr(0, 4), "PAR1") << rel;
        EXPECT_EQ(bytes.substr(size - 4), "PAR1") << rel;
      } else if (id.rfind("__TACOPAD__", 0) == 0) {
        EXPECT_EQ(size, 0u) << rel;
      } else {
        EXPECT_EQ(bytes, ReadFile(tree.src + "/" + rel)) << rel;
        ++files_checked;
      }
    }
    EXPECT_EQ(files_checked, level == 2 ? tree.files.size() : 0u);
  }

  // Level 2 values by path: columns from both files, nulls elsewhere.
  auto level2 = ds.QueryRaw(
      "SELECT \"internal:relative_path\" AS rp, count, shape, note, cloud_cover FROM level2_table "
      "WHERE count IS NOT NULL OR shape IS NOT NULL OR cloud_cover IS NOT NULL ORDER BY rp");
  ASSERT_TRUE(level2.ok()) << level2.status().ToString();
  EXPECT_EQ(Strings(level2->column("rp")),
            (std::vector<std::string>{"tile_a/s1/VV.tif", "tile_b/s2/B02.tif", "tile_c/s1/VV.tif"}));
  EXPECT_EQ(level2->column("shape").values[0],
            Value(ValueList{Value(int64_t{1}), Value(int64_t{64}), Value(int64_t{64})}));
  EXPECT_EQ(level2->column("count").values[1], Value(int64_t{2}));
  EXPECT_EQ(level2->column("cloud_cover").values[2], Value(0.25));
}

TEST(CreateCommand, ThreeLevelTreeAsFolder) {
  Tree tree;
  const std::string out = tree.dir / "out_folder";
  CommandResult r = RunTaco(tree.CreateArgs(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, out + "\n");
  nlohmann::json info = Info(out);
  EXPECT_EQ(info["format"], "folder");
  CheckLevels(info, /*zip=*/false);
  for (const std::string& rel : tree.files) {
    EXPECT_EQ(ReadFile(out + "/DATA/" + rel), ReadFile(tree.src + "/" + rel)) << rel;
  }
  EXPECT_FALSE(fs::exists(out + "/DATA/.hidden_notes"));
}

TEST(CreateCommand, FormatOptionOverridesTheSuffixAndQuietPrintsNothing) {
  Tree tree;
  const std::string out = tree.dir / "as_zip";
  CommandResult r = RunTaco("-q " + tree.CreateArgs(out) + " --format zip");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(Info(out)["format"], "zip");

  r = RunTaco(tree.CreateArgs(out));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "taco: " + out + ": already exists (the output must not exist)\n");
}

// Runs a failing create and checks: exit 2, one "taco: ..." line holding `expected`,
// nothing on stdout, and nothing left in the output's directory.
void ExpectCleanFailure(const std::string& args, const std::string& out_dir, const std::string& expected) {
  CommandResult r = RunTaco(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("taco: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(out_dir)) left.push_back(entry.path().filename().string());
  EXPECT_TRUE(left.empty()) << "left behind: " << left.size() << " entries, first " << left.front();
}

TEST(CreateCommand, BrokenPitBadIdAndMissingCollectionFieldLeaveNothing) {
  for (std::string suffix : {".tacozip", ""}) {
    SCOPED_TRACE("output suffix '" + suffix + "'");
    {
      Tree tree;
      fs::create_directories(tree.dir / "out");
      // tile_c/s2 (first in order) has B02, B04: position 1 is B04 there but B03 elsewhere.
      fs::rename(tree.src + "/tile_c/s2/B03.tif", tree.src + "/tile_c/s2/B04.tif");
      ExpectCleanFailure(tree.CreateArgs(tree.dir / "out/ds" + suffix), tree.dir / "out",
                         tree.src +
                             ": PIT: level 2: folder 'tile_a/s2' has id 'B03.tif' at position 1, expected "
                             "'B04.tif' (as 'tile_c/s2')");
    }
    {
      Tree tree;
      fs::create_directories(tree.dir / "out");
      WriteFile(tree.src + "/tile_a/s1/__x", "bad");
      ExpectCleanFailure(tree.CreateArgs(tree.dir / "out/ds" + suffix), tree.dir / "out",
                         tree.src + "/tile_a/s1/__x: bad sample id: id '__x' starts with '__'");
    }
    {
      Tree tree;
      fs::create_directories(tree.dir / "out");
      nlohmann::ordered_json c = nlohmann::ordered_json::parse(kCollection);
      c.erase("licenses");
      WriteFile(tree.dir / "collection.json", c.dump());
      ExpectCleanFailure(tree.CreateArgs(tree.dir / "out/ds" + suffix), tree.dir / "out",
                         tree.dir / "collection.json" + ": collection: missing required field 'licenses'");
    }
  }
}

TEST(CreateCommand, CategoricalClassesGiveEverySampleTheSameClassList) {
  TempDir dir;
  fs::create_directories(dir / "src");
  RasterSpec spec;
  spec.type = GDT_Byte;
  spec.bands = {std::vector<double>(16, 1.0)};
  WriteRaster(dir / "src/a.tif", spec);
  spec.bands = {std::vector<double>(16, 3.0)};
  WriteRaster(dir / "src/b.tif", spec);
  WriteFile(dir / "c.json", R"({"id": "x", "dataset_version": "1", "description": "d", "licenses": ["x"],
    "providers": [{"name": "p"}], "tasks": ["other"]})");
  const std::string out = dir / "ds.tacozip";
  CommandResult r = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(out) + " --collection " +
                            ShellQuote(dir / "c.json") + " --ext stats-categorical --classes 0,1,2,3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CommandResult q = RunTaco("sql " + ShellQuote(out) +
                            " 'SELECT id, len(\"geotiff:stats\"[1]) AS n FROM data ORDER BY id' --format csv");
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(q.out, "id,n\na.tif,4\nb.tif,4\n");
}

TEST(CreateCommand, OtherBadInputsExitTwo) {
  Tree tree;
  fs::create_directories(tree.dir / "out");
  const std::string out = tree.dir / "out/ds.tacozip";
  WriteFile(tree.dir / "meta.csv", "path,x\ntile_a,1\ntile_z/s2,2\n");
  ExpectCleanFailure(tree.CreateArgs(out), tree.dir / "out",
                     tree.dir / "meta.csv" + ":3: path 'tile_z/s2' matches no sample under " + tree.src);
  ExpectCleanFailure(tree.CreateArgs(out) + " --ext nope", tree.dir / "out", "extension 'nope' is unknown");
  ExpectCleanFailure(tree.CreateArgs(out) + " --split-size 12XB", tree.dir / "out", "--split-size: '12XB'");
  ExpectCleanFailure(tree.CreateArgs(out) + " --classes 0,1", tree.dir / "out",
                     "--classes: only used by --ext stats-categorical");
  fs::create_directories(tree.src + "/tile_a/empty");
  WriteFile(tree.dir / "meta.csv", "path,x\n");
  ExpectCleanFailure(tree.CreateArgs(out), tree.dir / "out", tree.src + "/tile_a/empty: empty directory");
}

}  // namespace
}  // namespace taco::testing
