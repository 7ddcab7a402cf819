// Reading synthesised legacy files (spec/LEGACY.md §12.2) through the Dataset API.
#include <gtest/gtest.h>

#include <gdal_priv.h>

#include <filesystem>

#include "legacy/legacy_files.h"
#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/legacy.h"

namespace taco::testing {
namespace {

std::unique_ptr<Dataset> OpenOrDie(const std::string& path) {
  auto ds = Dataset::Open(path);
  EXPECT_TRUE(ds.ok()) << ds.status().ToString();
  if (!ds.ok()) return nullptr;
  return std::move(*ds);
}

int64_t Count(Dataset& ds, const std::string& sql) {
  auto t = ds.QueryRaw(sql);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? t->columns[0].values[0].get<int64_t>() : -1;
}

int FirstPixel(const std::string& gdal_path) {
  GDALAllRegister();
  GDALDataset* ds = static_cast<GDALDataset*>(GDALOpen(gdal_path.c_str(), GA_ReadOnly));
  if (ds == nullptr) return -1;
  uint8_t px = 0;
  CPLErr err = ds->GetRasterBand(1)->RasterIO(GF_Read, 3, 3, 1, 1, &px, 1, 1, GDT_Byte, 0, 0, nullptr);
  GDALClose(ds);
  return err == CE_None ? px : -2;
}

TEST(LegacyRead, TacoV1LevelsAndLayout) {
  auto ds = OpenOrDie(Files().taco);
  ASSERT_NE(ds, nullptr);
  EXPECT_EQ(ds->format(), DatasetFormat::kLegacy);
  ASSERT_NE(ds->legacy(), nullptr);
  EXPECT_EQ(ds->legacy()->Describe(), "TACO v1 (WX)");
  EXPECT_EQ(ds->num_levels(), 3);
  EXPECT_EQ(ds->collection()["id"], "demo");
  EXPECT_EQ(Count(*ds, "SELECT count(*) FROM level0"), 3);
  EXPECT_EQ(Count(*ds, "SELECT count(*) FROM level1"), 9);
  EXPECT_EQ(Count(*ds, "SELECT count(*) FROM level2"), 6);
  auto cols = ds->Columns();
  ASSERT_TRUE(cols.ok());
  for (const char* c : {"id", "type", "tortilla:id", "tortilla:file_format", "tortilla:offset", "tortilla:length",
                        "tortilla:data_split", "stac:centroid", "rai:ele", "internal:gdal_vsi"}) {
    EXPECT_NE(std::find(cols->begin(), cols->end(), c), cols->end()) << c;
  }
  EXPECT_EQ(std::find(cols->begin(), cols->end(), "__index_level_0__"), cols->end());
  // Absolute offsets: s1 is at 200, its first child at 200 + 200.
  auto t = ds->QueryRaw("SELECT \"tortilla:offset\", type FROM level1 WHERE id = 'image' ORDER BY 1 LIMIT 1");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->columns[0].values[0].get<int64_t>(), 400);
  EXPECT_EQ(t->columns[1].values[0].get<std::string>(), "FILE");
}

TEST(LegacyRead, NavigationReachesNestedGeoTiffsThroughGdal) {
  for (const std::string& path : {Files().taco, Files().tortilla, Files().part0}) {
    auto ds = OpenOrDie(path);
    ASSERT_NE(ds, nullptr);
    for (int k = 0; k < 3; ++k) {
      std::string id = "s";
      id += std::to_string(k + 1);
      auto image = ds->ReadPath({SampleKey(id), SampleKey(std::string("image"))});
      ASSERT_TRUE(image.ok()) << path << " " << image.status().ToString();
      EXPECT_EQ(FirstPixel(image->gdal_path), 10 * k + 1) << image->gdal_path;
      auto a = ds->ReadPath({SampleKey(id), SampleKey(std::string("sub")), SampleKey(std::string("a"))});
      ASSERT_TRUE(a.ok()) << a.status().ToString();
      EXPECT_EQ(a->level, 2);
      EXPECT_EQ(FirstPixel(a->gdal_path), 10 * k + 2) << a->gdal_path;
      auto b = ds->ReadPath({SampleKey(id), SampleKey(int64_t{2}), SampleKey(int64_t{1})});
      ASSERT_TRUE(b.ok());
      auto bytes = ds->ReadBytes(*b);
      ASSERT_TRUE(bytes.ok());
      EXPECT_EQ(*bytes, Files().sub_b[static_cast<size_t>(k)]);
      auto notes = ds->ReadPath({SampleKey(id), SampleKey(std::string("notes"))});
      ASSERT_TRUE(notes.ok());
      EXPECT_EQ(*ds->ReadBytes(*notes), Files().notes[static_cast<size_t>(k)]);
    }
  }
}

TEST(LegacyRead, OpeningAnyPartOpensTheSet) {
  for (const std::string& path : {Files().part0, Files().part1}) {
    auto ds = OpenOrDie(path);
    ASSERT_NE(ds, nullptr);
    EXPECT_EQ(ds->legacy()->Describe(), "TACO v1 (WX), 2 parts");
    EXPECT_EQ(*ds->RowCount(), 3);
    auto s3 = ds->Read(SampleKey(std::string("s3")));
    ASSERT_TRUE(s3.ok());
    EXPECT_NE(s3->gdal_path.find("demo.0001.part.taco"), std::string::npos) << s3->gdal_path;
    EXPECT_EQ(s3->gdal_path.rfind("/vsisubfile/200_", 0), 0u) << s3->gdal_path;
  }
  auto one_based = OpenOrDie(Files().part1_2);
  ASSERT_NE(one_based, nullptr);
  EXPECT_TRUE(one_based->legacy()->one_based);
  EXPECT_EQ(one_based->legacy()->Describe(), "Tortilla 0.5 (#y), 2 parts");
  EXPECT_EQ(*one_based->RowCount(), 3);
}

TEST(LegacyRead, MissingPartIsNamed) {
  TempDir dir;
  std::filesystem::copy_file(Files().part0, dir / "demo.0000.part.taco");
  auto ds = Dataset::Open(dir / "demo.0000.part.taco");
  ASSERT_FALSE(ds.ok());
  EXPECT_EQ(ds.status().code(), StatusCode::kNotFound);
  EXPECT_NE(ds.status().message().find("demo.0001.part.taco: missing part 1 of 2"), std::string::npos)
      << ds.status().ToString();
}

TEST(LegacyRead, P2LayoutAndP0Prototype) {
  auto t = OpenOrDie(Files().p2_tortilla);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->legacy()->Describe(), "Tortilla P2 (#y, driver GTiff)");
  auto rows = t->QueryRaw("SELECT DISTINCT \"tortilla:file_format\", type FROM level0");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->num_rows(), 1u);
  EXPECT_EQ(rows->columns[0].values[0].get<std::string>(), "GTiff");
  auto tile = t->Read(SampleKey(std::string("tile_2")));
  ASSERT_TRUE(tile.ok());
  EXPECT_EQ(FirstPixel(tile->gdal_path), 21);
  auto taco = OpenOrDie(Files().p2_taco);
  ASSERT_NE(taco, nullptr);
  EXPECT_EQ(taco->legacy()->Describe(), "TACO v1 P2 (#y + collection)");
  EXPECT_EQ(taco->collection()["id"], "demo");

  auto proto = Dataset::Open(Files().proto);
  ASSERT_FALSE(proto.ok());
  EXPECT_EQ(proto.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(proto.status().message().find("50-byte-header Tortilla prototype"), std::string::npos)
      << proto.status().ToString();
}

