// taco/sample_loader.h: plans, decoding (compared with GDAL on the loose files), bands and
// windows, errors naming the sample, and the read-ahead queue's order and memory budget.
#include "taco/sample_loader.h"

#include <gdal_priv.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/demo_data.h"
#include "taco/model.h"
#include "taco/writer.h"

namespace taco {
namespace {

using testing::TempDir;

constexpr int kTiles = 6;
constexpr int kSize = 16;

// Pixels GDAL reads from a loose file: (bands, rows, cols) uint16 values widened to int.
std::vector<int> GdalPixels(const std::string& path, int band, int x, int y, int w, int h) {
  GDALAllRegister();
  std::unique_ptr<GDALDataset> ds(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
  EXPECT_NE(ds, nullptr) << path;
  std::vector<int> out(static_cast<size_t>(w) * h);
  EXPECT_EQ(ds->GetRasterBand(band + 1)->RasterIO(GF_Read, x, y, w, h, out.data(), w, h, GDT_Int32, 0, 0, nullptr),
            CE_None);
  return out;
}

template <typename T>
std::vector<int> Plane(const DecodedRaster& r, int band) {
  std::vector<int> out;
  const T* p = reinterpret_cast<const T*>(r.data.get()) + static_cast<size_t>(band) * r.rows * r.cols;
  for (int64_t i = 0; i < r.rows * r.cols; ++i) out.push_back(static_cast<int>(p[i]));
  return out;
}

class SampleLoaderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    DemoOptions demo;
    demo.tiles = kTiles;
    demo.size = kSize;
    auto tiles = SynthesizeDemoTree(*dir_ / "tree", demo);
    ASSERT_TRUE(tiles.ok()) << tiles.status().message();
    std::vector<Sample> samples;
    for (const DemoTile& t : *tiles) {
      std::vector<Sample> files;
      for (const char* name : {"before.tif", "label.tif"}) {
        auto s = Sample::FromFile(name, *dir_ / ("tree/" + t.id + "/" + name));
        ASSERT_TRUE(s.ok()) << s.status().message();
        files.push_back(std::move(*s));
      }
      auto children = Tortilla::Make(std::move(files));
      ASSERT_TRUE(children.ok());
      auto folder = Sample::FromTortilla(t.id, std::move(*children));
      ASSERT_TRUE(folder.ok());
      samples.push_back(std::move(*folder));
    }
    auto root = Tortilla::Make(std::move(samples));
    ASSERT_TRUE(root.ok());
    nlohmann::ordered_json collection = {
        {"id", "loader"},      {"dataset_version", "1"},         {"description", "loader tests"},
        {"licenses", {"MIT"}}, {"providers", {{{"name", "t"}}}}, {"tasks", {"segmentation"}}};
    auto taco = Taco::Make(std::move(*root), collection);
    ASSERT_TRUE(taco.ok()) << taco.status().message();
    auto written = Create(*taco, *dir_ / "ds.tacozip");
    ASSERT_TRUE(written.ok()) << written.status().message();
  }
  static void TearDownTestSuite() { delete dir_; }

  static std::string Loose(int tile, const std::string& name) {
    char id[16];
    std::snprintf(id, sizeof id, "tile_%02d", tile);
    return *dir_ / ("tree/" + std::string(id) + "/" + name);
  }

  std::shared_ptr<const Dataset> Open() {
    auto ds = Dataset::Open(*dir_ / "ds.tacozip");
    EXPECT_TRUE(ds.ok()) << ds.status().message();
    return std::shared_ptr<const Dataset>(std::move(*ds));
  }

