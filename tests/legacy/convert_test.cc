// Writing legacy files and converting both ways (spec/LEGACY.md §13): structure checked by
// the independent checker, round trips v1 → 2.0 → v1 keep every sample's bytes and every
// mapped column.
#include <gtest/gtest.h>

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
  return ds.ok() ? std::move(*ds) : nullptr;
}

// Every level's rows on the mapped columns, in order, with each FILE's bytes.
std::string Fingerprint(Dataset& ds) {
  std::string out;
  for (int level = 0; level < ds.num_levels(); ++level) {
    auto cols = ds.QueryRaw("SELECT * FROM level" + std::to_string(level) + " LIMIT 0");
    std::string select;
    for (const char* c : {"id", "type", "tortilla:id", "tortilla:file_format", "tortilla:data_split", "stac:crs",
                          "stac:geotransform", "stac:raster_shape", "stac:time_start", "stac:time_end", "stac:centroid",
                          "rai:ele", "bands", "kind", "internal:gdal_vsi"}) {
      if (cols->FindColumn(c) >= 0) select += std::string(select.empty() ? "" : ", ") + "\"" + c + "\"";
    }
    auto t =
        ds.QueryRaw("SELECT " + select + " FROM level" + std::to_string(level) + " ORDER BY \"internal:current_id\"");
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    if (!t.ok()) return out;
    out += "level " + std::to_string(level) + "\n";
    for (size_t i = 0; i < t->num_rows(); ++i) {
      for (const Column& c : t->columns) {
        if (c.name == "internal:gdal_vsi") {
          if (t->column("type").values[i].get<std::string>() == "FILE") {
            auto sub = ParseVsiSubfile(c.values[i].get<std::string>());
            auto bytes = ReadRange(sub->root, sub->offset, sub->size);
            out += " bytes=" + std::to_string(std::hash<std::string>{}(*bytes)) + "/" + std::to_string(bytes->size());
          }
          continue;
        }
        out += " " + c.name + "=" + c.values[i].ToString();
      }
      out += "\n";
    }
  }
  return out;
}

TEST(LegacyConvert, RoundTripV1ToZipToV1KeepsBytesAndColumns) {
  TempDir dir;
  std::vector<std::string> notes;
  auto zip = ConvertLegacy(Files().taco, dir / "demo.tacozip", {}, &notes);
  ASSERT_TRUE(zip.ok()) << zip.status().ToString();
  EXPECT_FALSE(notes.empty());
  auto z = OpenOrDie(dir / "demo.tacozip");
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->format(), DatasetFormat::kZip);
  EXPECT_EQ(z->num_levels(), 3);
  EXPECT_TRUE(z->collection().contains("legacy:collection"));
  EXPECT_EQ(z->collection()["tasks"][0], "segmentation");
  // 2.0 mapping: split, tensor_shape, timestamps, WKB centroid, invented time_middle.
  auto cols = z->Columns();
  for (const char* c : {"split", "stac:tensor_shape", "stac:time_middle", "tortilla:id", "tortilla:file_format"}) {
    EXPECT_NE(std::find(cols->begin(), cols->end(), c), cols->end()) << c;
  }
  auto image = z->ReadPath({SampleKey(std::string("s2")), SampleKey(std::string("image"))});
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(*z->ReadBytes(*image), Files().image[1]);

  auto back = ConvertLegacy(dir / "demo.tacozip", dir / "back.taco");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  const std::string bytes = ReadFile(dir / "back.taco");
  EXPECT_EQ(CheckLegacyStructure(bytes), std::vector<std::string>{});
  auto original = OpenOrDie(Files().taco);
  auto again = OpenOrDie(dir / "back.taco");
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(Fingerprint(*again), Fingerprint(*original));
  // The COLLECTION comes back byte for byte (the v1 object was kept in legacy:collection).
  const std::string original_bytes = ReadFile(Files().taco);
  EXPECT_EQ(bytes.substr(U64At(bytes, 26)), original_bytes.substr(U64At(original_bytes, 26)));
}

