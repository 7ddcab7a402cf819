// create() to ZIP and FOLDER, checked independently of the writer: central directory,
// Parquet members read at the header's offsets, offsets by archive path, __meta__ vs levels,
// generic ZIP tools.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "format/zip/taco_header.h"
#include "format/zip/zip_reader.h"
#include "support/paths.h"
#include "table/engine.h"
#include "taco/dataset.h"
#include "taco/diagnostics.h"
#include "taco/io.h"
#include "taco/model.h"
#include "taco/writer.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunCommand;
using testing::ShellQuote;
using testing::TempDir;

Sample FileSample(const std::string& id, const std::string& bytes, double cloud) {
  Sample s = *Sample::FromBytes(id, bytes);
  EXPECT_TRUE(s.Extend(Field{"cloud_cover", DataType::Double(), Value(cloud), ""}).ok());
  return s;
}

// europe, americas, asia (not sorted) × item_0..2, like the upstream nested fixture.
Taco NestedTaco() {
  std::vector<Sample> regions;
  for (std::string region : {"europe", "americas", "asia"}) {
    std::vector<Sample> items;
    for (int j = 0; j < 3; ++j) {
      items.push_back(FileSample("item_" + std::to_string(j), "data_" + region + "_" + std::to_string(j), j * 10.0));
    }
    Sample folder = *Sample::FromTortilla(region, *Tortilla::Make(std::move(items)));
    EXPECT_TRUE(folder.Extend(Field{"region", DataType::String(), Value(region), ""}).ok());
    regions.push_back(std::move(folder));
  }
  nlohmann::ordered_json collection = {
      {"id", "nested_test"},       {"dataset_version", "1.0.0"},        {"description", "writer test"},
      {"licenses", {"CC-BY-4.0"}}, {"providers", {{{"name", "Test"}}}}, {"tasks", {"classification"}}};
  auto taco = Taco::Make(*Tortilla::Make(std::move(regions)), collection);
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return *taco;
}

std::map<std::string, zip::ZipEntry> CentralDirectory(const std::string& path) {
  auto reader = OpenLocalFile(path);
  EXPECT_TRUE(reader.ok());
  auto entries = zip::ReadCentralDirectory(**reader, true);
  EXPECT_TRUE(entries.ok()) << entries.status().ToString();
  std::map<std::string, zip::ZipEntry> by_name;
  for (const auto& e : *entries) by_name[e.name] = e;
  return by_name;
}

Table ReadMember(table::Engine& engine, const std::string& zip_path, uint64_t offset, uint64_t size) {
  auto file = OpenLocalFile(zip_path);
  EXPECT_TRUE(file.ok());
  auto member = SubRange(*file, offset, size);
  EXPECT_TRUE(member.ok());
  auto table = engine.ReadParquet(*member);
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  return *table;
}

std::vector<std::string> Names(const Table& t) {
  std::vector<std::string> out;
  for (const auto& c : t.columns) out.push_back(c.name);
  return out;
}

