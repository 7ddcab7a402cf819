// Validate(): what our writer produces passes; the upstream fixtures give the known result;
// one corrupted copy per rule is reported with that rule and location.
#include <filesystem>

#include "validate_test_util.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::TempDir;
using testing::UpstreamFixtures;
using testing::WriteFile;
using namespace vtest;

// ---- valid inputs -------------------------------------------------------------------------

TEST(ValidateWriterOutput, EveryShapeAndFormatIsValid) {
  TempDir tmp;
  struct Case {
    std::string name;
    Taco taco;
  };
  std::vector<Case> cases = {
      {"flat", FlatTaco()}, {"nested", NestedTaco()}, {"padded", NestedTaco(4)}, {"deep", DeepTaco()}};
  for (const auto& c : cases) {
    for (const std::string suffix : {".tacozip", ""}) {
      const std::string out = Written(c.taco, tmp / (c.name + suffix));
      ValidationReport r = MustValidate(out);
      EXPECT_TRUE(r.ok()) << out << "\n" << Describe(r);
      EXPECT_EQ(r.format, suffix.empty() ? "folder" : "zip");
      EXPECT_EQ(r.path, out);
    }
  }
}

TEST(ValidateWriterOutput, SplitPartsAreEachValid) {
  TempDir tmp;
  CreateOptions opts;
  opts.split_size = 40;  // about one region per part
  auto parts = Create(NestedTaco(), tmp / "parts.tacozip", opts);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  ASSERT_GT(parts->size(), 1u);
  for (const auto& p : *parts) {
    ValidationReport r = MustValidate(p);
    EXPECT_TRUE(r.ok()) << p << "\n" << Describe(r);
  }
}

// ---- upstream fixtures --------------------------------------------------------------------

TEST(ValidateUpstream, FlatZipAndFolderAndNestedFolderAreValid) {
  for (const std::string p : {"/zip/flat/flat.tacozip", "/folder/flat", "/folder/nested"}) {
    ValidationReport r = MustValidate(UpstreamFixtures() + p);
    EXPECT_TRUE(r.ok()) << p << "\n" << Describe(r);
  }
}

TEST(ValidateUpstream, NestedZipReportsTheRotatedLevel1Offsets) {
  ValidationReport r = MustValidate(UpstreamFixtures() + "/zip/nested/nested.tacozip");
  EXPECT_EQ(r.format, "zip");
  ASSERT_EQ(r.violations.size(), 9u) << Describe(r);
  // Row order: europe, americas, asia; each carries the next region's (sorted-order) bytes.
  const std::vector<std::string> regions = {"europe", "americas", "asia"};
  for (size_t i = 0; i < 9; ++i) {
    const Violation& v = r.violations[i];
    EXPECT_EQ(v.rule, "member-offset");
    const std::string row = regions[i / 3] + "/item_" + std::to_string(i % 3);
    EXPECT_EQ(v.where, "level1 row " + std::to_string(i) + " (" + row + ")");
  }
  EXPECT_EQ(r.violations[0].found, "offset 390, size 15");
  EXPECT_EQ(r.violations[0].expected, "offset 205, size 13 (DATA/europe/item_0)");
  // __meta__ and level0 offsets are right: nothing else is reported.
  EXPECT_EQ(CountRule(r, "member-offset"), 9u);
}

TEST(ValidateReport, ListsAtMostMaxPerRuleAndCountsTheRest) {
  ValidateOptions opts;
  opts.max_per_rule = 2;
  ValidationReport r = MustValidate(UpstreamFixtures() + "/zip/nested/nested.tacozip", opts);
  EXPECT_EQ(r.violations.size(), 2u);
  ASSERT_EQ(r.omitted.count("member-offset"), 1u);
  EXPECT_EQ(r.omitted.at("member-offset"), 7u);
  EXPECT_EQ(r.total(), 9u);
  EXPECT_FALSE(r.ok());
}