TEST(LegacyConvert, TortillaAndMultiPartInputs) {
  TempDir dir;
  auto folder = ConvertLegacy(Files().tortilla, dir / "t_folder");
  ASSERT_TRUE(folder.ok()) << folder.status().ToString();
  auto f = OpenOrDie(dir / "t_folder");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->collection()["id"], "demo");  // invented from the file name
  EXPECT_EQ(f->collection()["licenses"][0], "unknown");
  auto merged = ConvertLegacy(Files().part1, dir / "merged.tacozip");
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ(*OpenOrDie(dir / "merged.tacozip")->RowCount(), 3);

  LegacyConvertOptions split;
  split.split_size = 1;  // one ZIP per sample, plus .tacocat/
  auto parts = ConvertLegacy(Files().part0, dir / "cat/p.tacozip", split);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_EQ(parts->size(), 3u);
  auto cat = OpenOrDie(dir / "cat");
  ASSERT_NE(cat, nullptr);
  EXPECT_EQ(cat->format(), DatasetFormat::kTacocat);
  EXPECT_EQ(*cat->RowCount(), 3);

  // v1 → v1 in parts: the writer's output passes the independent checker, part by part.
  LegacyConvertOptions in_parts;
  in_parts.part_size = 1;
  auto written = ConvertLegacy(Files().taco, dir / "x.taco", in_parts);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ASSERT_EQ(written->size(), 3u);
  EXPECT_EQ((*written)[0], dir / "x.0000.part.taco");
  for (const std::string& p : *written) {
    const std::string b = ReadFile(p);
    EXPECT_EQ(CheckLegacyStructure(b), std::vector<std::string>{}) << p;
    EXPECT_EQ(U64At(b, 18), 3u) << p;  // DP
  }
  auto reopened = OpenOrDie((*written)[1]);
  ASSERT_NE(reopened, nullptr);
  EXPECT_EQ(reopened->legacy()->Describe(), "TACO v1 (WX), 3 parts");
  EXPECT_EQ(Fingerprint(*reopened).size() > 0, true);
}

TEST(LegacyConvert, ZipToV1AndTortilla) {
  TempDir dir;
  const std::string nested = UpstreamFixtures() + "/zip/nested/nested.tacozip";
  for (const char* name : {"n.taco", "n.tortilla"}) {
    auto written = ConvertLegacy(nested, dir / name);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    const std::string b = ReadFile(dir / name);
    EXPECT_EQ(CheckLegacyStructure(b), std::vector<std::string>{}) << name;
    EXPECT_EQ(b.substr(0, 2), std::string(name) == "n.taco" ? "WX" : "#y");
    auto ds = OpenOrDie(dir / name);
    ASSERT_NE(ds, nullptr);
    auto src = OpenOrDie(nested);
    EXPECT_EQ(*ds->RowCount(), *src->RowCount());
    EXPECT_EQ(ds->num_levels(), src->num_levels());
    // Every FILE sample's bytes, navigated by id in both.
    auto top = src->Data();
    for (size_t i = 0; i < top->num_rows(); ++i) {
      const std::string id = top->column("id").values[i].get<std::string>();
      auto a = src->Read(SampleKey(id));
      auto b2 = ds->Read(SampleKey(id));
      ASSERT_TRUE(a.ok() && b2.ok()) << id;
      ASSERT_EQ(a->children != nullptr, b2->children != nullptr);
      if (!a->children) continue;
      for (size_t k = 0; k < a->children->num_rows(); ++k) {
        auto ca = a->children->Read(static_cast<int64_t>(k));
        auto cb = b2->children->Read(static_cast<int64_t>(k));
        ASSERT_TRUE(ca.ok() && cb.ok());
        EXPECT_EQ(ca->id, cb->id);
        if (ca->is_file()) {
          EXPECT_EQ(*src->ReadBytes(*ca), *ds->ReadBytes(*cb)) << id << "/" << ca->id;
        }
      }
    }
  }
}