TEST(CreateZip, OffsetsAreRightByArchivePath) {
  TempDir tmp;
  const std::string out = tmp / "nested.tacozip";
  auto written = Create(NestedTaco(), out);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ASSERT_EQ(*written, std::vector<std::string>{out});

  auto cd = CentralDirectory(out);
  // Member order and names as FORMAT §1.1.
  ASSERT_TRUE(cd.count("TACO_HEADER"));
  EXPECT_EQ(cd["TACO_HEADER"].lfh_offset, 0u);
  EXPECT_EQ(cd["DATA/europe/item_0"].data_offset, 157u + 30 + 18);
  for (auto m : {"DATA/europe/__meta__", "DATA/americas/__meta__", "DATA/asia/__meta__", "METADATA/level0.parquet",
                 "METADATA/level1.parquet", "COLLECTION.json"}) {
    EXPECT_TRUE(cd.count(m)) << m;
  }

  // The header points at the METADATA members and COLLECTION.json.
  auto file = OpenLocalFile(out);
  auto header = zip::ReadTacoHeader(**file);
  ASSERT_TRUE(header.ok());
  ASSERT_EQ(header->entries.size(), 3u);
  EXPECT_EQ(header->entries[0].offset, cd["METADATA/level0.parquet"].data_offset);
  EXPECT_EQ(header->entries[1].offset, cd["METADATA/level1.parquet"].data_offset);
  EXPECT_EQ(header->entries[2].offset, cd["COLLECTION.json"].data_offset);
  EXPECT_EQ(header->entries[2].length, cd["COLLECTION.json"].uncompressed_size);

  auto engine = std::move(table::Engine::Open()).value();
  Table level0 = ReadMember(*engine, out, header->entries[0].offset, header->entries[0].length);
  Table level1 = ReadMember(*engine, out, header->entries[1].offset, header->entries[1].length);
  EXPECT_EQ(Names(level0), (std::vector<std::string>{"id", "type", "region", "internal:current_id",
                                                     "internal:parent_id", "internal:offset", "internal:size"}));
  EXPECT_EQ(Names(level1),
            (std::vector<std::string>{"id", "type", "cloud_cover", "internal:current_id", "internal:parent_id",
                                      "internal:offset", "internal:size", "internal:relative_path"}));
  // Level 0 in given order; each row's offset is its folder's __meta__.
  ASSERT_EQ(level0.num_rows(), 3u);
  for (size_t r = 0; r < 3; ++r) {
    std::string id = level0.column("id").values[r].get<std::string>();
    const auto& e = cd["DATA/" + id + "/__meta__"];
    EXPECT_EQ(level0.column("internal:offset").values[r].get<int64_t>(), static_cast<int64_t>(e.data_offset)) << id;
    EXPECT_EQ(level0.column("internal:size").values[r].get<int64_t>(), static_cast<int64_t>(e.uncompressed_size));
  }
  EXPECT_EQ(level0.column("id").values[0].get<std::string>(), "europe");
  // Level 1: every row's bytes are its own sample's bytes (the upstream bug would rotate them).
  ASSERT_EQ(level1.num_rows(), 9u);
  for (size_t r = 0; r < 9; ++r) {
    std::string rel = level1.column("internal:relative_path").values[r].get<std::string>();
    int64_t off = level1.column("internal:offset").values[r].get<int64_t>();
    int64_t size = level1.column("internal:size").values[r].get<int64_t>();
    EXPECT_EQ(static_cast<uint64_t>(off), cd["DATA/" + rel].data_offset) << rel;
    auto bytes = (*file)->Read(static_cast<uint64_t>(off), static_cast<size_t>(size));
    std::string region = rel.substr(0, rel.find('/'));
    EXPECT_EQ(*bytes, "data_" + region + "_" + rel.substr(rel.size() - 1)) << rel;
    EXPECT_EQ(level1.column("internal:parent_id").values[r].get<int64_t>(), static_cast<int64_t>(r / 3));
  }
  // Every __meta__ agrees with the consolidated level 1 rows of its folder.
  for (size_t p = 0; p < 3; ++p) {
    std::string region = level0.column("id").values[p].get<std::string>();
    const auto& e = cd["DATA/" + region + "/__meta__"];
    Table meta = ReadMember(*engine, out, e.data_offset, e.uncompressed_size);
    EXPECT_EQ(Names(meta), (std::vector<std::string>{"id", "type", "cloud_cover", "internal:offset", "internal:size"}));
    for (size_t j = 0; j < 3; ++j) {
      EXPECT_EQ(meta.column("id").values[j], level1.column("id").values[p * 3 + j]);
      EXPECT_EQ(meta.column("internal:offset").values[j], level1.column("internal:offset").values[p * 3 + j]);
      EXPECT_EQ(meta.column("internal:size").values[j], level1.column("internal:size").values[p * 3 + j]);
    }
  }
}

// Every table of a ZIP goes through the engine-free Parquet encoder: writing one does not
// start the SQL engine (tens of milliseconds of a small create); a FOLDER still does.
TEST(CreateZip, StartsNoSqlEngine) {
  TempDir tmp;
  const uint64_t before = EnginesStarted();
  auto written = Create(NestedTaco(), tmp / "nested.tacozip");
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(EnginesStarted(), before);
}

