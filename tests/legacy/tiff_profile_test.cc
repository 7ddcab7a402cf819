// `taco validate --tiff-profile`: the TACO-optimised GeoTIFF profile, member by member.
#include <gtest/gtest.h>

#include <gdal_priv.h>

#include <filesystem>

#include "support/paths.h"

namespace taco::testing {
namespace {

// A 600x600 GeoTIFF with `bands` bands written by GDAL with creation options `options`.
void Tiff(const std::string& path, int bands, std::vector<std::string> options, bool overviews = false) {
  GDALAllRegister();
  CPLStringList opts;
  for (const auto& o : options) opts.AddString(o.c_str());
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("GTiff");
  GDALDataset* ds = driver->Create(path.c_str(), 600, 600, bands, GDT_Byte, opts.List());
  ASSERT_NE(ds, nullptr) << path;
  double gt[6] = {440000, 10, 0, 4480000, 0, -10};
  ds->SetGeoTransform(gt);
  std::vector<uint8_t> px(600 * 600, 7);
  for (int b = 1; b <= bands; ++b) {
    ASSERT_EQ(ds->GetRasterBand(b)->RasterIO(GF_Write, 0, 0, 600, 600, px.data(), 600, 600, GDT_Byte, 0, 0, nullptr),
              CE_None);
  }
  if (overviews) {
    int levels[1] = {2};
    ASSERT_EQ(ds->BuildOverviews("NEAREST", 1, levels, 0, nullptr, nullptr, nullptr), CE_None);
  }
  GDALClose(ds);
}

TEST(TiffProfile, EachDepartureIsNamedPerMember) {
  TempDir dir;
  std::filesystem::create_directories(dir / "src/t");
  const std::vector<std::string> tog = {"TILED=YES", "BLOCKXSIZE=512", "BLOCKYSIZE=512", "COMPRESS=ZSTD"};
  Tiff(dir / "src/t/good.tif", 1, tog);
  Tiff(dir / "src/t/striped.tif", 1, {"COMPRESS=DEFLATE"});
  auto pixel = tog;
  pixel.push_back("INTERLEAVE=PIXEL");
  Tiff(dir / "src/t/pixel.tif", 2, pixel);
  auto band = tog;
  band.push_back("INTERLEAVE=BAND");
  Tiff(dir / "src/t/band.tif", 2, band);
  Tiff(dir / "src/t/ovr.tif", 1, tog, /*overviews=*/true);
  auto small = tog;
  small[1] = "BLOCKXSIZE=256";
  small[2] = "BLOCKYSIZE=256";
  Tiff(dir / "src/t/small.tif", 1, small);
  WriteFile(dir / "src/t/notes.txt", "not a tiff");
  WriteFile(dir / "c.json", R"({"id": "tiffs", "dataset_version": "1", "description": "d", "licenses": ["MIT"],
    "providers": [{"name": "me"}], "tasks": ["classification"]})");
  CommandResult r = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(dir / "ds.tacozip") +
                            " --collection " + ShellQuote(dir / "c.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(dir / "ds.taco") +
              " --format taco-v1 --collection " + ShellQuote(dir / "c.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& ds : {dir / "ds.tacozip", dir / "ds.taco"}) {
    r = RunTaco("validate --tiff-profile " + ShellQuote(ds));
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    auto has = [&](const std::string& id, const std::string& found) {
      for (size_t pos = r.out.find("tiff-profile  level 1 sample '" + id + "'"); pos != std::string::npos;
           pos = r.out.find("tiff-profile  level 1 sample '" + id + "'", pos + 1)) {
        const std::string line = r.out.substr(pos, r.out.find('\n', pos) - pos);
        if (line.find(found) != std::string::npos) return true;
      }
      return false;
    };
    EXPECT_TRUE(has("striped.tif", "strips (not tiled) (expected tiled)")) << r.out;
    EXPECT_TRUE(has("striped.tif", "compression DEFLATE (expected ZSTD)")) << r.out;
    EXPECT_TRUE(has("pixel.tif", "PIXEL interleave (2 bands) (expected TILE interleave)")) << r.out;
    EXPECT_TRUE(has("band.tif", "BAND interleave")) << r.out;
    EXPECT_TRUE(has("ovr.tif", "overviews (300x300")) << r.out;
    EXPECT_TRUE(has("small.tif", "blocks 256x256 (expected 512x512 blocks)")) << r.out;
    EXPECT_EQ(r.out.find("sample 'good.tif'"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("sample 'notes.txt'"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("note: tiff-profile: 6 GeoTIFF members checked, 1 other FILE samples skipped"),
              std::string::npos)
        << r.out;
  }
  // Without the flag the profile is not checked.
  r = RunTaco("validate " + ShellQuote(dir / "ds.tacozip"));
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

}  // namespace
}  // namespace taco::testing