TEST(ValidateInput, UnreadableInputsAreErrors) {
  TempDir tmp;
  EXPECT_FALSE(Validate(tmp / "missing.tacozip").ok());
  WriteFile(tmp / "junk.tacozip", std::string(300, 'x'));
  auto junk = Validate(tmp / "junk.tacozip");
  ASSERT_FALSE(junk.ok());
  EXPECT_NE(junk.status().message().find("junk.tacozip"), std::string::npos) << junk.status().message();
  fs::create_directory(tmp / "empty_dir");
  EXPECT_FALSE(Validate(tmp / "empty_dir").ok());
}

// ---- ZIP corruptions ----------------------------------------------------------------------

class ZipCorruption : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = Written(NestedTaco(), tmp_ / "good.tacozip");
    bytes_ = ReadFile(path_);
  }
  std::string WriteBad(const std::string& bytes) {
    const std::string bad = tmp_ / "bad.tacozip";
    WriteFile(bad, bytes);
    return bad;
  }
  TempDir tmp_;
  std::string path_;
  std::string bytes_;
};

TEST_F(ZipCorruption, HeaderCountOverSeven) {
  bytes_[41] = 9;
  ValidationReport r = MustValidate(WriteBad(bytes_));
  ASSERT_NE(FindViolation(r, "zip-header", "TACO_HEADER"), nullptr) << Describe(r);
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(ZipCorruption, HeaderPairPointsElsewhere) {
  uint64_t offset;
  std::memcpy(&offset, bytes_.data() + 45, 8);
  ++offset;
  std::memcpy(bytes_.data() + 45, &offset, 8);
  ValidationReport r = MustValidate(WriteBad(bytes_));
  const Violation* v = FindViolation(r, "header-pairs", "TACO_HEADER pair 0 (METADATA/level0.parquet)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found.substr(0, 7 + std::to_string(offset).size()), "offset " + std::to_string(offset));
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(ZipCorruption, DeflatedMember) {
  const size_t cdh = CentralHeaderOf(bytes_, "DATA/europe/item_0");
  bytes_[cdh + 10] = 8;  // method: deflate
  ValidationReport r = MustValidate(WriteBad(bytes_));
  const Violation* v = FindViolation(r, "zip-store", "DATA/europe/item_0");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "compression method 8");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(ZipCorruption, DuplicateMemberName) {
  // Rename DATA/europe/item_1 to DATA/europe/item_0 in its local and central headers.
  const size_t cdh = CentralHeaderOf(bytes_, "DATA/europe/item_1");
  const size_t lfh = U32(bytes_, cdh + 42);
  bytes_[cdh + 46 + 17] = '0';
  bytes_[lfh + 30 + 17] = '0';
  ValidationReport r = MustValidate(WriteBad(bytes_));
  EXPECT_NE(FindViolation(r, "duplicate-member", "DATA/europe/item_0"), nullptr) << Describe(r);
  EXPECT_NE(FindViolation(r, "missing-member", "level1 row 1 (europe/item_1)"), nullptr) << Describe(r);
}

TEST_F(ZipCorruption, Level1OffsetsSwapped) {
  auto engine = std::move(table::Engine::Open()).value();
  Table level1 = *engine->ReadParquet(MemoryReader(MemberBytes(path_, "METADATA/level1.parquet")));
  Column& off = Col(level1, "internal:offset");
  std::swap(off.values[0], off.values[1]);
  Column& size = Col(level1, "internal:size");
  std::swap(size.values[0], size.values[1]);
  const std::string bad = tmp_ / "swapped.tacozip";
  RebuildZip(path_, bad, {{"METADATA/level1.parquet", *engine->ToParquet(level1)}});
  ValidationReport r = MustValidate(bad);
  EXPECT_EQ(r.violations.size(), 2u) << Describe(r);
  const Violation* v = FindViolation(r, "member-offset", "level1 row 0 (europe/item_0)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_NE(v->expected.find("(DATA/europe/item_0)"), std::string::npos);
  EXPECT_NE(FindViolation(r, "member-offset", "level1 row 1 (europe/item_1)"), nullptr);
}

TEST_F(ZipCorruption, MetaOffsetWrong) {
  auto engine = std::move(table::Engine::Open()).value();
  Table meta = *engine->ReadParquet(MemoryReader(MemberBytes(path_, "DATA/asia/__meta__")));
  Column& size = Col(meta, "internal:size");
  size.values[2] = Value(int64_t{999});
  const std::string replaced = *engine->ToParquet(meta);
  // Rebuilding moves every member after asia's __meta__; level0 then disagrees for the
  // folders written after it, so only look for the __meta__ row.
  const std::string bad = tmp_ / "meta.tacozip";
  RebuildZip(path_, bad, {{"DATA/asia/__meta__", replaced}});
  ValidationReport r = MustValidate(bad);
  const Violation* v = FindViolation(r, "member-offset", "DATA/asia/__meta__ row 2 (item_2)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_NE(v->found.find("size 999"), std::string::npos);
}

TEST_F(ZipCorruption, StrayMember) {
  const std::string bad = tmp_ / "stray.tacozip";
  RebuildZip(path_, bad, {}, {{"DATA/stray", "x"}});
  ValidationReport r = MustValidate(bad);
  ASSERT_NE(FindViolation(r, "unreferenced-member", "DATA/stray"), nullptr) << Describe(r);
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(ZipCorruption, RebuiltUnchangedIsValid) {
  const std::string same = tmp_ / "same.tacozip";
  RebuildZip(path_, same, {});
  ValidationReport r = MustValidate(same);
  EXPECT_TRUE(r.ok()) << Describe(r);
}

// ---- FOLDER corruptions -------------------------------------------------------------------

class FolderCorruption : public ::testing::Test {
 protected:
  std::string Make(const Taco& taco) {
    root_ = Written(taco, tmp_ / "ds");
    return root_;
  }
  std::string P(const std::string& rel) const { return root_ + "/" + rel; }
  ValidationReport Check() { return MustValidate(root_); }
  TempDir tmp_;
  std::string root_;
};

TEST_F(FolderCorruption, MetaValueDiffers) {
  Make(NestedTaco());
  EditTable(P("DATA/europe/__meta__"), [](Table& t) { Col(t, "cloud_cover").values[1] = Value(77.0); });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "meta-consistency", "DATA/europe/__meta__ row 1 (item_1)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "cloud_cover = 77");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, MetaRowMissing) {
  Make(NestedTaco());
  EditTable(P("DATA/americas/__meta__"), [](Table& t) {
    for (Column& c : t.columns) c.values.pop_back();
  });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "meta-consistency", "DATA/americas/__meta__");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "2 rows");
}

TEST_F(FolderCorruption, MetaColumnTypeDiffers) {
  Make(NestedTaco());
  EditTable(P("DATA/americas/__meta__"), [](Table& t) {
    Column& c = Col(t, "cloud_cover");
    c.type = DataType::Int64();
    for (Value& v : c.values) v = Value(static_cast<int64_t>(v.get<double>()));
  });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "level-schema", "DATA/americas/__meta__ column 'cloud_cover'");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "int64");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, CurrentIdWrong) {
  Make(NestedTaco());
  EditTable(P("METADATA/level1.parquet"),
            [](Table& t) { Col(t, "internal:current_id").values[4] = Value(int64_t{40}); });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "current-id", "level1 row 4 (americas/item_1)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "internal:current_id 40");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, ParentIdOutOfRange) {
  Make(NestedTaco());
  EditTable(P("METADATA/level1.parquet"), [](Table& t) { Col(t, "internal:parent_id").values[4] = Value(int64_t{9}); });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "parent-id", "level1 row 4 (americas/item_1)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "internal:parent_id 9");
}

TEST_F(FolderCorruption, ParentIdOutOfOrder) {
  Make(NestedTaco());
  // The last asia row claims europe: rows are no longer grouped in parent order.
  EditTable(P("METADATA/level1.parquet"), [](Table& t) { Col(t, "internal:parent_id").values[8] = Value(int64_t{0}); });
  ValidationReport r = Check();
  ASSERT_NE(FindViolation(r, "parent-id", "level1 row 8 (europe/item_2)"), nullptr) << Describe(r);
}

TEST_F(FolderCorruption, RelativePathWrong) {
  Make(NestedTaco());
  EditTable(P("METADATA/level1.parquet"),
            [](Table& t) { Col(t, "internal:relative_path").values[5] = Value(std::string("americas/itemX")); });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "relative-path", "level1 row 5 (americas/item_2)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "internal:relative_path 'americas/itemX'");
  EXPECT_EQ(v->expected, "'americas/item_2' (parent path + id)");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, PitIdDiffers) {
  Make(NestedTaco());
  // asia/item_2 renamed to item_x everywhere (level1, __meta__, file): only the PIT breaks.
  EditTable(P("METADATA/level1.parquet"), [](Table& t) {
    Col(t, "id").values[8] = Value(std::string("item_x"));
    Col(t, "internal:relative_path").values[8] = Value(std::string("asia/item_x"));
  });
  EditTable(P("DATA/asia/__meta__"), [](Table& t) { Col(t, "id").values[2] = Value(std::string("item_x")); });
  fs::rename(P("DATA/asia/item_2"), P("DATA/asia/item_x"));
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "pit", "level1 row 8 (asia/item_x)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "id 'item_x'");
  EXPECT_EQ(v->expected, "id 'item_2' (as europe/item_2)");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, PitChildCountDiffers) {
  Make(NestedTaco());
  // asia loses item_2 everywhere.
  EditTable(P("METADATA/level1.parquet"), [](Table& t) {
    for (Column& c : t.columns) c.values.pop_back();
  });
  EditTable(P("DATA/asia/__meta__"), [](Table& t) {
    for (Column& c : t.columns) c.values.pop_back();
  });
  fs::remove(P("DATA/asia/item_2"));
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "pit", "level0 row 2 (asia)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "2 children");
  EXPECT_EQ(v->expected, "3 children (as europe)");
  // pit_schema n also changes (9 → 8 rows).
  EXPECT_NE(FindViolation(r, "pit-schema", "taco:pit_schema.hierarchy.1"), nullptr) << Describe(r);
}

TEST_F(FolderCorruption, BadSampleId) {
  Make(FlatTaco());
  EditTable(P("METADATA/level0.parquet"), [](Table& t) { Col(t, "id").values[2] = Value(std::string("bad:id")); });
  fs::rename(P("DATA/sample_2"), P("DATA/bad:id"));
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "sample-id", "level0 row 2 (bad:id)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_NE(v->found.find("contains ':'"), std::string::npos) << v->found;
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, DuplicateSiblingId) {
  Make(FlatTaco());
  EditTable(P("METADATA/level0.parquet"), [](Table& t) { Col(t, "id").values[3] = Value(std::string("sample_2")); });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "sample-id", "level0 row 3 (sample_2)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "id 'sample_2' again (also level0 row 2 (sample_2))");
  EXPECT_NE(FindViolation(r, "unreferenced-member", "DATA/sample_3"), nullptr) << Describe(r);
}

TEST_F(FolderCorruption, BadSampleType) {
  Make(FlatTaco());
  EditTable(P("METADATA/level0.parquet"), [](Table& t) { Col(t, "type").values[1] = Value(std::string("BLOB")); });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "sample-type", "level0 row 1 (sample_1)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "type 'BLOB'");
}

TEST_F(FolderCorruption, BadExtensionKey) {
  Make(FlatTaco());
  EditTable(P("METADATA/level0.parquet"), [](Table& t) { Col(t, "location").name = "bad key"; });
  ValidationReport r = Check();
  ASSERT_NE(FindViolation(r, "extension-key", "level0 column 'bad key'"), nullptr) << Describe(r);
  // The stored field schema still says "location".
  const Violation* f = FindViolation(r, "field-schema", "taco:field_schema.level0[3]");
  ASSERT_NE(f, nullptr) << Describe(r);
  EXPECT_EQ(f->found, "location: string");
  EXPECT_EQ(f->expected, "bad key: string");
}

TEST_F(FolderCorruption, RequiredColumnMissing) {
  Make(FlatTaco());
  EditTable(P("METADATA/level0.parquet"),
            [](Table& t) { t.columns.erase(t.columns.begin() + t.FindColumn("internal:current_id")); });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "required-column", "level0");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "no column 'internal:current_id'");
}

