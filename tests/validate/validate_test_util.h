// Helpers for the validate tests: datasets built with our writer, table edits of a FOLDER,
// rebuilding and byte-patching a ZIP, and looking violations up in a report.
#ifndef TACO_TESTS_VALIDATE_VALIDATE_TEST_UTIL_H_
#define TACO_TESTS_VALIDATE_VALIDATE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "format/zip/zip_reader.h"
#include "format/zip/zip_writer.h"
#include "support/paths.h"
#include "table/engine.h"
#include "taco/io.h"
#include "taco/model.h"
#include "taco/validate.h"
#include "taco/writer.h"

namespace taco::vtest {

inline nlohmann::ordered_json Collection() {
  return {{"id", "validate_test"},     {"dataset_version", "1.0.0"},        {"description", "validate test"},
          {"licenses", {"CC-BY-4.0"}}, {"providers", {{{"name", "Test"}}}}, {"tasks", {"classification"}}};
}

inline Sample FileSample(const std::string& id, const std::string& bytes, double cloud) {
  Sample s = *Sample::FromBytes(id, bytes);
  EXPECT_TRUE(s.Extend(Field{"cloud_cover", DataType::Double(), Value(cloud), ""}).ok());
  return s;
}

// sample_0..4, FILE, with cloud_cover and location.
inline Taco FlatTaco() {
  std::vector<Sample> samples;
  for (int i = 0; i < 5; ++i) {
    Sample s = FileSample("sample_" + std::to_string(i), "content_" + std::to_string(i), i * 15.0);
    EXPECT_TRUE(s.Extend(Field{"location", DataType::String(), Value("loc" + std::to_string(i)), ""}).ok());
    samples.push_back(std::move(s));
  }
  auto taco = Taco::Make(*Tortilla::Make(std::move(samples)), Collection());
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return *taco;
}

// europe, americas, asia (not sorted) × item_0..2, like the upstream nested fixture; with
// `pad_to` 4 every region gets one __TACOPAD__0 child.
inline Taco NestedTaco(std::optional<size_t> pad_to = std::nullopt) {
  std::vector<Sample> regions;
  for (std::string region : {"europe", "americas", "asia"}) {
    std::vector<Sample> items;
    for (int j = 0; j < 3; ++j) {
      items.push_back(FileSample("item_" + std::to_string(j), "data_" + region + "_" + std::to_string(j), j * 10.0));
    }
    TortillaOptions opts;
    opts.pad_to = pad_to;
    Sample folder = *Sample::FromTortilla(region, *Tortilla::Make(std::move(items), opts));
    EXPECT_TRUE(folder.Extend(Field{"region", DataType::String(), Value(region), ""}).ok());
    regions.push_back(std::move(folder));
  }
  auto taco = Taco::Make(*Tortilla::Make(std::move(regions)), Collection());
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return *taco;
}

// tile_0..2 → sensor_A, sensor_B (FOLDER) → band_R, band_G (FILE): three levels.
inline Taco DeepTaco() {
  std::vector<Sample> tiles;
  for (int t = 0; t < 3; ++t) {
    std::vector<Sample> sensors;
    for (std::string sensor : {"sensor_B", "sensor_A"}) {
      std::vector<Sample> bands;
      for (std::string band : {"band_R", "band_G"}) {
        std::string bytes = "t";
        bytes += std::to_string(t);
        bytes += sensor;
        bytes += band;
        bands.push_back(FileSample(band, bytes, t * 1.5));
      }
      sensors.push_back(*Sample::FromTortilla(sensor, *Tortilla::Make(std::move(bands))));
    }
    tiles.push_back(*Sample::FromTortilla("tile_" + std::to_string(t), *Tortilla::Make(std::move(sensors))));
  }
  auto taco = Taco::Make(*Tortilla::Make(std::move(tiles)), Collection());
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return *taco;
}

inline std::string Written(const Taco& taco, const std::string& out) {
  auto r = Create(taco, out);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return out;
}

inline ValidationReport MustValidate(const std::string& path, const ValidateOptions& opts = {}) {
  auto r = Validate(path, opts);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : ValidationReport{};
}

inline std::string Describe(const ValidationReport& r) {
  std::string out;
  for (const Violation& v : r.violations) {
    out += v.rule + "  " + v.where + ": " + v.found + " (expected " + v.expected + ")\n";
  }
  return out;
}

inline const Violation* FindViolation(const ValidationReport& r, const std::string& rule, const std::string& where) {
  for (const Violation& v : r.violations) {
    if (v.rule == rule && v.where == where) return &v;
  }
  return nullptr;
}

inline size_t CountRule(const ValidationReport& r, const std::string& rule) {
  size_t n = 0;
  for (const Violation& v : r.violations) n += v.rule == rule ? 1 : 0;
  return n;
}

// --- FOLDER table edits --------------------------------------------------------------------

inline Table ReadTable(const std::string& path) {
  auto engine = std::move(table::Engine::Open()).value();
  auto reader = OpenLocalFile(path);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  auto t = engine->ReadParquet(*reader);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : Table{};
}

inline void WriteTable(const std::string& path, const Table& table) {
  auto engine = std::move(table::Engine::Open()).value();
  auto bytes = engine->ToParquet(table);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  testing::WriteFile(path, *bytes);
}

inline Column& Col(Table& t, const std::string& name) {
  const int i = t.FindColumn(name);
  EXPECT_GE(i, 0) << name;
  return t.columns.at(static_cast<size_t>(i));
}

// Applies `edit` to the Parquet table at `path` and writes it back.
template <typename Edit>
void EditTable(const std::string& path, Edit edit) {
  Table t = ReadTable(path);
  edit(t);
  WriteTable(path, t);
}

template <typename Edit>
void EditJson(const std::string& path, Edit edit) {
  auto j = nlohmann::ordered_json::parse(testing::ReadFile(path));
  edit(j);
  testing::WriteFile(path, j.dump(4));
}

// --- ZIP edits ---------------------------------------------------------------------------

// Rewrites the ZIP `src` as `dst`: every member in order (bytes replaced by `replace`), the
// `extra` members inserted before METADATA/level0.parquet, and the TACO_HEADER pairs set to
// the METADATA levels and COLLECTION.json. DATA/ and __meta__ members keep their offsets
// when nothing before them changes.
inline void RebuildZip(const std::string& src, const std::string& dst,
                       const std::map<std::string, std::string>& replace,
                       const std::vector<std::pair<std::string, std::string>>& extra = {}) {
  auto reader = *OpenLocalFile(src);
  auto entries = zip::ReadCentralDirectory(*reader, true);
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  auto writer = zip::ZipWriter::Create(dst);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  zip::ZipWriter& w = **writer;
  ASSERT_TRUE(w.BeginTacoHeader().ok());
  std::map<std::string, zip::HeaderEntry> placed;
  for (const auto& e : *entries) {
    if (e.name == "TACO_HEADER") continue;
    if (e.name == "METADATA/level0.parquet") {
      for (const auto& [name, bytes] : extra) ASSERT_TRUE(w.AddBytes(name, bytes).ok());
    }
    std::string bytes;
    auto it = replace.find(e.name);
    if (it != replace.end()) {
      bytes = it->second;
    } else {
      bytes = *reader->Read(e.data_offset, e.compressed_size);
    }
    auto info = w.AddBytes(e.name, bytes);
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    placed[e.name] = zip::HeaderEntry{info->data_offset, info->size};
  }
  std::vector<zip::HeaderEntry> header;
  for (int i = 0; placed.count("METADATA/level" + std::to_string(i) + ".parquet"); ++i) {
    header.push_back(placed["METADATA/level" + std::to_string(i) + ".parquet"]);
  }
  header.push_back(placed["COLLECTION.json"]);
  ASSERT_TRUE(w.SetTacoHeader(header).ok());
  ASSERT_TRUE(w.Finish().ok());
}

// The bytes of member `name` of a ZIP.
inline std::string MemberBytes(const std::string& zip_path, const std::string& name) {
  auto reader = *OpenLocalFile(zip_path);
  auto entries = *zip::ReadCentralDirectory(*reader, true);
  for (const auto& e : entries) {
    if (e.name == name) return *reader->Read(e.data_offset, e.compressed_size);
  }
  ADD_FAILURE() << "no member " << name;
  return {};
}

inline uint32_t U32(const std::string& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
inline uint16_t U16(const std::string& b, size_t at) {
  uint16_t v;
  std::memcpy(&v, b.data() + at, 2);
  return v;
}

// Byte position of the central-directory header of `name` (classic EOCD, no comment).
inline size_t CentralHeaderOf(const std::string& zip_bytes, const std::string& name) {
  const size_t eocd = zip_bytes.size() - 22;
  EXPECT_EQ(U32(zip_bytes, eocd), 0x06054b50u);
  size_t p = U32(zip_bytes, eocd + 16);
  while (p + 46 <= eocd && U32(zip_bytes, p) == 0x02014b50u) {
    const size_t n = U16(zip_bytes, p + 28);
    if (zip_bytes.compare(p + 46, n, name) == 0 && n == name.size()) return p;
    p += 46 + n + U16(zip_bytes, p + 30) + U16(zip_bytes, p + 32);
  }
  ADD_FAILURE() << "no central header for " << name;
  return 0;
}

inline void CopyTree(const std::string& from, const std::string& to) {
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
}

}  // namespace taco::vtest

#endif  // TACO_TESTS_VALIDATE_VALIDATE_TEST_UTIL_H_