TEST(CreateZip, GenericToolsAcceptIt) {
  TempDir tmp;
  const std::string out = tmp / "nested.zip";
  ASSERT_TRUE(Create(NestedTaco(), out).ok());
  EXPECT_EQ(RunCommand("unzip -t -qq " + ShellQuote(out)).exit_code, 0);
  auto py = RunCommand(
      "/usr/bin/python3 -c 'import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); "
      "assert z.testzip() is None; print(len(z.namelist()))' " +
      ShellQuote(out));
  EXPECT_EQ(py.exit_code, 0) << py.err;
  EXPECT_EQ(py.out, "16\n");  // header + 9 files + 3 __meta__ + 2 levels + COLLECTION.json
}

TEST(CreateZip, CollectionHasSchemasAndVersion) {
  TempDir tmp;
  const std::string out = tmp / "nested.tacozip";
  ASSERT_TRUE(Create(NestedTaco(), out).ok());
  auto ds = Dataset::Open(out);
  ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  const auto& c = (*ds)->collection();
  EXPECT_EQ(c["taco_version"], "2.0.0");
  EXPECT_EQ(c["taco:pit_schema"]["root"]["n"], 3);
  EXPECT_EQ(c["taco:pit_schema"]["hierarchy"]["1"][0]["n"], 9);
  EXPECT_EQ(c["taco:field_schema"]["level1"][2][0], "cloud_cover");
  for (const auto& f : c["taco:field_schema"]["level0"]) {
    EXPECT_NE(f[0], "internal:offset");
    EXPECT_NE(f[0], "internal:size");
  }
}

TEST(CreateFolder, LayoutAndColumns) {
  TempDir tmp;
  const std::string out = tmp / "nested";
  ASSERT_TRUE(Create(NestedTaco(), out).ok());
  EXPECT_EQ(ReadFile(out + "/DATA/asia/item_2"), "data_asia_2");
  EXPECT_TRUE(fs::exists(out + "/DATA/europe/__meta__"));
  auto engine = std::move(table::Engine::Open()).value();
  Table meta = *engine->ReadParquet(*OpenLocalFile(out + "/DATA/europe/__meta__"));
  EXPECT_EQ(Names(meta), (std::vector<std::string>{"id", "type", "cloud_cover"}));
  Table level1 = *engine->ReadParquet(*OpenLocalFile(out + "/METADATA/level1.parquet"));
  EXPECT_EQ(Names(level1), (std::vector<std::string>{"id", "type", "cloud_cover", "internal:current_id",
                                                     "internal:parent_id", "internal:relative_path"}));
  EXPECT_EQ(level1.column("internal:relative_path").values[0].get<std::string>(), "europe/item_0");
  auto ds = Dataset::Open(out);
  ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  EXPECT_EQ((*ds)->format(), DatasetFormat::kFolder);
  EXPECT_EQ((*ds)->num_levels(), 2);
}

TEST(Create, ExistingOutputIsRefusedAndUntouched) {
  TempDir tmp;
  const std::string out = tmp / "x.tacozip";
  testing::WriteFile(out, "keep");
  auto r = Create(NestedTaco(), out);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadFile(out), "keep");
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp.path())) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(Create, FailureLeavesNothing) {
  TempDir tmp;
  testing::WriteFile(tmp / "a.bin", "aaaa");
  Sample a = *Sample::FromFile("a", tmp / "a.bin");
  nlohmann::ordered_json collection = {{"id", "t"},         {"dataset_version", "1"},         {"description", "d"},
                                       {"licenses", {"x"}}, {"providers", {{{"name", "p"}}}}, {"tasks", {"other"}}};
  Taco taco = *Taco::Make(*Tortilla::Make({a}), collection);
  fs::remove(tmp / "a.bin");  // the source disappears after validation
  auto r = Create(taco, tmp / "out.tacozip");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("a.bin"), std::string::npos) << r.status().message();
  EXPECT_TRUE(fs::is_empty(tmp.path()));
}

nlohmann::ordered_json SmallCollection() {
  return {{"id", "t"},         {"dataset_version", "1"},         {"description", "d"},
          {"licenses", {"x"}}, {"providers", {{{"name", "p"}}}}, {"tasks", {"other"}}};
}