TEST_F(FolderCorruption, RequiredColumnWrongType) {
  Make(FlatTaco());
  EditTable(P("METADATA/level0.parquet"), [](Table& t) {
    Column& c = Col(t, "internal:parent_id");
    c.type = DataType::String();
    for (Value& v : c.values) v = Value(std::to_string(v.get<int64_t>()));
  });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "required-column", "level0 column 'internal:parent_id'");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "string");
  EXPECT_EQ(v->expected, "int64");
}

TEST_F(FolderCorruption, OffsetColumnInFolder) {
  Make(FlatTaco());
  EditTable(P("METADATA/level0.parquet"), [](Table& t) {
    std::vector<Value> zeros(t.num_rows(), Value(int64_t{0}));
    t.columns.push_back(Column{"internal:offset", DataType::Int64(), std::move(zeros)});
  });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "internal-column", "level0");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "column 'internal:offset'");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, PaddingWithBytes) {
  Make(NestedTaco(4));
  ASSERT_TRUE(fs::exists(P("DATA/europe/__TACOPAD__0")));
  WriteFile(P("DATA/europe/__TACOPAD__0"), "not empty");
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "padding", "level1 row 3 (europe/__TACOPAD__0)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "9 bytes in DATA/europe/__TACOPAD__0");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, PaddingWithValues) {
  Make(NestedTaco(4));
  EditTable(P("METADATA/level1.parquet"), [](Table& t) { Col(t, "cloud_cover").values[7] = Value(1.0); });
  EditTable(P("DATA/americas/__meta__"), [](Table& t) { Col(t, "cloud_cover").values[3] = Value(1.0); });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "padding", "level1 row 7 (americas/__TACOPAD__0)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "cloud_cover = 1");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, MissingDataFile) {
  Make(NestedTaco());
  fs::remove(P("DATA/asia/item_1"));
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "missing-member", "level1 row 7 (asia/item_1)");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "no file DATA/asia/item_1");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, StrayFile) {
  Make(NestedTaco());
  WriteFile(P("DATA/europe/stray"), "x");
  ValidationReport r = Check();
  ASSERT_NE(FindViolation(r, "unreferenced-member", "DATA/europe/stray"), nullptr) << Describe(r);
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, UnreadableMeta) {
  Make(NestedTaco());
  WriteFile(P("DATA/europe/__meta__"), "this is not parquet");
  ValidationReport r = Check();
  ASSERT_NE(FindViolation(r, "unreadable-member", "DATA/europe/__meta__"), nullptr) << Describe(r);
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, CollectionNotJson) {
  Make(FlatTaco());
  WriteFile(P("COLLECTION.json"), "{ not json");
  ValidationReport r = Check();
  ASSERT_NE(FindViolation(r, "collection-json", "COLLECTION.json"), nullptr) << Describe(r);
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, CollectionFields) {
  Make(FlatTaco());
  EditJson(P("COLLECTION.json"), [](nlohmann::ordered_json& j) {
    j["tasks"] = {"classification", "foo"};
    j.erase("licenses");
  });
  ValidationReport r = Check();
  const Violation* tasks = FindViolation(r, "collection-field", "COLLECTION.json tasks");
  ASSERT_NE(tasks, nullptr) << Describe(r);
  EXPECT_NE(tasks->found.find("'foo' is not a known task"), std::string::npos) << tasks->found;
  const Violation* licenses = FindViolation(r, "collection-field", "COLLECTION.json licenses");
  ASSERT_NE(licenses, nullptr) << Describe(r);
  EXPECT_EQ(licenses->found, "missing");
  EXPECT_EQ(r.violations.size(), 2u) << Describe(r);
}