TEST(LegacyRead, FiltersOnWktCentroidsAndSeconds) {
  auto ds = OpenOrDie(Files().taco);
  ASSERT_NE(ds, nullptr);
  auto near = ds->FilterBbox(-3.8, 40.3, -3.6, 40.5);
  ASSERT_TRUE(near.ok()) << near.status().ToString();
  auto rows = (*near)->Data();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->num_rows(), 1u);
  EXPECT_EQ(rows->column("id").values[0].get<std::string>(), "s1");
  auto feb = ds->FilterDatetime("2021-02-01/2021-02-28");
  ASSERT_TRUE(feb.ok()) << feb.status().ToString();
  auto feb_rows = (*feb)->Data();
  ASSERT_EQ(feb_rows->num_rows(), 1u);
  EXPECT_EQ(feb_rows->column("id").values[0].get<std::string>(), "s2");
  auto split = ds->Sql("SELECT id FROM data WHERE \"tortilla:data_split\" = 'validation'");
  ASSERT_TRUE(split.ok());
  EXPECT_EQ((*split)->Data()->column("id").values[0].get<std::string>(), "s3");
}

TEST(LegacyRead, ChainedFooterIsFollowed) {
  auto ds = OpenOrDie(Files().chain);
  ASSERT_NE(ds, nullptr);
  EXPECT_EQ(ds->legacy()->chained_footers, 2);
  EXPECT_EQ(ds->legacy()->Describe(), "TACO v1 (WX), chained footer of 3 files");
  EXPECT_EQ(Count(*ds, "SELECT count(*) FROM footer_chain1"), 3);
  EXPECT_EQ(Count(*ds, "SELECT sum(root) FROM footer_chain2"), 3);
  EXPECT_EQ(*ds->RowCount(), 3);
}

TEST(LegacyRead, DetectsByMagicWhateverTheName) {
  TempDir dir;
  std::filesystem::copy_file(Files().taco, dir / "renamed.bin");
  auto ds = OpenOrDie(dir / "renamed.bin");
  ASSERT_NE(ds, nullptr);
  EXPECT_EQ(ds->format(), DatasetFormat::kLegacy);
}

}  // namespace
}  // namespace taco::testing
