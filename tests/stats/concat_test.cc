// concat() and load(list) (FORMAT §6.1, §6.10, §9.5) on the upstream fixtures.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <cstring>
#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/model.h"
#include "taco/stats.h"
#include "taco/writer.h"

namespace taco::testing {
namespace {

std::unique_ptr<Dataset> Load(const std::string& path) {
  auto ds = Dataset::Open(path);
  EXPECT_TRUE(ds.ok()) << ds.status().ToString();
  return ds.ok() ? std::move(*ds) : nullptr;
}

std::string Copy(const TempDir& dir, const std::string& from, const std::string& name) {
  const std::string to = dir / name;
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
  return to;
}

std::vector<std::string> Strings(const Table& t, const std::string& column) {
  std::vector<std::string> out;
  for (const auto& v : t.column(column).values) out.push_back(v.is<std::string>() ? v.get<std::string>() : "<null>");
  return out;
}

std::string ConcatError(const std::vector<const Dataset*>& parts, const std::string& mode = "intersection") {
  auto r = Dataset::Concat(parts, mode);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

TEST(Concat, FlatZipWithACopy) {
  TempDir dir;
  const std::string original = UpstreamFixtures() + "/zip/flat/flat.tacozip";
  const std::string copy = Copy(dir, original, "other name.tacozip");
  auto a = Load(original);
  auto b = Load(copy);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  auto merged = Dataset::Concat({a.get(), b.get()});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  Dataset& ds = **merged;
  EXPECT_EQ(ds.format(), DatasetFormat::kZip);
  ASSERT_EQ(ds.RowCount().value_or(-1), 10);
  EXPECT_EQ(ds.collection()["taco:pit_schema"]["root"]["n"], 10);
  EXPECT_EQ(ds.collection()["id"], a->collection()["id"]);

  auto raw = ds.DataRaw();
  ASSERT_TRUE(raw.ok()) << raw.status().ToString();
  ASSERT_GE(raw->FindColumn("internal:source_path"), 0);
  const auto sources = Strings(*raw, "internal:source_path");
  const auto vsi = Strings(*raw, "internal:gdal_vsi");
  EXPECT_EQ(std::set<std::string>(sources.begin(), sources.end()),
            (std::set<std::string>{a->vsi_root(), b->vsi_root()}));
  for (size_t i = 0; i < vsi.size(); ++i) {
    EXPECT_EQ(vsi[i].rfind("/vsisubfile/", 0), 0u) << vsi[i];
    EXPECT_NE(vsi[i].find("," + sources[i]), std::string::npos) << vsi[i];
  }
  EXPECT_EQ(vsi[0], "/vsisubfile/200_16," + a->vsi_root());
  EXPECT_EQ(vsi[5], "/vsisubfile/200_16," + b->vsi_root());

  // .data keeps gdal_vsi, hides the other internal columns.
  auto data = ds.Data();
  ASSERT_TRUE(data.ok());
  EXPECT_GE(data->FindColumn("internal:gdal_vsi"), 0);
  EXPECT_LT(data->FindColumn("internal:source_path"), 0);

  // Each row reads from its own source.
  for (int64_t i : {0, 5}) {
    auto node = ds.Read(SampleKey{i});
    ASSERT_TRUE(node.ok()) << node.status().ToString();
    auto bytes = ds.ReadBytes(*node);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    EXPECT_EQ(*bytes, "content_valencia");
  }
  // The inputs may go away; the result keeps working (own engine and readers).
  a.reset();
  b.reset();
  EXPECT_EQ(ds.RowCount().value_or(-1), 10);
  auto filtered = ds.FilterBbox(-0.5, 39.3, -0.2, 39.6);
  ASSERT_TRUE(filtered.ok()) << filtered.status().ToString();
  EXPECT_EQ((*filtered)->RowCount().value_or(-1), 2);
  auto mean =
      ComputeStats(ds, StatsMeasure::kMean, StatsQuery{{0}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream});
  ASSERT_TRUE(mean.ok()) << mean.status().ToString();
  EXPECT_NEAR((*mean)[0], 138.96, 138.96 * 1e-4);
}

TEST(Concat, LevelZeroComesFromTheCurrentView) {
  const std::string flat = UpstreamFixtures() + "/zip/flat/flat.tacozip";
  auto a = Load(flat);
  ASSERT_NE(a, nullptr);
  auto two = a->Sql("SELECT * FROM data_raw WHERE cloud_cover < 20");
  ASSERT_TRUE(two.ok());
  auto merged = Dataset::Concat({a.get(), two->get()});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ((*merged)->RowCount().value_or(-1), 7);
  EXPECT_EQ((*merged)->collection()["taco:pit_schema"]["root"]["n"], 7);
  // A view without navigation columns cannot be concatenated.
  auto ids = a->Sql("SELECT id, type FROM data");
  ASSERT_TRUE(ids.ok());
  EXPECT_NE(ConcatError({a.get(), ids->get()}).find("RSUT"), std::string::npos);
}

TEST(Concat, NestedZipWithACopyNavigatesPerSource) {
  TempDir dir;
  const std::string original = UpstreamFixtures() + "/zip/nested/nested.tacozip";
  const std::string copy = Copy(dir, original, "copy.tacozip");
  auto a = Load(original);
  auto b = Load(copy);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  auto merged = Dataset::Concat({a.get(), b.get()});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  Dataset& ds = **merged;
  EXPECT_EQ(ds.RowCount().value_or(-1), 6);
  EXPECT_EQ(ds.collection()["taco:pit_schema"]["hierarchy"]["1"][0]["n"], 18);
  auto level1 = ds.QueryRaw("SELECT \"internal:source_path\", \"internal:gdal_vsi\" FROM level1");
  ASSERT_TRUE(level1.ok()) << level1.status().ToString();
  EXPECT_EQ(level1->num_rows(), 18u);
  const auto sources = Strings(*level1, "internal:source_path");
  const auto vsi = Strings(*level1, "internal:gdal_vsi");
  for (size_t i = 0; i < vsi.size(); ++i) EXPECT_NE(vsi[i].find("," + sources[i]), std::string::npos);

  auto americas = ds.ReadPath({SampleKey{int64_t{4}}});  // the copy's americas
  ASSERT_TRUE(americas.ok()) << americas.status().ToString();
  EXPECT_EQ(americas->id, "americas");
  ASSERT_NE(americas->children, nullptr);
  ASSERT_EQ(americas->children->num_rows(), 3u);
  auto child = americas->children->Read(SampleKey{int64_t{0}});
  ASSERT_TRUE(child.ok());
  EXPECT_NE(child->gdal_path.find(b->vsi_root()), std::string::npos) << child->gdal_path;
  auto bytes = americas->children->ReadBytes(SampleKey{int64_t{0}});
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(*bytes, "data_americas_0");

  // Level-1 stats join per source: the same values as one dataset.
  auto mean =
      ComputeStats(ds, StatsMeasure::kMean, StatsQuery{{0}, 1, "americas", std::nullopt, StatsMethod::kUpstream});
  ASSERT_TRUE(mean.ok()) << mean.status().ToString();
  EXPECT_NEAR((*mean)[0], (98.5 + 0.25 + 145.8) / 3, 1e-3);
}

TEST(Concat, FolderGdalPathsPerSource) {
  TempDir dir;
  const std::string original = UpstreamFixtures() + "/folder/flat";
  const std::string copy = Copy(dir, original, "flat_copy");
  auto a = Load(original);
  auto b = Load(copy);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  auto merged = Dataset::Concat({a.get(), b.get()}, "strict");
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  auto raw = (*merged)->DataRaw();
  ASSERT_TRUE(raw.ok());
  const auto vsi = Strings(*raw, "internal:gdal_vsi");
  ASSERT_EQ(vsi.size(), 10u);
  EXPECT_EQ(vsi[0], a->vsi_root() + "/DATA/sample_0");
  EXPECT_EQ(vsi[9], b->vsi_root() + "/DATA/sample_4");
  auto node = (*merged)->Read(SampleKey{int64_t{9}});
  ASSERT_TRUE(node.ok());
  auto bytes = (*merged)->ReadBytes(*node);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, "content_lima");
}

TEST(Concat, ColumnModes) {
  const std::string flat = UpstreamFixtures() + "/zip/flat/flat.tacozip";
  auto a = Load(flat);
  ASSERT_NE(a, nullptr);
  auto fewer = a->Sql("SELECT * EXCLUDE (location) FROM data_raw");
  ASSERT_TRUE(fewer.ok()) << fewer.status().ToString();
  auto intersection = Dataset::Concat({a.get(), fewer->get()});
  ASSERT_TRUE(intersection.ok()) << intersection.status().ToString();
  auto cols = (*intersection)->Columns();
  ASSERT_TRUE(cols.ok());
  EXPECT_EQ(std::count(cols->begin(), cols->end(), "location"), 0);
  EXPECT_EQ(std::count(cols->begin(), cols->end(), "cloud_cover"), 1);

  auto filled = Dataset::Concat({a.get(), fewer->get()}, "fill_missing");
  ASSERT_TRUE(filled.ok()) << filled.status().ToString();
  auto rows = (*filled)->DataRaw();
  ASSERT_TRUE(rows.ok());
  const auto locations = Strings(*rows, "location");
  EXPECT_EQ(locations[0], "valencia");
  EXPECT_EQ(locations[5], "<null>");

  EXPECT_NE(ConcatError({a.get(), fewer->get()}, "strict").find("location"), std::string::npos);
  auto no_offsets = a->Sql("SELECT * EXCLUDE (\"internal:offset\") FROM data_raw");
  ASSERT_TRUE(no_offsets.ok());
  EXPECT_FALSE(Dataset::Concat({a.get(), no_offsets->get()}, "fill_missing").ok());
}

TEST(Concat, Validation) {
  auto flat = Load(UpstreamFixtures() + "/zip/flat/flat.tacozip");
  auto nested = Load(UpstreamFixtures() + "/zip/nested/nested.tacozip");
  auto folder = Load(UpstreamFixtures() + "/folder/flat");
  ASSERT_NE(flat, nullptr);
  ASSERT_NE(nested, nullptr);
  ASSERT_NE(folder, nullptr);
  EXPECT_NE(ConcatError({flat.get(), nested.get()}).find("incompatible schema"), std::string::npos);
  EXPECT_NE(ConcatError({flat.get(), folder.get()}).find("different formats"), std::string::npos);
  EXPECT_NE(ConcatError({flat.get()}).find("at least 2"), std::string::npos);
  EXPECT_NE(ConcatError({}).find("at least 2"), std::string::npos);
  EXPECT_NE(ConcatError({flat.get(), flat.get()}, "bogus").find("Invalid column_mode"), std::string::npos);
}

TEST(Concat, OpenList) {
  TempDir dir;
  const std::string original = UpstreamFixtures() + "/zip/flat/flat.tacozip";
  const std::string copy = Copy(dir, original, "part2.tacozip");
  auto both = Dataset::OpenList({original, copy});
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ((*both)->collection()["taco:pit_schema"]["root"]["n"], 10);
  EXPECT_EQ((*both)->RowCount().value_or(-1), 10);
  auto one = Dataset::OpenList({original});
  ASSERT_TRUE(one.ok());
  EXPECT_EQ((*one)->RowCount().value_or(-1), 5);
  EXPECT_EQ((*one)->Columns()->size(), (*Load(original)->Columns()).size());
  auto empty = Dataset::OpenList({});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("empty"), std::string::npos);
  auto missing = Dataset::OpenList({original, dir / "missing.tacozip"});
  EXPECT_FALSE(missing.ok());
}

}  // namespace
}  // namespace taco::testing

