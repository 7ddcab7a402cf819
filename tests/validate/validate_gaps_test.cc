// `taco validate` on the rules issue 16 C found unchecked: extent.temporal, collection
// extension keys, taco_version, OpticalData band tables, TACOCAT, truncated files.
#include <algorithm>

#include "validate_test_util.h"

namespace taco {
namespace {

using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;

// A FOLDER dataset written by our writer, whose COLLECTION.json is then edited by `edit`;
// returns `taco validate` of it.
template <typename Edit>
testing::CommandResult ValidateEditedCollection(const TempDir& tmp, Edit edit) {
  const std::string path = vtest::Written(vtest::FlatTaco(), tmp / "flat");
  vtest::EditJson(path + "/COLLECTION.json", edit);
  return RunTaco("validate " + ShellQuote(path));
}

TEST(ValidateGaps, TemporalExtentMustParseAndBeOrdered) {
  {
    TempDir tmp;
    auto r = ValidateEditedCollection(tmp, [](nlohmann::ordered_json& c) {
      c["extent"] = {{"spatial", {0, 0, 1, 1}}, {"temporal", {"yesterday", "today"}}};
    });
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("collection-field  COLLECTION.json extent: extent.temporal[0] (start) 'yesterday' is not an "
                         "ISO-8601 date or datetime"),
              std::string::npos)
        << r.out;
  }
  {
    TempDir tmp;
    auto r = ValidateEditedCollection(tmp, [](nlohmann::ordered_json& c) {
      c["extent"] = {{"spatial", {0, 0, 1, 1}}, {"temporal", {"2023-06-01T00:00:00Z", "2023-01-01"}}};
    });
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("extent.temporal: start '2023-06-01T00:00:00Z' is after end '2023-01-01'"), std::string::npos)
        << r.out;
  }
  {
    TempDir tmp;
    auto r = ValidateEditedCollection(tmp, [](nlohmann::ordered_json& c) {
      c["extent"] = {{"spatial", {0, 0, 1, 1}}, {"temporal", {"2023-01-01", "2023-01-01T10:00:00+02:00"}}};
    });
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }
}

TEST(ValidateGaps, CollectionExtensionKeysAreChecked) {
  TempDir tmp;
  auto r = ValidateEditedCollection(tmp, [](nlohmann::ordered_json& c) {
    c["bad key"] = 1;
    c["a:b:c"] = 2;
    c["internal:x"] = 3;
    c["labels:classes"] = nlohmann::ordered_json::array();  // a good one
  });
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("extension-key  COLLECTION.json key 'bad key': "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("extension-key  COLLECTION.json key 'a:b:c': "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("extension-key  COLLECTION.json key 'internal:x': extension key 'internal:x' uses the "
                       "reserved 'internal:' namespace"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("labels:classes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 violations (extension-key 3)"), std::string::npos) << r.out;
}

TEST(ValidateGaps, TacoVersionIsAVersion) {
  for (const char* bad : {"banana", "2.0", "v2.0.0", "02.0.0", "2.0.0-"}) {
    TempDir tmp;
    auto r = ValidateEditedCollection(tmp, [&](nlohmann::ordered_json& c) { c["taco_version"] = bad; });
    EXPECT_EQ(r.exit_code, 1) << bad << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("collection-field  COLLECTION.json taco_version: taco_version '" + std::string(bad) +
                         "' is not a version MAJOR.MINOR.PATCH"),
              std::string::npos)
        << r.out;
  }
  for (const char* good : {"2.0.0", "0.5.0", "2.1.0-rc.1", "10.20.30+build.5"}) {
    TempDir tmp;
    auto r = ValidateEditedCollection(tmp, [&](nlohmann::ordered_json& c) { c["taco_version"] = good; });
    EXPECT_EQ(r.exit_code, 0) << good << "\n" << r.out << r.err;
  }
}

}  // namespace
}  // namespace taco