  static TempDir* dir_;
};

TempDir* SampleLoaderTest::dir_ = nullptr;

TEST_F(SampleLoaderTest, DecodesWhatGdalReadsFromTheLooseFiles) {
  auto ds = Open();
  auto plan = SamplePlan::Build(*ds, {"before.tif", "label.tif"});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ((*plan)->num_rows(), static_cast<size_t>(kTiles));
  EXPECT_EQ((*plan)->location(2, 1).path, "DATA/tile_02/label.tif");
  auto decoder = SampleDecoder::Make(*plan, {});
  ASSERT_TRUE(decoder.ok());
  for (int t = 0; t < kTiles; ++t) {
    auto s = (*decoder)->Decode(t);
    ASSERT_TRUE(s.ok()) << s.status().message();
    ASSERT_EQ(s->files.size(), 2u);
    const DecodedRaster& image = s->files[0];
    EXPECT_EQ(image.name, "before.tif");
    EXPECT_EQ(image.type, PixelType::kUInt16);
    EXPECT_EQ(image.bands, 4);
    EXPECT_EQ(image.rows, kSize);
    for (int b = 0; b < 4; ++b)
      EXPECT_EQ(Plane<uint16_t>(image, b), GdalPixels(Loose(t, "before.tif"), b, 0, 0, kSize, kSize));
    EXPECT_EQ(s->files[1].type, PixelType::kUInt8);
    EXPECT_EQ(Plane<uint8_t>(s->files[1], 0), GdalPixels(Loose(t, "label.tif"), 0, 0, 0, kSize, kSize));
    EXPECT_EQ(s->nbytes, 4u * kSize * kSize * 2 + kSize * kSize);
  }
}

// A ZIP member read whole is checked against the CRC-32 of its local header, as ReadBytes
// does: one flipped payload byte is refused, naming the sample, not decoded into other pixels
// (found by scripts/mutation_campaign.py: the torch loader returned the damaged pixels).
TEST_F(SampleLoaderTest, DamagedMemberBytesAreRefusedByTheirCrc) {
  const std::string damaged = *dir_ / "damaged.tacozip";
  uint64_t offset = 0, size = 0;
  {
    auto plan = SamplePlan::Build(*Open(), {"before.tif", "label.tif"});
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    offset = (*plan)->location(2, 1).offset;
    size = (*plan)->location(2, 1).size;
  }
  std::ifstream in(*dir_ / "ds.tacozip", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A pixel byte of tile_02's label.tif: its first block, where GDAL says it is.
  uint64_t block = 0;
  {
    GDALAllRegister();
    std::unique_ptr<GDALDataset> loose(GDALDataset::Open(Loose(2, "label.tif").c_str(), GDAL_OF_RASTER));
    ASSERT_NE(loose, nullptr);
    const char* at = loose->GetRasterBand(1)->GetMetadataItem("BLOCK_OFFSET_0_0", "TIFF");
    ASSERT_NE(at, nullptr);
    block = std::stoull(at);
  }
  ASSERT_LT(block + 5, size);
  bytes[offset + block + 5] ^= 0x10;
  std::ofstream(damaged, std::ios::binary) << bytes;

  for (bool verify : {true, false}) {
    OpenOptions options;
    options.verify_crc = verify;
    auto opened = Dataset::Open(damaged, options);
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    std::shared_ptr<const Dataset> ds(std::move(*opened));
    auto plan = SamplePlan::Build(*ds, {"before.tif", "label.tif"});
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    auto decoder = SampleDecoder::Make(*plan, {});
    ASSERT_TRUE(decoder.ok());
    EXPECT_TRUE((*decoder)->Decode(1).ok());
    auto s = (*decoder)->Decode(2);
    if (verify) {
      ASSERT_FALSE(s.ok());
      EXPECT_EQ(s.status().code(), StatusCode::kCorruption);
      EXPECT_NE(s.status().message().find("sample 'tile_02' (row 2), file 'label.tif': CRC-32 mismatch"),
                std::string::npos)
          << s.status().message();
    } else if (s.ok()) {  // the opt-out hands GDAL what is stored: other pixels ...
      EXPECT_NE(Plane<uint8_t>(s->files[1], 0), GdalPixels(Loose(2, "label.tif"), 0, 0, 0, kSize, kSize));
    } else {  // ... or a block GDAL cannot decode (a compressed strip), not a CRC error
      EXPECT_EQ(s.status().message().find("CRC-32"), std::string::npos) << s.status().message();
    }
  }
}

TEST_F(SampleLoaderTest, BandsWindowsAndTypes) {
  auto ds = Open();
  auto plan = SamplePlan::Build(*ds, {"before.tif"});
  ASSERT_TRUE(plan.ok());
  RasterSelection sel;
  sel.bands = {3, 1};
  sel.window = PixelWindow{2, 5, 7, 4};
  sel.type = PixelType::kTorch;
  auto decoder = SampleDecoder::Make(*plan, {sel});
  ASSERT_TRUE(decoder.ok());
  auto s = (*decoder)->Decode(1);
  ASSERT_TRUE(s.ok()) << s.status().message();
  const DecodedRaster& r = s->files[0];
  EXPECT_EQ(r.type, PixelType::kInt32);  // uint16 widened for PyTorch
  EXPECT_EQ(r.bands, 2);
  EXPECT_EQ(r.rows, 4);
  EXPECT_EQ(r.cols, 7);
  EXPECT_EQ(Plane<int32_t>(r, 0), GdalPixels(Loose(1, "before.tif"), 3, 2, 5, 7, 4));
  EXPECT_EQ(Plane<int32_t>(r, 1), GdalPixels(Loose(1, "before.tif"), 1, 2, 5, 7, 4));

  sel.bands = {4};
  auto bad = SampleDecoder::Make(*plan, {sel});
  ASSERT_TRUE(bad.ok());
  auto e = (*bad)->Decode(3);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("sample 'tile_03' (row 3), file 'before.tif': band 4 is out of range (the "
                                      "raster has 4 bands: 0..3, 0-based)"),
            std::string::npos)
      << e.status().message();
  sel.bands = {};
  sel.window = PixelWindow{10, 0, 7, 1};
  auto outside = SampleDecoder::Make(*plan, {sel});
  ASSERT_TRUE(outside.ok());
  EXPECT_NE((*outside)->Decode(0).status().message().find("is not inside the raster (16 x 16 pixels)"),
            std::string::npos);
  EXPECT_EQ((*outside)->Decode(kTiles).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(SampleLoaderTest, PlanErrorsNameTheSampleAndWhatItHolds) {
  auto ds = Open();
  auto missing = SamplePlan::Build(*ds, {"after.tif"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("sample 'tile_00' (row 0) has no file 'after.tif' (its files: before.tif, "
                                            "label.tif)"),
            std::string::npos)
      << missing.status().message();
  auto flat = SamplePlan::Build(*ds, {});
  ASSERT_FALSE(flat.ok());
  EXPECT_NE(flat.status().message().find("is a FOLDER: name the FILE children"), std::string::npos);
  EXPECT_FALSE(SamplePlan::Build(*ds, {"a//b"}).ok());
  EXPECT_FALSE(SamplePlan::Build(*ds, {"label.tif", "label.tif"}).ok());
}

TEST_F(SampleLoaderTest, ReadAheadKeepsTheOrderAndTheBudget) {
  auto ds = Open();
  auto plan = SamplePlan::Build(*ds, {"before.tif", "label.tif"});
  ASSERT_TRUE(plan.ok());
  auto decoder = SampleDecoder::Make(*plan, {});
  ASSERT_TRUE(decoder.ok());
  const size_t per_sample = 4u * kSize * kSize * 2 + kSize * kSize;
  std::vector<int64_t> rows = {5, 0, 3, 3, 1, 4, 2};
  ReadAheadOptions o;
  o.threads = 2;
  o.memory_budget = 2 * per_sample;
  ReadAhead queue(*decoder, rows, o);
  std::vector<int64_t> got;
  while (true) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // a slow consumer
    auto next = queue.Next();
    ASSERT_TRUE(next.ok()) << next.status().message();
    if (!*next) break;
    got.push_back((*next)->row);
  }
  EXPECT_EQ(got, rows);
  EXPECT_GE(queue.peak_held_bytes(), per_sample);
  EXPECT_LE(queue.peak_held_bytes(), o.memory_budget + 2 * per_sample);  // budget + one per thread
  EXPECT_EQ(queue.held_bytes(), 0u);

  // Errors arrive at their row, in order; the rows after them still come.
  ReadAhead with_error(*decoder, {0, 99, 1}, o);
  auto a = with_error.Next();
  ASSERT_TRUE(a.ok() && *a);
  auto b = with_error.Next();
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("row 99 is out of range"), std::string::npos);
  auto c = with_error.Next();
  ASSERT_TRUE(c.ok() && *c);
  EXPECT_EQ((*c)->row, 1);

  // No threads: decoded on the caller's thread; an abandoned queue stops cleanly.
  o.threads = 0;
  ReadAhead inline_queue(*decoder, {2}, o);
  auto d = inline_queue.Next();
  ASSERT_TRUE(d.ok() && *d);
  o.threads = 3;
  { ReadAhead abandoned(*decoder, rows, o); }
}

// DecodeInto writes a file into its slot when type and shape match, else into a buffer of
// its own; a targeted ReadAhead decodes a row only once its slots are provided.
TEST_F(SampleLoaderTest, DecodeIntoSlotsAndTargetedReadAhead) {
  auto ds = Open();
  auto plan = SamplePlan::Build(*ds, {"before.tif", "label.tif"});
  ASSERT_TRUE(plan.ok());
  RasterSelection image;
  image.type = PixelType::kInt32;
  image.window = PixelWindow{1, 2, 5, 3};
  RasterSelection label;
  auto decoder = SampleDecoder::Make(*plan, {image, label});
  ASSERT_TRUE(decoder.ok());
  constexpr size_t kImage = 4 * 3 * 5;  // int32 pixels of the window, all bands
  std::vector<int32_t> slots(3 * kImage, -7);
  std::vector<uint8_t> labels(kSize * kSize, 0);
  auto slot = [&](size_t i) {
    return DecodeTarget{reinterpret_cast<std::byte*>(slots.data() + i * kImage), PixelType::kInt32, 4, 3, 5};
  };
  auto check_slot = [&](size_t i, int tile) {
    for (int b = 0; b < 4; ++b) {
      std::vector<int> plane(slots.begin() + static_cast<std::ptrdiff_t>(i * kImage + b * 15),
                             slots.begin() + static_cast<std::ptrdiff_t>(i * kImage + (b + 1) * 15));
      EXPECT_EQ(plane, GdalPixels(Loose(tile, "before.tif"), b, 1, 2, 5, 3)) << "slot " << i << " band " << b;
    }
  };
  // The image fits its slot; the label's slot has the wrong type: a buffer of its own.
  DecodeTarget wrong_type{reinterpret_cast<std::byte*>(labels.data()), PixelType::kUInt16, 1, kSize, kSize};
  auto s = (*decoder)->DecodeInto(3, {slot(1), wrong_type});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_TRUE(s->files[0].in_target);
  EXPECT_EQ(s->files[0].data, nullptr);
  EXPECT_FALSE(s->files[1].in_target);
  ASSERT_NE(s->files[1].data, nullptr);
  EXPECT_EQ(labels, std::vector<uint8_t>(kSize * kSize, 0));  // untouched
  check_slot(1, 3);
  EXPECT_EQ(slots[0], -7);  // the neighbours are untouched
  EXPECT_EQ(slots[2 * kImage], -7);
  // Another shape (3 bands expected): not written.
  DecodeTarget wrong_shape = slot(2);
  wrong_shape.bands = 3;
  s = (*decoder)->DecodeInto(0, {wrong_shape, DecodeTarget{}});
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->files[0].in_target);
  EXPECT_EQ(slots[2 * kImage], -7);
  EXPECT_FALSE((*decoder)->DecodeInto(0, {slot(0)}).ok());  // one target per file

  for (int threads : {0, 2}) {
    std::fill(slots.begin(), slots.end(), -7);
    ReadAheadOptions o;
    o.threads = threads;
    o.targeted = true;
    ReadAhead queue(*decoder, {4, 0, 5}, o);
    if (threads > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      EXPECT_EQ(slots[0], -7) << "decoded before its slot was provided";
    }
    auto early = queue.Next();
    ASSERT_FALSE(early.ok());
    EXPECT_NE(early.status().message().find("were not provided"), std::string::npos);
    ASSERT_TRUE(queue.Provide({{slot(0), DecodeTarget{}}, {slot(1), DecodeTarget{}}}).ok());
    ASSERT_TRUE(queue.Provide({{}}).ok());   // the last row: buffers of its own
    EXPECT_FALSE(queue.Provide({{}}).ok());  // beyond the last row
    for (size_t i = 0; i < 3; ++i) {
      auto next = queue.Next();
      ASSERT_TRUE(next.ok() && *next) << (next.ok() ? "end" : next.status().message());
      EXPECT_EQ((*next)->files[0].in_target, i < 2);
      EXPECT_EQ(queue.taken(), i + 1);
    }
    check_slot(0, 4);
    check_slot(1, 0);
    EXPECT_EQ(slots[2 * kImage], -7);
  }
}

TEST(PixelTypeTest, NamesRoundTrip) {
  for (const char* name : {"uint8", "uint16", "int16", "uint32", "int32", "float32", "float64", "native", "torch"}) {
    auto t = ParsePixelType(name);
    ASSERT_TRUE(t.ok()) << name;
    EXPECT_EQ(PixelTypeName(*t), name);
  }
  EXPECT_EQ(*ParsePixelType("float"), PixelType::kFloat32);
  auto bad = ParsePixelType("uint7");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("is not one of native, torch, uint8"), std::string::npos);
}

}  // namespace
}  // namespace taco
