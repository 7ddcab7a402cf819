// BuildLevelTables, PitSchema, FieldSchema and BuildCollection.
#include "model/metadata.h"

#include <gtest/gtest.h>

#include <fstream>

#include "model_test_util.h"
#include "support/paths.h"

namespace taco {
namespace {

using nlohmann::ordered_json;
using testing::F;
using testing::FileSample;
using testing::FolderSample;

std::vector<std::string> Strings(const Table& t, std::string_view name) {
  std::vector<std::string> out;
  for (const Value& v : t.column(name).values) out.push_back(v.is_null() ? "<null>" : v.get<std::string>());
  return out;
}

std::vector<int64_t> Ints(const Table& t, std::string_view name) {
  std::vector<int64_t> out;
  for (const Value& v : t.column(name).values) out.push_back(v.get<int64_t>());
  return out;
}

std::vector<std::string> ColumnNames(const Table& t) {
  std::vector<std::string> out;
  for (const Column& c : t.columns) out.push_back(c.name);
  return out;
}

ordered_json ReadJson(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  return ordered_json::parse(in, nullptr, /*allow_exceptions=*/false);
}

// europe, americas, asia (not sorted) x item_0..2, like the upstream nested fixture.
Taco NestedLike() {
  std::vector<Sample> regions;
  for (const char* region : {"europe", "americas", "asia"}) {
    std::vector<Sample> items;
    for (int i = 0; i < 3; ++i) {
      items.push_back(
          FileSample(testing::Name("item_", i),
                     {F("cloud_cover", DataType::Double(), 0.1 * i), F("location", DataType::String(), region),
                      F("istac:centroid", DataType::Binary(), testing::WkbPointBytes(i, i))}));
    }
    regions.push_back(FolderSample(region, std::move(items), {F("region", DataType::String(), region, "Region name")}));
  }
  return testing::MakeTaco(testing::MakeTortilla(std::move(regions)));
}

TEST(LevelTablesTest, NestedLike) {
  Taco taco = NestedLike();
  Result<model::LevelTables> r = model::BuildLevelTables(taco);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const model::LevelTables& t = *r;
  ASSERT_EQ(t.levels.size(), 2u);
  const Table& l0 = t.levels[0];
  const Table& l1 = t.levels[1];
  EXPECT_EQ(ColumnNames(l0),
            (std::vector<std::string>{"id", "type", "region", "internal:current_id", "internal:parent_id"}));
  EXPECT_EQ(Strings(l0, "id"), (std::vector<std::string>{"europe", "americas", "asia"}));
  EXPECT_EQ(Strings(l0, "type"), (std::vector<std::string>{"FOLDER", "FOLDER", "FOLDER"}));
  EXPECT_EQ(Ints(l0, "internal:current_id"), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(Ints(l0, "internal:parent_id"), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(l0.column("internal:current_id").type, DataType::Int64());

  // Level 1: extension columns sorted by name (more than one row), internal columns last.
  EXPECT_EQ(ColumnNames(l1),
            (std::vector<std::string>{"id", "type", "cloud_cover", "istac:centroid", "location", "internal:current_id",
                                      "internal:parent_id", "internal:relative_path"}));
  EXPECT_EQ(Strings(l1, "id"), (std::vector<std::string>{"item_0", "item_1", "item_2", "item_0", "item_1", "item_2",
                                                         "item_0", "item_1", "item_2"}));
  EXPECT_EQ(Strings(l1, "location"), (std::vector<std::string>{"europe", "europe", "europe", "americas", "americas",
                                                               "americas", "asia", "asia", "asia"}));
  EXPECT_EQ(Ints(l1, "internal:current_id"), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(Ints(l1, "internal:parent_id"), (std::vector<int64_t>{0, 0, 0, 1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(Strings(l1, "internal:relative_path")[4], "americas/item_1");
  EXPECT_EQ(l1.column("cloud_cover").values[2], Value(0.2));
  EXPECT_EQ(t.archive_paths[0], (std::vector<std::string>{"DATA/europe/", "DATA/americas/", "DATA/asia/"}));
  EXPECT_EQ(t.archive_paths[1][8], "DATA/asia/item_2");

  ASSERT_EQ(t.folder_meta.size(), 3u);
  EXPECT_EQ(t.folder_meta[0].first, "DATA/americas/");
  EXPECT_EQ(t.folder_meta[1].first, "DATA/asia/");
  EXPECT_EQ(t.folder_meta[2].first, "DATA/europe/");
  const Table& meta = t.folder_meta[0].second;
  EXPECT_EQ(ColumnNames(meta), (std::vector<std::string>{"id", "type", "cloud_cover", "istac:centroid", "location"}));
  EXPECT_EQ(Strings(meta, "location"), (std::vector<std::string>{"americas", "americas", "americas"}));

  ASSERT_EQ(t.files.size(), 9u);
  EXPECT_EQ(t.files[0].first, "DATA/europe/item_0");
  EXPECT_EQ(t.files[3].first, "DATA/americas/item_0");
  EXPECT_EQ(t.files[3].second, &taco.root().samples()[1].children()->samples()[0]);
  EXPECT_EQ(t.descriptions.at("region"), "Region name");
}

TEST(LevelTablesTest, DeeperTreeWithPadding) {
  TortillaOptions pad2;
  pad2.pad_to = 2;
  auto node = [&](const std::string& id, bool short_x) {
    std::vector<Sample> x = {FileSample("p", {F("k", DataType::Int64(), int64_t{1})})};
    if (!short_x) x.push_back(FileSample("q", {F("k", DataType::Int64(), int64_t{2})}));
    return FolderSample(id, {FolderSample("x", std::move(x), {}, pad2), FileSample("y")});
  };
  Taco taco = testing::MakeTaco(testing::MakeTortilla({node("b", false), node("a", true)}));
  Result<model::LevelTables> r = model::BuildLevelTables(taco);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const model::LevelTables& t = *r;
  ASSERT_EQ(t.levels.size(), 3u);
  EXPECT_EQ(Strings(t.levels[1], "internal:relative_path"), (std::vector<std::string>{"b/x/", "b/y", "a/x/", "a/y"}));
  EXPECT_EQ(Strings(t.levels[2], "internal:relative_path"),
            (std::vector<std::string>{"b/x/p", "b/x/q", "a/x/p", "a/x/__TACOPAD__0"}));
  EXPECT_EQ(Ints(t.levels[2], "internal:parent_id"), (std::vector<int64_t>{0, 0, 2, 2}));
  EXPECT_TRUE(t.levels[2].column("k").values[3].is_null());
  EXPECT_EQ(t.levels[2].column("k").values[1], Value(int64_t{2}));
  std::vector<std::string> meta_paths;
  for (const auto& [path, table] : t.folder_meta) meta_paths.push_back(path);
  EXPECT_EQ(meta_paths, (std::vector<std::string>{"DATA/a/x/", "DATA/b/x/", "DATA/a/", "DATA/b/"}));
  std::vector<std::string> files;
  for (const auto& [path, sample] : t.files) files.push_back(path);
  EXPECT_EQ(files, (std::vector<std::string>{"DATA/b/x/p", "DATA/b/x/q", "DATA/b/y", "DATA/a/x/p",
                                             "DATA/a/x/__TACOPAD__0", "DATA/a/y"}));
  EXPECT_TRUE(t.files[4].second->is_padding());
  EXPECT_EQ(ColumnNames(t.folder_meta[2].second), (std::vector<std::string>{"id", "type"}));
}

TEST(LevelTablesTest, MetaColumnOrder) {
  auto fields = [] {
    return std::vector<Field>{F("zeta", DataType::Int64(), int64_t{1}), F("alpha", DataType::Int64(), int64_t{2})};
  };
  // One child: its __meta__ keeps insertion order (upstream passes a single table through).
  Taco one = testing::MakeTaco(testing::MakeTortilla({FolderSample("a", {FileSample("x", fields())})}));
  Result<model::LevelTables> r1 = model::BuildLevelTables(one);
  ASSERT_TRUE(r1.ok());
  EXPECT_EQ(ColumnNames(r1->folder_meta[0].second), (std::vector<std::string>{"id", "type", "zeta", "alpha"}));
  EXPECT_EQ(ColumnNames(r1->levels[1]), (std::vector<std::string>{"id", "type", "zeta", "alpha", "internal:current_id",
                                                                  "internal:parent_id", "internal:relative_path"}));
  // Two children: sorted by name.
  Taco two = testing::MakeTaco(
      testing::MakeTortilla({FolderSample("a", {FileSample("x", fields()), FileSample("y", fields())})}));
  Result<model::LevelTables> r2 = model::BuildLevelTables(two);
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(ColumnNames(r2->folder_meta[0].second), (std::vector<std::string>{"id", "type", "alpha", "zeta"}));
  EXPECT_EQ(r2->folder_meta[0].second.column("zeta").values[1], Value(int64_t{1}));
  // Level 0 of a strict root keeps insertion order even with many rows.
  Taco flat = testing::MakeTaco(testing::MakeTortilla({FileSample("x", fields()), FileSample("y", fields())}));
  Result<model::LevelTables> r3 = model::BuildLevelTables(flat);
  ASSERT_TRUE(r3.ok());
  EXPECT_EQ(ColumnNames(r3->levels[0]),
            (std::vector<std::string>{"id", "type", "zeta", "alpha", "internal:current_id", "internal:parent_id"}));
}

TEST(PitSchemaTest, FormatExample) {
  std::vector<Sample> tiles;
  for (int i = 0; i < 20; ++i) {
    std::vector<Sample> sensors;
    for (const char* sensor : {"sensor_A", "sensor_B"}) {
      sensors.push_back(FolderSample(sensor, {FileSample("band_R"), FileSample("band_G"), FileSample("band_B")}));
    }
    tiles.push_back(FolderSample(testing::Name("tile_", i), std::move(sensors)));
  }
  Taco taco = testing::MakeTaco(testing::MakeTortilla(std::move(tiles)));
  Result<model::LevelTables> r = model::BuildLevelTables(taco);
  ASSERT_TRUE(r.ok());
  ordered_json expected = ordered_json::parse(R"({"root": {"n": 20, "type": "FOLDER"},
  "hierarchy": {
    "1": [{"n": 40, "type": ["FOLDER","FOLDER"], "id": ["sensor_A","sensor_B"]}],
    "2": [{"n": 60, "type": ["FILE","FILE","FILE"], "id": ["band_R","band_G","band_B"]},
          {"n": 60, "type": ["FILE","FILE","FILE"], "id": ["band_R","band_G","band_B"]}]}})");
  EXPECT_EQ(model::PitSchema(r->levels), expected) << model::PitSchema(r->levels).dump();
}

TEST(PitSchemaTest, UpstreamFixtures) {
  std::vector<Sample> flat;
  for (int i = 0; i < 5; ++i) flat.push_back(FileSample(testing::Name("sample_", i)));
  Result<model::LevelTables> r = model::BuildLevelTables(testing::MakeTaco(testing::MakeTortilla(std::move(flat))));
  ASSERT_TRUE(r.ok());
  // tacotoolbox 0.26 adds a pit `shape` array (its virtual padding) that we do not write
  // (tests/interop/test_matrix.py test_collection_and_pit); the rest must be the same.
  ordered_json fixture = ReadJson(testing::UpstreamFixtures() + "/folder/flat/COLLECTION.json");
  fixture["taco:pit_schema"].erase("shape");
  EXPECT_EQ(model::PitSchema(r->levels), fixture["taco:pit_schema"]);

  Result<model::LevelTables> nested = model::BuildLevelTables(NestedLike());
  ASSERT_TRUE(nested.ok());
  ordered_json nested_fixture = ReadJson(testing::UpstreamFixtures() + "/folder/nested/COLLECTION.json");
  nested_fixture["taco:pit_schema"].erase("shape");
  EXPECT_EQ(model::PitSchema(nested->levels), nested_fixture["taco:pit_schema"]);
}

TEST(PitSchemaTest, PicksGroupWithFewestPads) {
  TortillaOptions pad3;
  pad3.pad_to = 3;
  Taco taco = testing::MakeTaco(
      testing::MakeTortilla({FolderSample("a", {FileSample("x"), FileSample("y")}, {}, pad3),
                             FolderSample("b", {FileSample("x"), FileSample("y"), FileSample("z")})}));
  Result<model::LevelTables> r = model::BuildLevelTables(taco);
  ASSERT_TRUE(r.ok());
  ordered_json pit = model::PitSchema(r->levels);
  EXPECT_EQ(pit["hierarchy"]["1"][0]["id"], ordered_json::array({"x", "y", "z"}));
  EXPECT_EQ(pit["hierarchy"]["1"][0]["n"], 6);
}

// The columns of the upstream flat fixture, inserted in its order.
std::vector<Field> FlatFields(int i) {
  return {
      F("istac:geometry", DataType::Binary(), testing::WkbPointBytes(i, i)),
      F("istac:centroid", DataType::Binary(), testing::WkbPointBytes(i, i)),
      F("istac:time_start", DataType::TimestampUs(), TimestampUs{int64_t{i} * 1000000}),
      F("cloud_cover", DataType::Double(), 0.5),
      F("location", DataType::String(), "x"),
      F("stac:tensor_shape", DataType::List(DataType::Int64()), ValueList{int64_t{3}, int64_t{64}}),
      F("geotiff:stats", DataType::List(DataType::List(DataType::Float())), Value(), "Fake statistics for testing")};
}

std::vector<std::pair<std::string, std::string>> NamesAndTypes(const ordered_json& level) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& entry : level) out.emplace_back(entry[0].get<std::string>(), entry[1].get<std::string>());
  return out;
}

TEST(FieldSchemaTest, MatchesUpstreamFixtures) {
  std::vector<Sample> flat;
  for (int i = 0; i < 5; ++i) flat.push_back(FileSample(testing::Name("sample_", i), FlatFields(i)));
  Result<model::LevelTables> r = model::BuildLevelTables(testing::MakeTaco(testing::MakeTortilla(std::move(flat))));
  ASSERT_TRUE(r.ok());
  ordered_json ours = model::FieldSchema(r->levels, r->descriptions);
  ordered_json fixture = ReadJson(testing::UpstreamFixtures() + "/folder/flat/COLLECTION.json")["taco:field_schema"];
  EXPECT_EQ(NamesAndTypes(ours["level0"]), NamesAndTypes(fixture["level0"]));
  EXPECT_EQ(ours["level0"][8][2], "Fake statistics for testing");
  EXPECT_EQ(ours["level0"][3][2], "");
  for (size_t i : {0u, 1u, 9u, 10u}) EXPECT_FALSE(ours["level0"][i][2].get<std::string>().empty()) << i;

  // Nested: level0 in insertion order, level1 sorted.
  std::vector<Sample> regions;
  for (const char* region : {"europe", "americas", "asia"}) {
    std::vector<Sample> items;
    for (int i = 0; i < 3; ++i) items.push_back(FileSample(testing::Name("item_", i), FlatFields(i)));
    regions.push_back(FolderSample(
        region, std::move(items),
        {F("istac:geometry", DataType::Binary(), testing::WkbPointBytes(1, 1)),
         F("istac:time_start", DataType::TimestampUs(), TimestampUs{0}), F("region", DataType::String(), region)}));
  }
  Result<model::LevelTables> n = model::BuildLevelTables(testing::MakeTaco(testing::MakeTortilla(std::move(regions))));
  ASSERT_TRUE(n.ok());
  ordered_json nested = model::FieldSchema(n->levels, n->descriptions);
  ordered_json nested_fixture =
      ReadJson(testing::UpstreamFixtures() + "/folder/nested/COLLECTION.json")["taco:field_schema"];
  EXPECT_EQ(NamesAndTypes(nested["level0"]), NamesAndTypes(nested_fixture["level0"]));
  EXPECT_EQ(NamesAndTypes(nested["level1"]), NamesAndTypes(nested_fixture["level1"]));
}

TEST(FieldSchemaTest, NeverListsZipOrTacocatColumns) {
  Table t;
  for (const char* name : {"id", "type", "internal:current_id", "internal:parent_id", "internal:offset",
                           "internal:size", "internal:relative_path", "internal:source_file"}) {
    t.columns.push_back(Column{name, DataType::String(), {}});
  }
  t.columns.push_back(
      Column{"s:x", DataType::Struct({{"name", DataType::String()}, {"index", DataType::Int32()}}), {}});
  ordered_json fs = model::FieldSchema({t}, {{"s:x", "A struct"}});
  std::vector<std::string> names;
  for (const auto& e : fs["level0"]) names.push_back(e[0]);
  EXPECT_EQ(names, (std::vector<std::string>{"id", "type", "internal:current_id", "internal:parent_id",
                                             "internal:relative_path", "s:x"}));
  EXPECT_EQ(fs["level0"][5][1], "struct<name: string, index: int32>");
  EXPECT_EQ(fs["level0"][5][2], "A struct");
}

TEST(CollectionJsonTest, KeyOrderAndContents) {
  ordered_json c = testing::BaseCollection();
  c["split:strategy"] = "random";
  c["title"] = "Nested";
  c["publications"] = ordered_json::array({"x"});
  Result<Taco> taco = Taco::Make(NestedLike().root(), c);
  ASSERT_TRUE(taco.ok());
  Result<model::LevelTables> r = model::BuildLevelTables(*taco);
  ASSERT_TRUE(r.ok());
  Result<ordered_json> out = model::BuildCollection(*taco, *r);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<std::string> keys;
  for (const auto& [key, value] : out->items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"id", "dataset_version", "description", "licenses", "providers", "tasks",
                                            "taco_version", "title", "curators", "keywords", "extent", "split:strategy",
                                            "publications", "taco:pit_schema", "taco:field_schema"}));
  EXPECT_EQ((*out)["taco_version"], "2.0.0");
  EXPECT_EQ((*out)["title"], "Nested");
  EXPECT_TRUE((*out)["curators"].is_null());
  // No istac:time_start beside the centroids: the extent falls back to global.
  EXPECT_EQ((*out)["extent"]["spatial"], ordered_json::array({-180.0, -90.0, 180.0, 90.0}));
  EXPECT_TRUE((*out)["extent"]["temporal"].is_null());
  EXPECT_EQ((*out)["taco:pit_schema"]["root"]["n"], 3);
  EXPECT_TRUE((*out)["taco:field_schema"].contains("level1"));

  c["extent"] = ordered_json::parse(R"({"spatial": [170, -5, -170, 5]})");
  Result<Taco> given = Taco::Make(NestedLike().root(), c);
  ASSERT_TRUE(given.ok());
  Result<ordered_json> out2 = model::BuildCollection(*given, *r);
  ASSERT_TRUE(out2.ok());
  EXPECT_EQ((*out2)["extent"], ordered_json::parse(R"({"spatial": [170, -5, -170, 5], "temporal": null})"));
}

TEST(LevelTablesTest, ScaleIsLinear) {
  // 2,000 folders x 100 files = 200,000 level-1 rows. No timing assertion: the point is that
  // the construction has no quadratic step (it would not finish in the test timeout).
  std::vector<Sample> folders;
  folders.reserve(2000);
  std::vector<Sample> proto;
  for (int i = 0; i < 100; ++i) {
    proto.push_back(FileSample(testing::Name("f", i), {F("v", DataType::Int64(), int64_t{i})}, ""));
  }
  Tortilla children = testing::MakeTortilla(proto);
  for (int i = 0; i < 2000; ++i) {
    Result<Sample> s = Sample::FromTortilla(testing::Name("folder_", i), children);
    ASSERT_TRUE(s.ok());
    folders.push_back(*s);
  }
  Taco taco = testing::MakeTaco(testing::MakeTortilla(std::move(folders)));
  Result<model::LevelTables> r = model::BuildLevelTables(taco);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->levels[1].num_rows(), 200000u);
  EXPECT_EQ(r->files.size(), 200000u);
  EXPECT_EQ(r->folder_meta.size(), 2000u);
  EXPECT_EQ(r->levels[1].column("internal:parent_id").values[199999], Value(int64_t{1999}));
  EXPECT_EQ(r->levels[1].column("internal:relative_path").values[199999], Value("folder_1999/f99"));
  ordered_json pit = model::PitSchema(r->levels);
  EXPECT_EQ(pit["hierarchy"]["1"][0]["n"], 200000);

  std::vector<Sample> flat;
  flat.reserve(200000);
  for (int i = 0; i < 200000; ++i) flat.push_back(FileSample(testing::Name("s", i), {}, ""));
  Result<model::LevelTables> f = model::BuildLevelTables(testing::MakeTaco(testing::MakeTortilla(std::move(flat))));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->levels[0].num_rows(), 200000u);
}

}  // namespace
}  // namespace taco