namespace taco::testing {
namespace {

// Two nested datasets whose regions come in different orders, so parent ids collide across
// sources: a cascade filter on their concat must join within each source.
std::string WriteRegions(const TempDir& dir, const std::string& name, const std::vector<std::string>& order) {
  auto point = [](double lon, double lat) {
    std::string wkb(21, '\0');
    wkb[0] = 1;
    wkb[1] = 1;
    std::memcpy(&wkb[5], &lon, 8);
    std::memcpy(&wkb[13], &lat, 8);
    return wkb;
  };
  std::vector<Sample> regions;
  for (const std::string& region : order) {
    std::vector<Sample> items;
    for (int j = 0; j < 2; ++j) {
      Sample item = *Sample::FromBytes("item_" + std::to_string(j), region);
      const bool nyc = region == "americas" && j == 0;
      EXPECT_TRUE(item.Extend(Field{"stac:centroid", DataType::Binary(),
                                    Value(Binary{nyc ? point(-74.0, 40.7) : point(100.0 + j, 10.0)}), ""})
                      .ok());
      items.push_back(std::move(item));
    }
    regions.push_back(*Sample::FromTortilla(region, *Tortilla::Make(std::move(items))));
  }
  nlohmann::ordered_json collection = {{"id", "regions"},   {"dataset_version", "1"},         {"description", "d"},
                                       {"licenses", {"x"}}, {"providers", {{{"name", "p"}}}}, {"tasks", {"other"}}};
  const std::string out = dir / name;
  auto written = Create(*Taco::Make(*Tortilla::Make(std::move(regions)), collection), out);
  EXPECT_TRUE(written.ok()) << written.status().ToString();
  return out;
}

TEST(Concat, CascadeFilterJoinsWithinEachSource) {
  TempDir dir;
  auto a = Load(WriteRegions(dir, "a.tacozip", {"europe", "americas", "asia"}));
  auto b = Load(WriteRegions(dir, "b.tacozip", {"asia", "europe", "americas"}));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  auto merged = Dataset::Concat({a.get(), b.get()});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  auto nyc = (*merged)->FilterBbox(-74.2, 40.5, -73.8, 40.9, "auto", 1);
  ASSERT_TRUE(nyc.ok()) << nyc.status().ToString();
  auto rows = (*nyc)->Data();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(Strings(*rows, "id"), (std::vector<std::string>{"americas", "americas"}));
  auto node = (*nyc)->Read(SampleKey{int64_t{1}});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  ASSERT_NE(node->children, nullptr);
  EXPECT_EQ(node->children->num_rows(), 1u);
}

}  // namespace
}  // namespace taco::testing
