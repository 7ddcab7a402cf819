// CreateTacocat (both forms) read back with Dataset::Open: row counts, ids local per source,
// every sample's bytes equal to the parts', base_path, schema checks, bad __TACOCAT__ headers,
// and create(split_size) consolidation.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/tacocat.h"
#include "taco/writer.h"
#include "tacocat/tacocat_test_util.h"
#include "write/tacocat_internal.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using tacocattest::DefaultRegions;
using tacocattest::ItemBytes;
using tacocattest::WriteParts;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

std::unique_ptr<Dataset> MustOpen(const std::string& path, const OpenOptions& options = {}) {
  auto ds = Dataset::Open(path, options);
  EXPECT_TRUE(ds.ok()) << ds.status().ToString();
  return ds.ok() ? std::move(*ds) : nullptr;
}

int64_t Count(Dataset& ds, const std::string& sql) {
  auto t = ds.QueryRaw(sql);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  if (!t.ok()) return -1;
  return t->columns.at(0).values.at(0).get<int64_t>();
}

std::vector<std::string> StringColumn(const Table& t, const std::string& name) {
  std::vector<std::string> out;
  int c = t.FindColumn(name);
  EXPECT_GE(c, 0) << name;
  if (c < 0) return out;
  for (const auto& v : t.columns[static_cast<size_t>(c)].values) {
    out.push_back(v.is<std::string>() ? v.get<std::string>() : "<null>");
  }
  return out;
}

// The TACOCAT at `path` holds exactly the parts' rows, in order, and every FILE sample
// reached through it has the bytes of the same sample reached through its part.
void ExpectMatchesParts(const std::string& path, const std::vector<std::string>& parts,
                        const OpenOptions& options = {}) {
  auto cat = MustOpen(path, options);
  ASSERT_NE(cat, nullptr);
  EXPECT_EQ(cat->format(), DatasetFormat::kTacocat);
  ASSERT_EQ(cat->num_levels(), 2);

  int64_t sum0 = 0, sum1 = 0;
  std::vector<std::unique_ptr<Dataset>> opened;
  for (const auto& p : parts) {
    opened.push_back(MustOpen(p));
    ASSERT_NE(opened.back(), nullptr);
    sum0 += Count(*opened.back(), "SELECT count(*) FROM data");
    sum1 += Count(*opened.back(), "SELECT count(*) FROM level1");
  }
  EXPECT_EQ(Count(*cat, "SELECT count(*) FROM data"), sum0);
  EXPECT_EQ(Count(*cat, "SELECT count(*) FROM level1"), sum1);
  EXPECT_EQ(cat->collection()["taco:pit_schema"]["root"]["n"].get<int64_t>(), sum0);
  EXPECT_EQ(cat->collection()["taco:pit_schema"]["hierarchy"]["1"][0]["n"].get<int64_t>(), sum1);

  // Rows in input order, ids local to each source.
  auto raw = cat->QueryRaw("SELECT id, \"internal:source_file\", \"internal:current_id\" FROM level0_table");
  ASSERT_TRUE(raw.ok()) << raw.status().ToString();
  std::vector<std::string> expected_sources, expected_ids;
  for (size_t i = 0; i < parts.size(); ++i) {
    auto ids = opened[i]->Data();
    ASSERT_TRUE(ids.ok());
    for (const auto& id : StringColumn(*ids, "id")) {
      expected_ids.push_back(id);
      expected_sources.push_back(fs::path(parts[i]).filename().string());
    }
  }
  EXPECT_EQ(StringColumn(*raw, "id"), expected_ids);
  EXPECT_EQ(StringColumn(*raw, "internal:source_file"), expected_sources);
  const auto& current = raw->column("internal:current_id").values;
  for (size_t row = 0, local = 0; row < current.size(); ++row) {
    local = (row > 0 && expected_sources[row] == expected_sources[row - 1]) ? local + 1 : 0;
    EXPECT_EQ(current[row].get<int64_t>(), static_cast<int64_t>(local)) << "row " << row;
  }

  // Every sample's bytes, through the TACOCAT and through its part.
  int64_t row = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    auto n = opened[i]->RowCount();
    ASSERT_TRUE(n.ok());
    for (int64_t k = 0; k < *n; ++k, ++row) {
      auto folder = cat->Read(row);
      ASSERT_TRUE(folder.ok()) << folder.status().ToString();
      ASSERT_NE(folder->children, nullptr);
      EXPECT_NE(folder->gdal_path.find(fs::path(parts[i]).filename().string()), std::string::npos) << folder->gdal_path;
      for (int64_t j = 0; j < static_cast<int64_t>(folder->children->num_rows()); ++j) {
        auto via_cat = cat->ReadPath({row, j});
        auto via_part = opened[i]->ReadPath({k, j});
        ASSERT_TRUE(via_cat.ok()) << via_cat.status().ToString();
        ASSERT_TRUE(via_part.ok()) << via_part.status().ToString();
        auto a = cat->ReadBytes(*via_cat);
        auto b = opened[i]->ReadBytes(*via_part);
        ASSERT_TRUE(a.ok()) << a.status().ToString();
        ASSERT_TRUE(b.ok()) << b.status().ToString();
        EXPECT_EQ(*a, *b);
        EXPECT_EQ(*a, ItemBytes(folder->id, static_cast<int>(j)));
      }
    }
  }
  // The level1 gdal_vsi of the consolidated level reaches the same bytes.
  auto level1 = cat->QueryRaw("SELECT id, \"internal:gdal_vsi\" FROM level1 ORDER BY \"internal:source_file\"");
  ASSERT_TRUE(level1.ok()) << level1.status().ToString();
  EXPECT_EQ(static_cast<int64_t>(level1->num_rows()), sum1);
}