TEST_F(FolderCorruption, OldProvidersAndVersionAreValid) {
  Make(FlatTaco());
  EditJson(P("COLLECTION.json"), [](nlohmann::ordered_json& j) {
    j["taco_version"] = "0.5.0";
    j["providers"] = {{{"name", "Test"}, {"organization", nullptr}, {"email", nullptr}, {"role", nullptr}}};
  });
  ValidationReport r = Check();
  EXPECT_TRUE(r.ok()) << Describe(r);
}

TEST_F(FolderCorruption, PitSchemaWrong) {
  Make(NestedTaco());
  EditJson(P("COLLECTION.json"), [](nlohmann::ordered_json& j) { j["taco:pit_schema"]["root"]["n"] = 4; });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "pit-schema", "taco:pit_schema.root");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, R"({"n":4,"type":"FOLDER"})");
  EXPECT_EQ(v->expected, R"({"n":3,"type":"FOLDER"})");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, PitSchemaMissing) {
  Make(FlatTaco());
  EditJson(P("COLLECTION.json"), [](nlohmann::ordered_json& j) { j.erase("taco:pit_schema"); });
  ValidationReport r = Check();
  ASSERT_NE(FindViolation(r, "pit-schema", "COLLECTION.json"), nullptr) << Describe(r);
}