// r0..r3 × s0..s9 × two files on disk (more than one batch of the writers per depth): two depths of folders, files read
// from paths (the writers read them ahead and encode the __meta__ of one depth on worker threads).
Taco TwoDeepTaco(const std::string& dir) {
  std::vector<Sample> regions;
  for (int r = 0; r < 4; ++r) {
    std::vector<Sample> subs;
    for (int s = 0; s < 10; ++s) {
      std::vector<Sample> files;
      for (const char* f : {"a", "b"}) {
        const std::string path = dir + "/" + std::to_string(r) + std::to_string(s) + f;
        testing::WriteFile(path, "bytes of " + path);
        files.push_back(*Sample::FromFile(f, path));
      }
      subs.push_back(*Sample::FromTortilla("s" + std::to_string(s), *Tortilla::Make(std::move(files))));
    }
    regions.push_back(*Sample::FromTortilla("r" + std::to_string(r), *Tortilla::Make(std::move(subs))));
  }
  return *Taco::Make(*Tortilla::Make(std::move(regions)), SmallCollection());
}

// Every __meta__ of a TwoDeepTaco ZIP points at its children: a FOLDER row at the child's
// __meta__, a FILE row at bytes equal to the source file's as it is on disk now.
void ExpectEveryMetaPointsAtItsChildren(const std::string& out, const std::string& src) {
  auto cd = CentralDirectory(out);
  auto file = OpenLocalFile(out);
  ASSERT_TRUE(file.ok());
  auto engine = std::move(table::Engine::Open()).value();
  for (int r = 0; r < 4; ++r) {
    const std::string region = "DATA/r" + std::to_string(r) + "/";
    ASSERT_TRUE(cd.count(region + "__meta__")) << region;
    const auto& e = cd[region + "__meta__"];
    Table meta = ReadMember(*engine, out, e.data_offset, e.uncompressed_size);
    ASSERT_EQ(meta.num_rows(), 10u) << region;
    for (size_t s = 0; s < 10; ++s) {  // a FOLDER row points at the child's __meta__
      const std::string sub = region + meta.column("id").values[s].get<std::string>() + "/";
      ASSERT_TRUE(cd.count(sub + "__meta__")) << sub;
      const auto& child = cd[sub + "__meta__"];
      EXPECT_EQ(meta.column("internal:offset").values[s].get<int64_t>(), static_cast<int64_t>(child.data_offset));
      EXPECT_EQ(meta.column("internal:size").values[s].get<int64_t>(), static_cast<int64_t>(child.uncompressed_size));
      Table inner = ReadMember(*engine, out, child.data_offset, child.uncompressed_size);
      ASSERT_EQ(inner.num_rows(), 2u) << sub;
      for (size_t f = 0; f < 2; ++f) {  // a FILE row points at the file's bytes
        const std::string id = inner.column("id").values[f].get<std::string>();
        const int64_t off = inner.column("internal:offset").values[f].get<int64_t>();
        const int64_t size = inner.column("internal:size").values[f].get<int64_t>();
        EXPECT_EQ(static_cast<uint64_t>(off), cd[sub + id].data_offset) << sub << id;
        auto bytes = (*file)->Read(static_cast<uint64_t>(off), static_cast<size_t>(size));
        ASSERT_TRUE(bytes.ok());
        const std::string source = src + "/" + std::to_string(r) + sub.substr(sub.size() - 2, 1) + id;
        EXPECT_EQ(*bytes, ReadFile(source)) << source;
      }
    }
  }
}

TEST(CreateZip, EveryMetaPointsAtItsChildrenAtTwoDepths) {
  TempDir tmp;
  const std::string src = tmp / "src";
  ASSERT_TRUE(fs::create_directory(src));
  const std::string out = tmp / "deep.tacozip";
  auto written = Create(TwoDeepTaco(src), out);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ExpectEveryMetaPointsAtItsChildren(out, src);
}

