// BuildTacollection / CreateTacollection (FORMAT §5.3): summed pit counts, merged extents,
// taco:sources, validation errors.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/paths.h"
#include "taco/tacocat.h"
#include "taco/writer.h"
#include "tacocat/tacocat_test_util.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using tacocattest::DefaultRegions;
using tacocattest::WriteParts;
using testing::ReadFile;
using testing::TempDir;

TEST(TacollectionTest, SumsCountsMergesExtentsListsSources) {
  TempDir dir;
  auto parts = WriteParts(dir.path(), DefaultRegions());
  ASSERT_EQ(parts.size(), 4u);
  auto c = BuildTacollection(parts);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const auto& j = *c;
  EXPECT_EQ(j["id"], "tacocat_test");
  EXPECT_EQ(j["taco:pit_schema"]["root"]["n"], 4);
  EXPECT_EQ(j["taco:pit_schema"]["root"]["type"], "FOLDER");
  EXPECT_EQ(j["taco:pit_schema"]["hierarchy"]["1"][0]["n"], 12);
  EXPECT_EQ(j["taco:pit_schema"]["hierarchy"]["1"][0]["id"], (nlohmann::ordered_json{"item_0", "item_1", "item_2"}));
  // Regions: (10,47.5) (-70,-12) (139.7,35.6) (20,-5); times 2023-01-01 .. 2023-12-31.
  EXPECT_EQ(j["extent"]["spatial"], (nlohmann::ordered_json{-70.0, -12.0, 139.7, 47.5}));
  EXPECT_EQ(j["extent"]["temporal"], (nlohmann::ordered_json{"2022-06-15T00:00:00Z", "2023-12-31T00:00:00Z"}));

  const auto& sources = j["taco:sources"];
  EXPECT_EQ(sources["count"], 4);
  EXPECT_EQ(sources["ids"], (nlohmann::ordered_json{"tacocat_test", "tacocat_test", "tacocat_test", "tacocat_test"}));
  EXPECT_EQ(sources["files"][0], "ds_part0001.tacozip");
  EXPECT_EQ(sources["files"][3], "ds_part0004.tacozip");
  ASSERT_EQ(sources["extents"].size(), 4u);
  EXPECT_EQ(sources["extents"][1]["file"], "ds_part0002.tacozip");
  EXPECT_EQ(sources["extents"][1]["id"], "tacocat_test");
  EXPECT_EQ(sources["extents"][1]["spatial"], (nlohmann::ordered_json{-70.0, -12.0, -70.0, -12.0}));
  EXPECT_EQ(sources["extents"][1]["temporal"],
            (nlohmann::ordered_json{"2023-03-01T00:00:00Z", "2023-03-01T00:00:00Z"}));
  // The field schema is the (identical) one of the inputs.
  EXPECT_TRUE(j.contains("taco:field_schema"));
}

TEST(TacollectionTest, WritesFileAtomically) {
  TempDir dir;
  auto parts = WriteParts(dir.path(), DefaultRegions());
  const std::string out = dir / "TACOLLECTION.json";
  ASSERT_TRUE(CreateTacollection(parts, out).ok());
  auto j = nlohmann::ordered_json::parse(ReadFile(out));
  EXPECT_EQ(j["taco:sources"]["count"], 4);
  Status again = CreateTacollection(parts, out);
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists) << again.ToString();
  // A failure leaves nothing behind.
  Status bad = CreateTacollection({parts[0], dir / "missing.tacozip"}, dir / "other.json");
  EXPECT_FALSE(bad.ok());
  EXPECT_FALSE(fs::exists(dir / "other.json"));
}

TEST(TacollectionTest, PitAndFieldMismatchesAreErrors) {
  TempDir dir;
  auto regions = DefaultRegions();
  CreateOptions no_split;
  no_split.split_size = 0;
  ASSERT_TRUE(Create(tacocattest::NestedTaco({regions[0]}), dir / "a.tacozip", no_split).ok());
  ASSERT_TRUE(Create(tacocattest::NestedTaco({regions[1]}, DataType::String()), dir / "b.tacozip", no_split).ok());
  // A flat dataset: different pit structure.
  Sample flat = *Sample::FromBytes("only", "bytes");
  auto flat_taco = Taco::Make(*Tortilla::Make({flat}), {{"id", "flat"},
                                                        {"dataset_version", "1"},
                                                        {"description", "d"},
                                                        {"licenses", {"x"}},
                                                        {"providers", {{{"name", "p"}}}},
                                                        {"tasks", {"classification"}}});
  ASSERT_TRUE(flat_taco.ok()) << flat_taco.status().ToString();
  ASSERT_TRUE(Create(*flat_taco, dir / "flat.tacozip", no_split).ok());

  auto pit = BuildTacollection({dir / "a.tacozip", dir / "flat.tacozip"});
  ASSERT_FALSE(pit.ok());
  EXPECT_NE(pit.status().message().find("flat.tacozip"), std::string::npos) << pit.status().ToString();
  EXPECT_NE(pit.status().message().find("taco:pit_schema"), std::string::npos) << pit.status().ToString();

  auto fields = BuildTacollection({dir / "a.tacozip", dir / "b.tacozip"});
  ASSERT_FALSE(fields.ok());
  EXPECT_NE(fields.status().message().find("b.tacozip"), std::string::npos) << fields.status().ToString();
  EXPECT_NE(fields.status().message().find("taco:field_schema"), std::string::npos) << fields.status().ToString();

  TacollectionOptions lax;
  lax.validate_fields = false;
  auto merged = BuildTacollection({dir / "a.tacozip", dir / "b.tacozip"}, lax);
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ((*merged)["taco:pit_schema"]["root"]["n"], 2);
}

}  // namespace
}  // namespace taco