TEST_F(FolderCorruption, FieldSchemaTypeWrongButDescriptionsFree) {
  Make(NestedTaco());
  EditJson(P("COLLECTION.json"), [](nlohmann::ordered_json& j) {
    auto& level1 = j["taco:field_schema"]["level1"];
    ASSERT_EQ(level1[2][0], "cloud_cover");
    level1[2][1] = "int64";
    for (auto& entry : level1) entry[2] = "any description";
  });
  ValidationReport r = Check();
  const Violation* v = FindViolation(r, "field-schema", "taco:field_schema.level1[2]");
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->found, "cloud_cover: int64");
  EXPECT_EQ(v->expected, "cloud_cover: double");
  EXPECT_EQ(r.violations.size(), 1u) << Describe(r);
}

TEST_F(FolderCorruption, FieldSchemaLevelMissing) {
  Make(NestedTaco());
  EditJson(P("COLLECTION.json"), [](nlohmann::ordered_json& j) { j["taco:field_schema"].erase("level1"); });
  ValidationReport r = Check();
  ASSERT_NE(FindViolation(r, "field-schema", "taco:field_schema.level1"), nullptr) << Describe(r);
}

TEST_F(FolderCorruption, EveryViolationIsReportedNotJustTheFirst) {
  Make(NestedTaco());
  EditTable(P("METADATA/level1.parquet"), [](Table& t) {
    Col(t, "internal:current_id").values[0] = Value(int64_t{100});
    Col(t, "internal:current_id").values[8] = Value(int64_t{200});
  });
  fs::remove(P("DATA/europe/item_1"));
  EditJson(P("COLLECTION.json"), [](nlohmann::ordered_json& j) { j["tasks"] = {"nope"}; });
  ValidationReport r = Check();
  EXPECT_NE(FindViolation(r, "current-id", "level1 row 0 (europe/item_0)"), nullptr) << Describe(r);
  EXPECT_NE(FindViolation(r, "current-id", "level1 row 8 (asia/item_2)"), nullptr) << Describe(r);
  EXPECT_NE(FindViolation(r, "missing-member", "level1 row 1 (europe/item_1)"), nullptr) << Describe(r);
  EXPECT_NE(FindViolation(r, "collection-field", "COLLECTION.json tasks"), nullptr) << Describe(r);
  EXPECT_EQ(r.violations.size(), 4u) << Describe(r);
}

TEST_F(FolderCorruption, DeepLevelMetaAndPath) {
  Make(DeepTaco());
  // level2 row 5 = tile_1/sensor_A/band_G; its relative path and its __meta__ value.
  EditTable(P("METADATA/level2.parquet"), [](Table& t) {
    ASSERT_EQ(Col(t, "internal:relative_path").values[5].get<std::string>(), "tile_1/sensor_B/band_G");
    Col(t, "internal:relative_path").values[5] = Value(std::string("tile_1/sensor_A/band_G"));
  });
  EditTable(P("DATA/tile_2/sensor_A/__meta__"), [](Table& t) { Col(t, "cloud_cover").values[0] = Value(-1.0); });
  ValidationReport r = Check();
  EXPECT_NE(FindViolation(r, "relative-path", "level2 row 5 (tile_1/sensor_B/band_G)"), nullptr) << Describe(r);
  EXPECT_NE(FindViolation(r, "meta-consistency", "DATA/tile_2/sensor_A/__meta__ row 0 (band_R)"), nullptr)
      << Describe(r);
  EXPECT_EQ(r.violations.size(), 2u) << Describe(r);
}

}  // namespace
}  // namespace taco