TEST(TacocatTest, FolderFormMatchesParts) {
  TempDir dir;
  auto parts = WriteParts(dir.path(), DefaultRegions());
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_FALSE(fs::exists(dir / ".tacocat"));  // consolidate = false
  auto written = CreateTacocat(parts);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(*written, fs::absolute(dir.path()).lexically_normal().string() + "/.tacocat");
  EXPECT_TRUE(fs::exists(dir / ".tacocat/level0.parquet"));
  EXPECT_TRUE(fs::exists(dir / ".tacocat/level1.parquet"));
  EXPECT_TRUE(fs::exists(dir / ".tacocat/COLLECTION.json"));
  ExpectMatchesParts(dir / ".tacocat", parts);
  ExpectMatchesParts(dir.path(), parts);  // a directory holding .tacocat/

  // Column order: id, type, then everything else by name (FORMAT §3.2).
  auto cat = MustOpen(dir / ".tacocat");
  ASSERT_NE(cat, nullptr);
  auto level0 = cat->DescribeLevel(0);
  ASSERT_TRUE(level0.ok());
  std::vector<std::string> names;
  for (const auto& c : level0->columns) names.push_back(c.name);
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names[0], "id");
  EXPECT_EQ(names[1], "type");
  EXPECT_TRUE(std::is_sorted(names.begin() + 2, names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "internal:source_file"), names.end());

  // A second run refuses to replace it.
  auto again = CreateTacocat(parts);
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists) << again.status().ToString();
}

TEST(TacocatTest, SingleFileMatchesParts) {
  TempDir dir;
  auto parts = WriteParts(dir.path(), DefaultRegions());
  ASSERT_EQ(parts.size(), 4u);
  TacocatOptions options;
  options.single_file = true;
  auto written = CreateTacocat(parts, options);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(fs::path(*written).filename(), "__TACOCAT__");
  const std::string bytes = ReadFile(*written);
  ASSERT_GT(bytes.size(), 128u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("TACOCAT\0", 8));
  auto header = write::ParseTacocatHeader(bytes, bytes.size(), *written);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(header->max_depth, 1u);
  EXPECT_EQ(header->levels[0].offset, 128u);
  EXPECT_EQ(header->levels[1].offset, header->levels[0].offset + header->levels[0].size);
  EXPECT_EQ(header->collection.offset + header->collection.size, bytes.size());
  auto json = nlohmann::json::parse(bytes.substr(header->collection.offset));
  EXPECT_EQ(json["_tacocat"]["num_datasets"], 4);
  EXPECT_EQ(json["_tacocat"]["dataset_sources"][0], "ds_part0001.tacozip");
  ExpectMatchesParts(*written, parts);
}

TEST(TacocatTest, BasePathOverride) {
  TempDir dir;
  auto parts = WriteParts(dir.path(), DefaultRegions());
  // Written beside the parts, then moved away from them.
  auto written = CreateTacocat(parts);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  fs::create_directories(dir / "elsewhere");
  const std::string moved = dir / "elsewhere/.tacocat";
  fs::rename(*written, moved);

  // Without base_path the ZIPs are looked for beside .tacocat: not there.
  auto lost = MustOpen(moved);
  ASSERT_NE(lost, nullptr);
  auto node = lost->ReadPath({int64_t{0}, int64_t{0}});
  EXPECT_FALSE(node.ok());

  OpenOptions open;
  open.base_path = dir.path();
  ExpectMatchesParts(moved, parts, open);
  auto cat = MustOpen(moved, open);
  ASSERT_NE(cat, nullptr);
  EXPECT_EQ(cat->vsi_root(), ToVsiPath(dir.path()));

  // Written into a directory that does not hold the parts: refused, nothing written.
  TacocatOptions options;
  options.output_dir = dir / "other";
  fs::create_directories(options.output_dir);
  auto refused = CreateTacocat(parts, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("is not inside the output directory"), std::string::npos)
      << refused.status().ToString();
  EXPECT_FALSE(fs::exists(dir / "other/.tacocat"));
}