// The writer encodes the __meta__ and level tables while it copies the data, from the offsets
// the data members get when every file has the size it had when its sample was made. Files
// that changed size since (one grown, one shrunk, one emptied): the tables are encoded again
// from the real offsets, and every row still points at its own bytes.
TEST(CreateZip, FilesThatChangedSizeSinceTheScanStillGetTheirOwnOffsets) {
  TempDir tmp;
  const std::string src = tmp / "src";
  ASSERT_TRUE(fs::create_directory(src));
  const std::string out = tmp / "changed.tacozip";
  Taco taco = TwoDeepTaco(src);
  testing::WriteFile(src + "/00a", std::string(5000, 'g'));  // grown
  testing::WriteFile(src + "/17b", "s");                     // shrunk
  testing::WriteFile(src + "/39a", "");                      // emptied
  auto written = Create(taco, out);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ExpectEveryMetaPointsAtItsChildren(out, src);
  // The consolidated level 2 agrees with the central directory as well.
  auto cd = CentralDirectory(out);
  auto dataset = Dataset::Open(out);
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  auto engine = std::move(table::Engine::Open()).value();
  auto file = OpenLocalFile(out);
  auto header = zip::ReadTacoHeader(**file);
  ASSERT_TRUE(header.ok());
  ASSERT_EQ(header->entries.size(), 4u);  // three levels and COLLECTION.json
  Table level2 = ReadMember(*engine, out, header->entries[2].offset, header->entries[2].length);
  ASSERT_EQ(level2.num_rows(), 80u);
  for (size_t r = 0; r < level2.num_rows(); ++r) {
    const std::string rel = level2.column("internal:relative_path").values[r].get<std::string>();
    const auto& e = cd["DATA/" + rel];
    EXPECT_EQ(level2.column("internal:offset").values[r].get<int64_t>(), static_cast<int64_t>(e.data_offset)) << rel;
    EXPECT_EQ(level2.column("internal:size").values[r].get<int64_t>(), static_cast<int64_t>(e.uncompressed_size))
        << rel;
  }
}

// A source file that disappears in the middle of many (read ahead on worker threads for a ZIP;
// written beside the __meta__ thread for a FOLDER): an error naming it, and no output.
TEST(Create, FailureInTheMiddleOfManyFilesLeavesNothing) {
  for (const char* name : {"out.tacozip", "out_folder"}) {
    TempDir tmp;
    ASSERT_TRUE(fs::create_directory(tmp / "src"));
    Taco taco = TwoDeepTaco(tmp / "src");
    fs::remove(tmp / "src/21a");
    auto r = Create(taco, tmp / name);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_NE(r.status().message().find("21a"), std::string::npos) << r.status().message();
    size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp.path())) ++entries;
    EXPECT_EQ(entries, 1u) << name << ": only src/ is left";
  }
}

TEST(Create, SplitSizeMakesNumberedParts) {
  TempDir tmp;
  CreateOptions opts;
  opts.split_size = 40;  // each region holds ~39 bytes
  auto r = Create(NestedTaco(), tmp / "ds.tacozip", opts);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0], tmp / "ds_part0001.tacozip");
  EXPECT_EQ((*r)[2], tmp / "ds_part0003.tacozip");
  auto part = Dataset::Open((*r)[1]);
  ASSERT_TRUE(part.ok());
  auto info = (*part)->DescribeLevel(0);
  EXPECT_EQ(info->rows, 1u);
  EXPECT_EQ((*part)->collection()["taco:pit_schema"]["root"]["n"], 1);
}

TEST(Create, GroupByMakesOneZipPerValue) {
  TempDir tmp;
  CreateOptions opts;
  opts.group_by = {"region"};
  auto r = Create(NestedTaco(), tmp / "ds.tacozip", opts);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(
      *r, (std::vector<std::string>{tmp / "ds_americas.tacozip", tmp / "ds_asia.tacozip", tmp / "ds_europe.tacozip"}));
}

TEST(ParseSizeTest, UnitsAndErrors) {
  EXPECT_EQ(*ParseSize("4GB"), 4ull << 30);
  EXPECT_EQ(*ParseSize("1.5g"), 3ull << 29);
  EXPECT_EQ(*ParseSize("512 MB"), 512ull << 20);
  EXPECT_EQ(*ParseSize("100k"), 102400u);
  EXPECT_EQ(*ParseSize("123"), 123u);
  EXPECT_FALSE(ParseSize("4XB").ok());
  EXPECT_FALSE(ParseSize("").ok());
  EXPECT_FALSE(ParseSize("1.2.3G").ok());
  EXPECT_FALSE(ParseSize("-1").ok());
}

}  // namespace
}  // namespace taco