namespace taco {
namespace {

// sample_0..2 with `geotiff:stats` of `bands` continuous bands (9 values each).
std::string WrittenWithStats(const TempDir& tmp, size_t bands) {
  std::vector<Sample> samples;
  for (int i = 0; i < 3; ++i) {
    Sample s = *Sample::FromBytes("sample_" + std::to_string(i), "bytes" + std::to_string(i));
    ValueList per_band;
    for (size_t b = 0; b < bands; ++b) {
      ValueList v;
      for (int k = 0; k < 9; ++k) v.push_back(Value(static_cast<float>(k)));
      per_band.push_back(Value(std::move(v)));
    }
    EXPECT_TRUE(s.Extend(Field{"geotiff:stats", DataType::List(DataType::List(DataType::Float())),
                               Value(std::move(per_band)), ""})
                    .ok());
    samples.push_back(std::move(s));
  }
  auto taco = Taco::Make(*Tortilla::Make(std::move(samples)), vtest::Collection());
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return vtest::Written(*taco, tmp / "stats");
}

nlohmann::ordered_json Band(const std::string& name, double wavelength, double width) {
  return {{"name", name}, {"index", 0}, {"center_wavelength", wavelength}, {"full_width_half_max", width}};
}

TEST(ValidateGaps, OpticalBandTables) {
  TempDir tmp;
  const std::string path = WrittenWithStats(tmp, 3);
  const std::string cmd = "validate " + ShellQuote(path);
  vtest::EditJson(path + "/COLLECTION.json", [](nlohmann::ordered_json& c) {
    c["optical:sensor"] = "custom";
    c["optical:bands"] = {Band("B02", 0.49, 0.065), Band("B03", 0.56, 0.035), Band("B04", 0.665, 0.03)};
    c["optical:num_bands"] = 3;
  });
  auto good = RunTaco(cmd);
  EXPECT_EQ(good.exit_code, 0) << good.out << good.err;

  vtest::EditJson(path + "/COLLECTION.json", [](nlohmann::ordered_json& c) {
    c["optical:bands"] = {Band("B02", 0.49, 0.065), Band("B02", -0.56, 0.035), Band("B04", 0.665, 0)};
  });
  auto bad = RunTaco(cmd);
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("optical-bands  COLLECTION.json optical:bands[1].name: 'B02' again (expected unique band "
                         "names ('B02' is band 0))"),
            std::string::npos)
      << bad.out;
  EXPECT_NE(bad.out.find("optical-bands  COLLECTION.json optical:bands[1].center_wavelength: -0.56"), std::string::npos)
      << bad.out;
  EXPECT_NE(bad.out.find("optical-bands  COLLECTION.json optical:bands[2].full_width_half_max: 0"), std::string::npos)
      << bad.out;

  vtest::EditJson(path + "/COLLECTION.json", [](nlohmann::ordered_json& c) {
    c["optical:bands"] = {Band("B02", 0.49, 0.065), Band("B03", 0.56, 0.035), Band("B04", 0.665, 0.03),
                          Band("B08", 0.842, 0.115)};
    c["optical:num_bands"] = 4;
  });
  auto stats = RunTaco(cmd);
  EXPECT_EQ(stats.exit_code, 1) << stats.out << stats.err;
  EXPECT_NE(stats.out.find("optical-bands  COLLECTION.json optical:num_bands: 4 but geotiff:stats has 3 bands in 3 "
                           "rows (expected the band count of the GeoTIFFs"),
            std::string::npos)
      << stats.out;

  vtest::EditJson(path + "/COLLECTION.json", [](nlohmann::ordered_json& c) { c["optical:num_bands"] = 3; });
  auto count = RunTaco(cmd);
  EXPECT_EQ(count.exit_code, 1) << count.out << count.err;
  EXPECT_NE(count.out.find("optical-bands  COLLECTION.json optical:num_bands: 3 (expected 4 (the number of "
                           "optical:bands))"),
            std::string::npos)
      << count.out;
}

}  // namespace
}  // namespace taco