TEST(TacocatTest, StrictSchemaMismatchNamesInputAndColumn) {
  TempDir dir;
  auto regions = DefaultRegions();
  CreateOptions no_split;
  no_split.split_size = 0;
  ASSERT_TRUE(Create(tacocattest::NestedTaco({regions[0]}), dir / "a.tacozip", no_split).ok());
  ASSERT_TRUE(Create(tacocattest::NestedTaco({regions[1]}, DataType::String()), dir / "b.tacozip", no_split).ok());
  ASSERT_TRUE(
      Create(tacocattest::NestedTaco({regions[2]}, DataType::Double(), true), dir / "c.tacozip", no_split).ok());

  auto typed = CreateTacocat({dir / "a.tacozip", dir / "b.tacozip"});
  ASSERT_FALSE(typed.ok());
  EXPECT_EQ(typed.status().code(), StatusCode::kInvalidArgument);
  const std::string msg = typed.status().message();
  EXPECT_NE(msg.find("b.tacozip"), std::string::npos) << msg;
  EXPECT_NE(msg.find("level0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cloud_cover"), std::string::npos) << msg;
  EXPECT_NE(msg.find("VARCHAR"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir / ".tacocat"));

  auto extra = CreateTacocat({dir / "a.tacozip", dir / "c.tacozip"});
  ASSERT_FALSE(extra.ok());
  EXPECT_NE(extra.status().message().find("c.tacozip"), std::string::npos) << extra.status().ToString();
  EXPECT_NE(extra.status().message().find("zz_extra"), std::string::npos) << extra.status().ToString();
  EXPECT_FALSE(fs::exists(dir / ".tacocat"));

  // Aligned: a missing column becomes nulls; a type conflict is still an error.
  TacocatOptions aligned;
  aligned.align_schemas = true;
  auto conflict = CreateTacocat({dir / "a.tacozip", dir / "b.tacozip"}, aligned);
  ASSERT_FALSE(conflict.ok());
  EXPECT_NE(conflict.status().message().find("cloud_cover"), std::string::npos) << conflict.status().ToString();

  auto written = CreateTacocat({dir / "a.tacozip", dir / "c.tacozip"}, aligned);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto cat = MustOpen(*written);
  ASSERT_NE(cat, nullptr);
  auto rows = cat->QueryRaw("SELECT zz_extra FROM level0_table ORDER BY \"internal:source_file\"");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(StringColumn(*rows, "zz_extra"), (std::vector<std::string>{"<null>", "asia"}));
  // Field schemas merged: the extra column is listed.
  EXPECT_NE(cat->collection()["taco:field_schema"].dump().find("zz_extra"), std::string::npos);
}

