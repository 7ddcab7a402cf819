// Taco::Make: collection fields, PIT at every depth, per-level schemas, depth limit.
#include <gtest/gtest.h>

#include "model_test_util.h"
#include "taco/model.h"

namespace taco {
namespace {

using nlohmann::ordered_json;
using testing::F;
using testing::FileSample;
using testing::FolderSample;

Tortilla SimpleRoot() { return testing::MakeTortilla({FileSample("a"), FileSample("b")}); }

std::string CollectionError(const ordered_json& c) {
  Result<Taco> t = Taco::Make(SimpleRoot(), c);
  EXPECT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
  return t.status().message();
}

ordered_json With(const std::string& key, ordered_json value) {
  ordered_json c = testing::BaseCollection();
  c[key] = std::move(value);
  return c;
}

TEST(CollectionTest, RequiredFields) {
  for (const char* key : {"id", "dataset_version", "description", "licenses", "providers", "tasks"}) {
    ordered_json c = testing::BaseCollection();
    c.erase(key);
    EXPECT_EQ(CollectionError(c), std::string("collection: missing required field '") + key + "'");
  }
  EXPECT_EQ(CollectionError(With("licenses", nullptr)), "collection: missing required field 'licenses'");
  EXPECT_EQ(CollectionError(ordered_json::array()), "collection: must be a JSON object");
}

TEST(CollectionTest, DefaultsAndAcceptsPlainJson) {
  nlohmann::json plain = nlohmann::json::parse(testing::BaseCollection().dump());
  Result<Taco> t = Taco::Make(SimpleRoot(), plain);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->collection()["taco_version"], "2.0.0");
  Taco given = testing::MakeTaco(SimpleRoot(), With("taco_version", "0.5.0"));
  EXPECT_EQ(given.collection()["taco_version"], "0.5.0");
  EXPECT_EQ(given.num_levels(), 1);
  EXPECT_EQ(given.root().size(), 2u);
}

TEST(CollectionTest, Id) {
  const std::string rule = " must be lowercase letters, digits, '_' and '-' (with at least one letter or digit)";
  EXPECT_EQ(CollectionError(With("id", "My-Data")), "collection: id 'My-Data'" + rule);
  EXPECT_EQ(CollectionError(With("id", "a b")), "collection: id 'a b'" + rule);
  EXPECT_EQ(CollectionError(With("id", "--")), "collection: id '--'" + rule);
  EXPECT_EQ(CollectionError(With("id", "")), "collection: id ''" + rule);
  EXPECT_EQ(CollectionError(With("id", 3)), "collection: id must be a string");
  EXPECT_TRUE(Taco::Make(SimpleRoot(), With("id", "s2-cloud_v2")).ok());
}

TEST(CollectionTest, TitleTasksAndLists) {
  EXPECT_EQ(CollectionError(With("title", std::string(251, 't'))),
            "collection: title has 251 characters, at most 250 are allowed");
  std::string accented;
  for (int i = 0; i < 250; ++i) accented += "é";  // 500 bytes, 250 characters
  EXPECT_TRUE(Taco::Make(SimpleRoot(), With("title", accented)).ok());
  std::string tasks_error = CollectionError(With("tasks", ordered_json::array({"classification", "foo"})));
  EXPECT_EQ(tasks_error.rfind("collection: tasks[1] 'foo' is not a known task (regression, classification, ", 0), 0u)
      << tasks_error;
  EXPECT_NE(tasks_error.find("foundation-model, other)"), std::string::npos);
  EXPECT_EQ(KnownTasks().size(), 21u);
  EXPECT_EQ(CollectionError(With("licenses", ordered_json::array({"MIT", 3}))),
            "collection: licenses[1] must be a string");
  EXPECT_EQ(CollectionError(With("keywords", "eo")), "collection: keywords must be an array of strings");
  EXPECT_EQ(CollectionError(With("description", 1)), "collection: description must be a string");
  EXPECT_EQ(CollectionError(With("taco:pit_schema", ordered_json::object())),
            "collection: taco:pit_schema is generated when the dataset is written; remove it");
}

TEST(CollectionTest, ProvidersAndCurators) {
  auto providers = [](const char* json) { return With("providers", ordered_json::parse(json)); };
  EXPECT_TRUE(
      Taco::Make(SimpleRoot(), providers(R"([{"name":"ESA","organization":"ESA","email":"a@b.c","role":"host"}])"))
          .ok());
  EXPECT_TRUE(
      Taco::Make(
          SimpleRoot(),
          providers(
              R"([{"name":"ESA","roles":["host","producer"],"url":"https://esa.int","links":[{"href":"https://x"}]}])"))
          .ok());
  EXPECT_TRUE(Taco::Make(SimpleRoot(), providers(R"([{"name":"Only a name"}])")).ok());
  EXPECT_TRUE(Taco::Make(SimpleRoot(), providers(R"([{"organization":"Org","name":null}])")).ok());
  EXPECT_EQ(CollectionError(providers(R"([{"name":"x","role":"host","url":"https://x"}])")),
            "collection: providers[0] mixes the spec form (name, organization, email, role) and the STAC form "
            "(name, roles, url, links)");
  EXPECT_EQ(CollectionError(providers(R"([{"name":"x"},{"name":"y","phone":"1"}])")),
            "collection: providers[1]: unknown key 'phone' (expected name, organization, email, role or name, roles, "
            "url, links)");
  EXPECT_EQ(CollectionError(providers(R"([{"name":"x","email":"nowhere"}])")),
            "collection: providers[0].email 'nowhere' has no '@'");
  EXPECT_EQ(CollectionError(providers(R"([{"organization":null,"email":"a@b"}])")),
            "collection: providers[0] needs a name or an organization");
  EXPECT_EQ(CollectionError(providers(R"([{"roles":["host"]}])")),
            "collection: providers[0]: a STAC provider needs a non-empty 'name'");
  EXPECT_EQ(CollectionError(providers(R"([{"name":"x","url":"ftp://x"}])")),
            "collection: providers[0].url 'ftp://x' must start with http:// or https://");
  EXPECT_EQ(CollectionError(providers(R"([{"name":"x","roles":"host"}])")),
            "collection: providers[0].roles must be an array of strings");
  EXPECT_EQ(CollectionError(providers(R"(["ESA"])")), "collection: providers[0] must be an object");
  EXPECT_EQ(CollectionError(With("curators", ordered_json::parse(R"([{"name":"x","email":"y"}])"))),
            "collection: curators[0].email 'y' has no '@'");
  EXPECT_TRUE(
      Taco::Make(SimpleRoot(), With("curators", ordered_json::parse(R"([{"name":"C","roles":["curator"]}])"))).ok());
}

TEST(CollectionTest, Extent) {
  auto extent = [](const char* json) { return With("extent", ordered_json::parse(json)); };
  EXPECT_TRUE(Taco::Make(SimpleRoot(), extent(R"({"spatial":[170,-10,-170,10],"temporal":null})")).ok());
  EXPECT_TRUE(Taco::Make(SimpleRoot(),
                         extent(R"({"spatial":[1,2,1,2],"temporal":["2020-01-01T00:00:00Z","2021-01-01T00:00:00Z"]})"))
                  .ok());
  EXPECT_EQ(CollectionError(extent(R"({"spatial":[1,2,3]})")),
            "collection: extent.spatial must be an array of 4 numbers [west, south, east, north]");
  EXPECT_EQ(CollectionError(extent(R"({"spatial":[1,20,3,10]})")),
            "collection: extent.spatial: south is greater than north");
  EXPECT_EQ(CollectionError(extent(R"({"spatial":[-181,0,3,10]})")),
            "collection: extent.spatial: longitudes must be within [-180, 180]");
  EXPECT_EQ(CollectionError(extent(R"({"spatial":[0,0,3,10],"temporal":["2020"]})")),
            "collection: extent.temporal must be null or an array of 2 ISO-8601 strings [start, end]");
  EXPECT_EQ(CollectionError(extent(R"({"temporal":null})")),
            "collection: extent: missing 'spatial' [west, south, east, north]");
  EXPECT_EQ(CollectionError(extent(R"({"spatial":[0,0,1,1],"bbox":1})")),
            "collection: extent: unknown key 'bbox' (expected spatial, temporal)");
}

// tile -> sensors s1, s2 -> bands; `s2_bands` gives the ids of tile_c's s2.
Sample Tile(const std::string& id, std::vector<std::string> s2_bands, TortillaOptions s2_options = {}) {
  std::vector<Sample> s1;
  for (const char* b : {"B02", "B03", "B04"}) s1.push_back(FileSample(b));
  std::vector<Sample> s2;
  for (const std::string& b : s2_bands) s2.push_back(FileSample(b));
  return FolderSample(id, {FolderSample("s1", std::move(s1)), FolderSample("s2", std::move(s2), {}, s2_options)});
}

std::string PitError(std::vector<Sample> root) {
  Result<Taco> t = Taco::Make(testing::MakeTortilla(std::move(root)), testing::BaseCollection());
  EXPECT_FALSE(t.ok());
  return t.status().message();
}

TEST(PitTest, RegularDepth3) {
  std::vector<std::string> bands = {"B02", "B03", "B04"};
  Taco t =
      testing::MakeTaco(testing::MakeTortilla({Tile("tile_a", bands), Tile("tile_b", bands), Tile("tile_c", bands)}));
  EXPECT_EQ(t.num_levels(), 3);
}

TEST(PitTest, IrregularAtLevel2Fails) {
  std::vector<std::string> bands = {"B02", "B03", "B04"};
  // Level 1 is regular (every tile has s1, s2); level 2 is not.
  EXPECT_EQ(PitError({Tile("tile_a", bands), Tile("tile_b", bands), Tile("tile_c", {"B02", "B03"})}),
            "PIT: level 2: folder 'tile_c/s2' has 2 children, expected 3 (as 'tile_a/s2'); it lacks 'B04'");
  EXPECT_EQ(PitError({Tile("tile_a", bands), Tile("tile_b", {"B02", "B05", "B04"})}),
            "PIT: level 2: folder 'tile_b/s2' has id 'B05' at position 1, expected 'B03' (as 'tile_a/s2')");
}

TEST(PitTest, PaddingRepairsIrregularTree) {
  std::vector<std::string> bands = {"B02", "B03", "B04"};
  TortillaOptions pad3;
  pad3.pad_to = 3;
  Taco t = testing::MakeTaco(
      testing::MakeTortilla({Tile("tile_a", bands), Tile("tile_b", bands), Tile("tile_c", {"B02", "B03"}, pad3)}));
  const Sample& padded = t.root().samples()[2].children()->samples()[1];
  EXPECT_EQ(padded.children()->samples()[2].id(), "__TACOPAD__0");

  // A padded position matches any id: here the first folder has the padding.
  Taco t2 = testing::MakeTaco(
      testing::MakeTortilla({Tile("tile_a", {"B02", "B03"}, pad3), Tile("tile_b", bands), Tile("tile_c", bands)}));
  EXPECT_EQ(t2.num_levels(), 3);
  // ... but the real ids around it must still agree.
  EXPECT_EQ(
      PitError({Tile("tile_a", {"B02", "B03"}, pad3), Tile("tile_b", bands), Tile("tile_c", {"B02", "B03", "B09"})}),
      "PIT: level 2: folder 'tile_c/s2' has id 'B09' at position 2, expected 'B04' (as 'tile_b/s2')");
}

TEST(PitTest, TypesAndRoot) {
  EXPECT_EQ(PitError({FolderSample("f", {FileSample("x")}), FileSample("g")}),
            "PIT: level 0: sample 'g' is a FILE, expected a FOLDER (as 'f'; all root samples have one type)");
  EXPECT_EQ(PitError({FolderSample("a", {FileSample("x"), FileSample("y")}),
                      FolderSample("b", {FileSample("x"), FolderSample("y", {FileSample("z")})})}),
            "PIT: level 1: 'b/y' (position 1) is a FOLDER, expected a FILE (as 'a/y')");
  EXPECT_EQ(PitError({FolderSample("a", {FileSample("x"), FileSample("y")}), FolderSample("b", {FileSample("x")})}),
            "PIT: level 1: folder 'b' has 1 children, expected 2 (as 'a'); it lacks 'y'");
  // Padding is a FILE: it cannot stand for a missing FOLDER.
  TortillaOptions pad2;
  pad2.pad_to = 2;
  EXPECT_EQ(PitError({FolderSample("a", {FileSample("x"), FolderSample("y", {FileSample("z")})}),
                      FolderSample("b", {FileSample("x")}, {}, pad2)}),
            "PIT: level 1: 'b/__TACOPAD__0' (position 1) is a FILE, expected a FOLDER (as 'a/y')");
}

TEST(PitTest, DepthLimit) {
  Sample s = FileSample("leaf");
  for (int i = 0; i < 6; ++i) s = FolderSample(testing::Name("f", i), {s});
  Result<Taco> t = Taco::Make(testing::MakeTortilla({s}), testing::BaseCollection());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(), "taco: the tree has 7 levels, at most 6 are allowed (level0..level5)");
  Sample ok = FileSample("leaf");
  for (int i = 0; i < 5; ++i) ok = FolderSample(testing::Name("f", i), {ok});
  EXPECT_EQ(testing::MakeTaco(testing::MakeTortilla({ok})).num_levels(), 6);
}

TEST(SchemaTest, LevelSchemas) {
  auto folder = [](const std::string& id, std::vector<Field> fields, TortillaOptions o = {}) {
    return FolderSample(id, {FileSample("x", fields)}, {}, o);
  };
  EXPECT_EQ(
      PitError({folder("a", {F("k", DataType::Int64(), int64_t{1})}), folder("b", {F("k", DataType::Double(), 1.0)})}),
      "schema: level 1: extension 'k' is int64 under folder 'a' but double under folder 'b'");
  EXPECT_EQ(PitError({folder("a", {F("k", DataType::Int64(), int64_t{1})}),
                      folder("b", {F("k", DataType::Int64(), int64_t{1}), F("j", DataType::Int64(), int64_t{1})})}),
            "schema: level 1: the children of 'b' have extension columns [k: int64, j: int64], expected [k: int64] "
            "(as the children of 'a'; strict schemas must match across a level)");
  TortillaOptions loose;
  loose.strict_schema = false;
  Taco t = testing::MakeTaco(testing::MakeTortilla(
      {folder("a", {F("k", DataType::Int64(), int64_t{1})}, loose),
       folder("b", {F("k", DataType::Int64(), int64_t{1}), F("j", DataType::Int64(), int64_t{1})}, loose)}));
  EXPECT_EQ(t.num_levels(), 2);
}

}  // namespace
}  // namespace taco