namespace taco {
namespace {

// Two ZIP parts a.tacozip, b.tacozip (the nested dataset) consolidated by `taco tacocat`
// into DIR/.tacocat and DIR/__TACOCAT__.
struct TwoParts {
  TempDir tmp;
  std::string a, b;
  TwoParts() {
    a = vtest::Written(vtest::NestedTaco(), tmp / "a.tacozip");
    b = vtest::Written(vtest::NestedTaco(), tmp / "b.tacozip");
    auto folder = RunTaco("tacocat " + ShellQuote(a) + " " + ShellQuote(b));
    EXPECT_EQ(folder.exit_code, 0) << folder.err;
    auto single = RunTaco("tacocat --single-file " + ShellQuote(a) + " " + ShellQuote(b));
    EXPECT_EQ(single.exit_code, 0) << single.err;
  }
};

TEST(ValidateGaps, TacocatBothFormsAreValidated) {
  TwoParts parts;
  for (const std::string& index : {parts.tmp / ".tacocat", parts.tmp / "__TACOCAT__", parts.tmp.path()}) {
    auto r = RunTaco("validate " + ShellQuote(index));
    EXPECT_EQ(r.exit_code, 0) << index << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find(index + ": valid tacocat dataset"), std::string::npos) << r.out;
  }
}

TEST(ValidateGaps, TacocatIndexRowsMustMatchTheirPart) {
  TwoParts parts;
  const std::string level1 = parts.tmp / ".tacocat/level1.parquet";
  vtest::EditTable(level1, [](Table& t) {
    Column& offset = vtest::Col(t, "internal:offset");
    offset.values[10] = Value(offset.values[10].get<int64_t>() + 7);
  });
  auto r = RunTaco("validate " + ShellQuote(parts.tmp / ".tacocat"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("tacocat-part  level1 row 10 column 'internal:offset': "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(b.tacozip level1 row 1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 violation (tacocat-part 1)"), std::string::npos) << r.out;
}

TEST(ValidateGaps, TacocatPartsAreValidatedAndMustExist) {
  TwoParts parts;
  // a.tacozip is gone: named as a missing source.
  std::filesystem::remove(parts.a);
  auto r = RunTaco("validate --json " + ShellQuote(parts.tmp / "__TACOCAT__"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "tacocat");
  ASSERT_FALSE(j["violations"].empty());
  EXPECT_EQ(j["violations"][0]["rule"], "missing-member");
  EXPECT_EQ(j["violations"][0]["where"], "a.tacozip");
  EXPECT_NE(j["violations"][0]["found"].get<std::string>().find("a.tacozip: no such file"), std::string::npos) << r.out;
}

TEST(ValidateGaps, TacocatReportsItsPartsViolationsUnderTheirNames) {
  TempDir tmp;
  const std::string nested = testing::UpstreamFixtures() + "/zip/nested/nested.tacozip";
  std::filesystem::copy_file(nested, tmp / "n1.tacozip");
  std::filesystem::copy_file(nested, tmp / "n2.tacozip");
  auto cat = RunTaco("tacocat " + ShellQuote(tmp / "n1.tacozip") + " " + ShellQuote(tmp / "n2.tacozip"));
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  auto r = RunTaco("validate " + ShellQuote(tmp.path()));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("member-offset  n1.tacozip: level1 row 0 (europe/item_0): offset 390, size 15"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("member-offset  n2.tacozip: level1 row 8 (asia/item_2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": 18 violations (member-offset 18)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace taco

namespace taco {
namespace {

// The first .tif below `dir` (sorted).
std::string FirstTif(const std::string& dir) {
  std::vector<std::string> tifs;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.path().extension() == ".tif") tifs.push_back(e.path().string());
  }
  std::sort(tifs.begin(), tifs.end());
  EXPECT_FALSE(tifs.empty()) << dir;
  return tifs.empty() ? "" : tifs[0];
}

TEST(ValidateGaps, TruncatedGeoTiffFailsInFolderAndZip) {
  TempDir tmp;
  auto demo = RunTaco("-q demo " + ShellQuote(tmp / "d"));
  ASSERT_EQ(demo.exit_code, 0) << demo.err;
  const std::string folder = tmp / "d/demo";
  // Untouched: valid (the check has no false positive on real GeoTIFFs).
  for (const std::string& p : {folder, tmp / "d/demo.tacozip"}) {
    auto r = RunTaco("validate " + ShellQuote(p));
    EXPECT_EQ(r.exit_code, 0) << p << "\n" << r.out << r.err;
  }
  const std::string tif = FirstTif(folder + "/DATA");
  const auto full = std::filesystem::file_size(tif);
  std::filesystem::resize_file(tif, full / 2);
  auto r = RunTaco("validate " + ShellQuote(folder));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::string rel = tif.substr(folder.size() + 1);  // DATA/<tile>/<name>.tif
  EXPECT_NE(r.out.find("file-size  level1 row "), std::string::npos) << r.out;
  EXPECT_NE(
      r.out.find(" (" + rel.substr(5) + "): " + std::to_string(full / 2) + " bytes in " + rel + " (expected at least "),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(": 1 violation (file-size 1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ends there (truncated file))"), std::string::npos) << r.out;

  // The same truncated file stored in a ZIP by `taco create`.
  std::filesystem::create_directories(tmp / "src/tile");
  std::filesystem::copy_file(tif, tmp / "src/tile/image.tif");
  testing::WriteFile(tmp / "c.json", vtest::Collection().dump());
  auto create = RunTaco("-q create " + ShellQuote(tmp / "src") + " " + ShellQuote(tmp / "t.tacozip") +
                        " --collection " + ShellQuote(tmp / "c.json"));
  ASSERT_EQ(create.exit_code, 0) << create.err;
  auto z = RunTaco("validate " + ShellQuote(tmp / "t.tacozip"));
  EXPECT_EQ(z.exit_code, 1) << z.out << z.err;
  EXPECT_NE(z.out.find("file-size  level1 row 0 (tile/image.tif): " + std::to_string(full / 2) +
                       " bytes in DATA/tile/image.tif"),
            std::string::npos)
      << z.out;
}

// A TIFF sample whose IFD lies past the first 4 KiB that validate reads once per sample: the
// TIFF measure reads it from the member (not from the head) and reports the strip past the end.
TEST(ValidateGaps, TiffWithItsIfdPastTheHeadIsMeasured) {
  TempDir tmp;
  std::string tiff(5000, '\0');
  auto put16 = [&](size_t at, uint16_t v) {
    tiff[at] = static_cast<char>(v & 0xFF);
    tiff[at + 1] = static_cast<char>(v >> 8);
  };
  auto put32 = [&](size_t at, uint32_t v) {
    for (int k = 0; k < 4; ++k) tiff[at + k] = static_cast<char>((v >> (8 * k)) & 0xFF);
  };
  tiff[0] = tiff[1] = 'I';
  put16(2, 42);
  put32(4, 4500);  // the IFD, past the 4096-byte head
  put16(4500, 2);
  put16(4502, 273);  // StripOffsets: LONG 100000
  put16(4504, 4);
  put32(4506, 1);
  put32(4510, 100000);
  put16(4514, 279);  // StripByteCounts: LONG 10
  put16(4516, 4);
  put32(4518, 1);
  put32(4522, 10);
  std::filesystem::create_directories(tmp / "src");
  testing::WriteFile(tmp / "src/far.tif", tiff);
  testing::WriteFile(tmp / "c.json", vtest::Collection().dump());
  auto create = RunTaco("-q create " + ShellQuote(tmp / "src") + " " + ShellQuote(tmp / "t.tacozip") +
                        " --collection " + ShellQuote(tmp / "c.json"));
  ASSERT_EQ(create.exit_code, 0) << create.err;
  auto z = RunTaco("validate " + ShellQuote(tmp / "t.tacozip"));
  EXPECT_EQ(z.exit_code, 1) << z.out << z.err;
  EXPECT_NE(z.out.find("5000 bytes in DATA/far.tif (expected at least 100010 bytes: the TIFF's strip 0 of IFD 0 "
                       "ends there (truncated file))"),
            std::string::npos)
      << z.out;
}

}  // namespace
}  // namespace taco