TEST(TacocatTest, DuplicateNamesAndMissingInputs) {
  TempDir dir;
  auto parts = WriteParts(dir.path(), DefaultRegions());
  auto dup = CreateTacocat({parts[0], parts[0]});
  EXPECT_EQ(dup.status().code(), StatusCode::kInvalidArgument) << dup.status().ToString();
  EXPECT_FALSE(CreateTacocat({}).ok());
  auto missing = CreateTacocat({parts[0], dir / "nope.tacozip"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nope.tacozip"), std::string::npos) << missing.status().ToString();
  EXPECT_FALSE(fs::exists(dir / ".tacocat"));
  // Not a TACO ZIP.
  WriteFile(dir / "junk.tacozip", "hello");
  auto junk = CreateTacocat({parts[0], dir / "junk.tacozip"});
  ASSERT_FALSE(junk.ok());
  EXPECT_NE(junk.status().message().find("junk.tacozip"), std::string::npos) << junk.status().ToString();
}

// A valid __TACOCAT__ to corrupt.
std::string ValidSingleFile(const TempDir& dir) {
  auto parts = WriteParts(dir.path(), DefaultRegions());
  TacocatOptions options;
  options.single_file = true;
  auto written = CreateTacocat(parts, options);
  EXPECT_TRUE(written.ok()) << written.status().ToString();
  return ReadFile(*written);
}

void PutU32(std::string& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}
void PutU64(std::string& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}

TEST(TacocatTest, BadSingleFileHeaders) {
  TempDir dir;
  const std::string good = ValidSingleFile(dir);
  ASSERT_GT(good.size(), 128u);
  struct Case {
    std::string name;
    std::string bytes;
    std::string expect;
  };
  std::vector<Case> cases;
  {
    std::string b = good;
    b[0] = 'X';
    cases.push_back({"magic", b, "bad magic"});
  }
  {
    std::string b = good;
    PutU32(b, 8, 2);
    cases.push_back({"version", b, "version 2"});
  }
  {
    std::string b = good;
    PutU32(b, 12, 7);
    cases.push_back({"depth", b, "max_depth 7"});
  }
  {
    std::string b = good;
    PutU64(b, 16 + 16 + 8, good.size());  // level1 size past the end
    cases.push_back({"past_eof", b, "past the end"});
  }
  {
    std::string b = good;
    PutU64(b, 112, 0);
    PutU64(b, 120, 0);
    cases.push_back({"no_collection", b, "COLLECTION.json"});
  }
  {
    std::string b = good;
    PutU64(b, 16, 0);
    PutU64(b, 24, 0);
    cases.push_back({"no_level0", b, "level0 is missing"});
  }
  cases.push_back({"truncated", good.substr(0, 100), "needs 128"});
  for (const auto& c : cases) {
    TempDir sub;
    const std::string path = sub / "__TACOCAT__";
    WriteFile(path, c.bytes);
    auto ds = Dataset::Open(path);
    ASSERT_FALSE(ds.ok()) << c.name;
    EXPECT_NE(ds.status().message().find(path), std::string::npos) << c.name << ": " << ds.status().ToString();
    EXPECT_NE(ds.status().message().find(c.expect), std::string::npos) << c.name << ": " << ds.status().ToString();
  }
}

TEST(TacocatTest, BadFolderForms) {
  TempDir dir;
  fs::create_directories(dir / "x/.tacocat");
  auto empty = Dataset::Open(dir / "x/.tacocat");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("COLLECTION.json"), std::string::npos) << empty.status().ToString();
  WriteFile(dir / "x/.tacocat/COLLECTION.json", "{\"id\": \"x\"}");
  auto no_level = Dataset::Open(dir / "x/.tacocat");
  ASSERT_FALSE(no_level.ok());
  EXPECT_NE(no_level.status().message().find("level0.parquet"), std::string::npos) << no_level.status().ToString();
  WriteFile(dir / "x/.tacocat/level0.parquet", "not parquet");
  EXPECT_FALSE(Dataset::Open(dir / "x/.tacocat").ok());
  fs::create_directories(dir / "y/.tacocat");
  WriteFile(dir / "y/.tacocat/COLLECTION.json", "{not json");
  WriteFile(dir / "y/.tacocat/level0.parquet", "x");
  auto bad_json = Dataset::Open(dir / "y");
  ASSERT_FALSE(bad_json.ok());
  EXPECT_NE(bad_json.status().message().find("is not valid JSON"), std::string::npos) << bad_json.status().ToString();
}

TEST(TacocatTest, CreateWithSplitConsolidates) {
  TempDir dir;
  auto parts = WriteParts(dir.path(), DefaultRegions(), /*consolidate=*/true);
  ASSERT_EQ(parts.size(), 4u);
  ASSERT_TRUE(fs::exists(dir / ".tacocat/COLLECTION.json"));
  ExpectMatchesParts(dir / ".tacocat", parts);

  // A single part: no .tacocat.
  TempDir one;
  CreateOptions options;
  options.split_size = 0;
  auto single = Create(tacocattest::NestedTaco(DefaultRegions()), one / "ds.tacozip", options);
  ASSERT_TRUE(single.ok()) << single.status().ToString();
  EXPECT_FALSE(fs::exists(one / ".tacocat"));

  // An existing .tacocat: nothing is written.
  TempDir busy;
  fs::create_directories(busy / ".tacocat");
  CreateOptions split;
  split.split_size = 1;
  auto refused = Create(tacocattest::NestedTaco(DefaultRegions()), busy / "ds.tacozip", split);
  EXPECT_EQ(refused.status().code(), StatusCode::kAlreadyExists) << refused.status().ToString();
  EXPECT_FALSE(fs::exists(busy / "ds_part0001.tacozip"));
}

}  // namespace
}  // namespace taco