TEST(LegacyConvert, HeterogeneousTreesArePaddedOrRefused) {
  TempDir dir;
  // s1 has 3 FILE children, s2 only the first 2: padded (a padding sample stands for a FILE).
  const std::string long_nested =
      SynthTortilla({{"image", "GTiff", Files().image[0]}, {"notes", "BYTES", "n"}, {"extra", "BYTES", "e"}});
  const std::string short_nested = SynthTortilla({{"image", "GTiff", Files().image[1]}, {"notes", "BYTES", "m"}});
  WriteFile(dir / "pad.tortilla", SynthTortilla({{"s1", "TORTILLA", long_nested}, {"s2", "TORTILLA", short_nested}}));
  std::vector<std::string> notes;
  auto padded = ConvertLegacy(dir / "pad.tortilla", dir / "pad.tacozip", {}, &notes);
  ASSERT_TRUE(padded.ok()) << padded.status().ToString();
  bool said = false;
  for (const auto& n : notes) said = said || n.find("padded with __TACOPAD__") != std::string::npos;
  EXPECT_TRUE(said);
  auto pad = Dataset::Open(dir / "pad.tacozip");
  ASSERT_TRUE(pad.ok());
  auto rows = (*pad)->QueryRaw("SELECT count(*) FROM level1_table WHERE starts_with(id, '__TACOPAD__')");
  EXPECT_EQ(rows->columns[0].values[0].get<int64_t>(), 1);
  // A FOLDER where its sibling has nothing: padding cannot stand for a FOLDER, refused.
  WriteFile(dir / "deep.tortilla",
            SynthTortilla({{"s1", "TORTILLA", NestedSample(0)}, {"s2", "TORTILLA", short_nested}}));
  auto deep = ConvertLegacy(dir / "deep.tortilla", dir / "deep.tacozip");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("padding does not help"), std::string::npos) << deep.status().ToString();
  // Mixed root types cannot be a TACO 2.0 tree: refused with the reason.
  WriteFile(dir / "mixed.tortilla",
            SynthTortilla({{"s1", "TORTILLA", NestedSample(0)}, {"raw", "BYTES", "just bytes"}}));
  auto mixed = ConvertLegacy(dir / "mixed.tortilla", dir / "mixed.tacozip");
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.status().message().find("cannot be a TACO 2.0 tree"), std::string::npos) << mixed.status().ToString();
  EXPECT_FALSE(std::filesystem::exists(dir / "mixed.tacozip"));
}

TEST(LegacyConvert, CliCreateAndConvert) {
  TempDir dir;
  std::filesystem::create_directories(dir / "src/a");
  WriteFile(dir / "src/a/one.tif", Files().image[0]);
  WriteFile(dir / "src/a/two.bin", "two");
  std::filesystem::create_directories(dir / "src/b");
  WriteFile(dir / "src/b/one.tif", Files().image[1]);
  WriteFile(dir / "src/b/two.bin", "deux");
  WriteFile(dir / "c.json", R"({"id": "mini", "dataset_version": "1", "description": "d", "licenses": ["MIT"],
    "providers": [{"name": "me"}], "tasks": ["classification"]})");
  CommandResult r = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(dir / "mini.taco") +
                            " --format taco-v1 --collection " + ShellQuote(dir / "c.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, (dir / "mini.taco") + "\n");
  const std::string b = ReadFile(dir / "mini.taco");
  EXPECT_EQ(CheckLegacyStructure(b), std::vector<std::string>{});
  const std::string json = b.substr(U64At(b, 26));
  EXPECT_NE(json.find("\"task\":\"classification\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"taco_version\":\"0.4.0\""), std::string::npos) << json;
  r = RunTaco("sql " + ShellQuote(dir / "mini.taco") +
              " 'SELECT \"tortilla:id\", \"tortilla:file_format\" FROM level1 ORDER BY 1, 2' --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "tortilla:id,tortilla:file_format\none.tif,GTiff\none.tif,GTiff\ntwo.bin,BYTES\ntwo.bin,BYTES\n");
  r = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(dir / "mini.tortilla") + " --format tortilla");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadFile(dir / "mini.tortilla").substr(0, 2), "#y");
  r = RunTaco("convert " + ShellQuote(dir / "mini.taco") + " " + ShellQuote(dir / "mini.tacozip"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: "), std::string::npos);
  r = RunTaco("convert " + ShellQuote(dir / "mini.tacozip") + " " + ShellQuote(dir / "again") + " --format tortilla");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadFile(dir / "again").substr(0, 2), "#y");
}

}  // namespace
}  // namespace taco::testing
