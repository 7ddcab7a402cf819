// Opening and viewing datasets (FORMAT §6.1–§6.4, §9.5 "load"), padding, lazy SQL views, and
// the metadata-only guarantee of Open().
#include <gtest/gtest.h>

#include <mutex>
#include <utility>

#include "read/read_test_util.h"
#include "table/engine.h"

namespace taco::readtest {
namespace {

using testing::TempDir;

TEST(DatasetOpen, FlatZipAndFolderLoadFiveRows) {
  for (const std::string& path : {FlatZip(), FlatFolder()}) {
    auto ds = OpenOrDie(path);
    ASSERT_NE(ds, nullptr);
    EXPECT_EQ(ValueOrDie(ds->RowCount()), 5) << path;
    EXPECT_EQ(ds->num_levels(), 1);
    EXPECT_TRUE(ds->collection().contains("taco:pit_schema"));
    Table data = ValueOrDie(ds->Data());
    EXPECT_GE(data.FindColumn("internal:gdal_vsi"), 0);
    EXPECT_LT(data.FindColumn("internal:current_id"), 0);
    EXPECT_GE(data.FindColumn("cloud_cover"), 0);
    Table raw = ValueOrDie(ds->DataRaw());
    EXPECT_GE(raw.FindColumn("internal:current_id"), 0);
    EXPECT_GE(raw.FindColumn("internal:gdal_vsi"), 0);
  }
  EXPECT_EQ(OpenOrDie(FlatZip())->format(), DatasetFormat::kZip);
  EXPECT_EQ(OpenOrDie(FlatFolder())->format(), DatasetFormat::kFolder);
}

TEST(DatasetOpen, NestedLoadsThreeFolderRowsAndTwoLevels) {
  for (const std::string& path : {NestedZip(), NestedFolder()}) {
    auto ds = OpenOrDie(path);
    ASSERT_NE(ds, nullptr);
    EXPECT_EQ(ds->num_levels(), 2);
    EXPECT_EQ(Ids(*ds), (std::vector<std::string>{"europe", "americas", "asia"}));
    EXPECT_EQ(ds->collection()["taco:pit_schema"]["root"]["type"], "FOLDER");
    Table level1 = ValueOrDie(ds->QueryRaw("SELECT count(*) FROM level1"));
    EXPECT_EQ(level1.columns[0].values[0].get<int64_t>(), 9);
  }
}

TEST(DatasetOpen, GdalVsiStringsFollowFormat62) {
  auto zip = OpenOrDie(FlatZip());
  const std::string zroot = ToVsiPath(FlatZip());
  EXPECT_EQ(zip->vsi_root(), zroot);
  std::vector<std::string> vsi = Strings(ValueOrDie(zip->Data()), "internal:gdal_vsi");
  EXPECT_EQ(vsi, (std::vector<std::string>{"/vsisubfile/200_16," + zroot, "/vsisubfile/259_13," + zroot,
                                           "/vsisubfile/315_11," + zroot, "/vsisubfile/369_13," + zroot,
                                           "/vsisubfile/425_12," + zroot}));
  auto folder = OpenOrDie(NestedFolder());
  const std::string froot = ToVsiPath(NestedFolder());
  EXPECT_EQ(Strings(ValueOrDie(folder->Data()), "internal:gdal_vsi")[0], froot + "/DATA/europe/__meta__");
  Table l1 = ValueOrDie(folder->QueryRaw("SELECT \"internal:gdal_vsi\" FROM level1 ORDER BY \"internal:current_id\""));
  EXPECT_EQ(Strings(l1, "internal:gdal_vsi")[0], froot + "/DATA/europe/item_0");
  auto nested = OpenOrDie(NestedZip());
  EXPECT_EQ(Strings(ValueOrDie(nested->Data()), "internal:gdal_vsi")[0],
            "/vsisubfile/10238_4532," + ToVsiPath(NestedZip()));
}

TEST(DatasetSql, DataIsRewrittenAsAnIdentifier) {
  auto ds = OpenOrDie(NestedZip());
  auto view = ValueOrDie(ds->Sql("select ID from DATA order by 1"));
  EXPECT_EQ(Strings(ValueOrDie(view->DataRaw()), "id"), (std::vector<std::string>{"americas", "asia", "europe"}));
  auto quoted = ValueOrDie(ds->Sql("SELECT id FROM \"data\" WHERE id <> 'data'"));
  EXPECT_EQ(ValueOrDie(quoted->RowCount()), 3);
  auto literal = ValueOrDie(ds->Sql("SELECT 'FROM data' AS s FROM level0 LIMIT 1"));
  EXPECT_EQ(Strings(ValueOrDie(literal->DataRaw()), "s"), (std::vector<std::string>{"FROM data"}));
}

TEST(DatasetSql, ChainedViewsSeeThePreviousViewAndCountIt) {
  auto ds = OpenOrDie(FlatZip());
  auto a = ValueOrDie(ds->Sql("SELECT * FROM data_raw WHERE cloud_cover >= 15"));
  EXPECT_EQ(ValueOrDie(a->RowCount()), 4);
  EXPECT_EQ(a->collection()["taco:pit_schema"]["root"]["n"], 4);
  EXPECT_EQ(ds->collection()["taco:pit_schema"]["root"]["n"], 5);
  auto b = ValueOrDie(a->Sql("SELECT * FROM data WHERE cloud_cover < 45"));
  EXPECT_EQ(Ids(*b), (std::vector<std::string>{"sample_1", "sample_2"}));
  EXPECT_NE(a->view_name(), b->view_name());
  // `data` hides internal columns (except internal:gdal_vsi), `data_raw` keeps them; both
  // mean the current view.
  EXPECT_LT(ValueOrDie(b->DataRaw()).FindColumn("internal:offset"), 0);
  EXPECT_GE(ValueOrDie(b->DataRaw()).FindColumn("internal:gdal_vsi"), 0);
  EXPECT_GE(ValueOrDie(a->DataRaw()).FindColumn("internal:offset"), 0);
  auto raw = ValueOrDie(a->Sql("SELECT \"internal:offset\" FROM data_raw ORDER BY 1"));
  Table offsets = ValueOrDie(raw->DataRaw());
  ASSERT_EQ(offsets.num_rows(), 4u);
  EXPECT_EQ(offsets.columns[0].values[0].get<int64_t>(), 259);
  // The original dataset is unchanged.
  EXPECT_EQ(ValueOrDie(ds->RowCount()), 5);
}

TEST(DatasetSql, ErrorsNameTheDataset) {
  auto ds = OpenOrDie(FlatZip());
  auto bad = ds->Sql("SELECT nope FROM data");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(FlatZip()), std::string::npos) << bad.status().ToString();
  EXPECT_FALSE(ds->Sql("  ;").ok());
}

// A FOLDER dataset whose level 0 holds a padding row and an id that LIKE '__TACOPAD__%'
// would also hide (FORMAT §3.5, §10.4).
TEST(DatasetViews, PaddingHiddenByLiteralPrefixOnly) {
  TempDir dir;
  auto engine = ValueOrDie(table::Engine::Open());
  Table level0;
  level0.columns.push_back({"id", DataType::String(), {"a", "xxTACOPADyy_1", "__TACOPAD__0"}});
  level0.columns.push_back({"type", DataType::String(), {"FILE", "FILE", "FILE"}});
  level0.columns.push_back({"internal:current_id", DataType::Int64(), {int64_t{0}, int64_t{1}, int64_t{2}}});
  level0.columns.push_back({"internal:parent_id", DataType::Int64(), {int64_t{0}, int64_t{1}, int64_t{2}}});
  std::string parquet = ValueOrDie(engine->ToParquet(level0));
  ASSERT_EQ(
      std::system(("mkdir -p " + testing::ShellQuote(dir / "ds/METADATA") + " " + testing::ShellQuote(dir / "ds/DATA"))
                      .c_str()),
      0);
  testing::WriteFile(dir / "ds/METADATA/level0.parquet", parquet);
  testing::WriteFile(dir / "ds/COLLECTION.json",
                     R"({"id": "pad", "taco:pit_schema": {"root": {"n": 3, "type": "FILE"}}})");
  testing::WriteFile(dir / "ds/DATA/a", "A");
  testing::WriteFile(dir / "ds/DATA/xxTACOPADyy_1", "B");
  auto ds = OpenOrDie(dir / "ds");
  ASSERT_NE(ds, nullptr);
  EXPECT_EQ(Ids(*ds), (std::vector<std::string>{"a", "xxTACOPADyy_1"}));
  Table stored = ValueOrDie(ds->QueryRaw("SELECT count(*) FROM level0_table"));
  EXPECT_EQ(stored.columns[0].values[0].get<int64_t>(), 3);
  EXPECT_EQ(ValueOrDie(ds->ReadBytes(ValueOrDie(ds->Read("xxTACOPADyy_1")))), "B");
}

// RowCount() of a whole dataset counts padding by a range of ids; it must agree with the
// view's prefix test around the range's edges, and keep rows without an id.
TEST(DatasetViews, RowCountAgreesWithThePaddingPrefixTestAtTheEdges) {
  TempDir dir;
  auto engine = ValueOrDie(table::Engine::Open());
  const std::vector<Value> ids = {Value("a"),
                                  Value("__TACOPAD_"),
                                  Value("__TACOPAD__"),
                                  Value("__TACOPAD__9"),
                                  Value("__TACOPAD_`x"),
                                  Value("__TACOPAD_^"),
                                  Value(),
                                  Value("__TACOPAD__0"),
                                  Value("Z")};
  Table level0;
  level0.columns.push_back({"id", DataType::String(), ids});
  Column type{"type", DataType::String(), {}}, current{"internal:current_id", DataType::Int64(), {}};
  for (size_t i = 0; i < ids.size(); ++i) {
    type.values.emplace_back("FILE");
    current.values.emplace_back(static_cast<int64_t>(i));
  }
  level0.columns.push_back(type);
  level0.columns.push_back(current);
  current.name = "internal:parent_id";
  level0.columns.push_back(current);
  ASSERT_EQ(std::system(("mkdir -p " + testing::ShellQuote(dir / "ds/METADATA")).c_str()), 0);
  testing::WriteFile(dir / "ds/METADATA/level0.parquet", ValueOrDie(engine->ToParquet(level0)));
  testing::WriteFile(dir / "ds/COLLECTION.json",
                     R"({"id": "pad", "taco:pit_schema": {"root": {"n": 9, "type": "FILE"}}})");
  auto ds = OpenOrDie(dir / "ds");
  ASSERT_NE(ds, nullptr);
  // Padding: "__TACOPAD__", "__TACOPAD__9", "__TACOPAD__0".
  EXPECT_EQ(ValueOrDie(ds->RowCount()), 6);
  auto scanned = ValueOrDie(ds->Sql("SELECT * FROM data_raw"));
  EXPECT_EQ(ValueOrDie(scanned->RowCount()), 6);
}

// Records every byte range read from the container.
class RecordingReader final : public RangeReader {
 public:
  explicit RecordingReader(RangeReaderPtr base) : base_(std::move(base)) {}
  uint64_t size() const override { return base_->size(); }
  const std::string& name() const override { return base_->name(); }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      ranges_.emplace_back(offset, n);
    }
    return base_->ReadAt(offset, n, out);
  }
  std::vector<std::pair<uint64_t, uint64_t>> ranges() const {
    std::lock_guard<std::mutex> lock(mu_);
    return ranges_;
  }

 private:
  RangeReaderPtr base_;
  mutable std::mutex mu_;
  mutable std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

// Opens `path` with every container read recorded in *recorder.
std::unique_ptr<Dataset> OpenRecorded(const std::string& path, std::shared_ptr<RecordingReader>* recorder) {
  OpenOptions options;
  options.wrap_container = [recorder](RangeReaderPtr base) {
    *recorder = std::make_shared<RecordingReader>(std::move(base));
    return *recorder;
  };
  return OpenOrDie(path, options);
}

// Every DATA member of the fixtures lies in [157, first metadata member): FORMAT §9.1/§9.2.
// `metadata_start` is where the local header of METADATA/level0.parquet starts (its data
// offset - 30 - 23): opening checks that header (its name and CRC-32) and nothing before it.
void ExpectNoDataBytesRead(const std::string& path, uint64_t metadata_start) {
  std::shared_ptr<RecordingReader> recorder;
  auto ds = OpenRecorded(path, &recorder);
  ASSERT_NE(ds, nullptr);
  ASSERT_NE(recorder, nullptr);
  auto view = ValueOrDie(ds->Sql("SELECT id, \"internal:gdal_vsi\" FROM data_raw ORDER BY id"));
  EXPECT_GT(ValueOrDie(view->DataRaw()).num_rows(), 0u);
  ValueOrDie(ds->Data());
  auto ranges = recorder->ranges();
  EXPECT_GE(ranges.size(), 2u);
  for (auto [offset, n] : ranges) {
    const bool header = offset + n <= 157;
    const bool metadata = offset >= metadata_start;
    EXPECT_TRUE(header || metadata) << path << ": read [" << offset << ", " << offset + n << ") touches DATA";
  }
}

TEST(DatasetOpen, ZipOpenAndLevel0QueriesReadNoDataMember) {
  ExpectNoDataBytesRead(FlatZip(), 490 - 53);
  ExpectNoDataBytesRead(NestedZip(), 14823 - 53);
}

// Reads below the metadata (whose first member's local header starts at 14823 - 53 in
// nested.tacozip) are DATA members.
std::vector<std::pair<uint64_t, uint64_t>> DataReads(const RecordingReader& r) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (auto range : r.ranges()) {
    if (range.first + range.second > 157 && range.first < 14823 - 53) out.push_back(range);
  }
  return out;
}

TEST(DatasetOpen, NavigationReadsMetaOnceAndASampleOnce) {
  std::shared_ptr<RecordingReader> recorder;
  auto ds = OpenRecorded(NestedZip(), &recorder);
  ASSERT_NE(ds, nullptr);
  EXPECT_TRUE(DataReads(*recorder).empty());
  Node europe = ValueOrDie(ds->Read("europe"));
  // A read of member [offset, offset+size) that also takes its local header (the CRC-32).
  auto covers = [](std::pair<uint64_t, uint64_t> read, uint64_t offset, uint64_t size) {
    return read.first < offset && offset - read.first <= 30 + 1024 + 20 && read.first + read.second >= offset + size;
  };
  auto meta = DataReads(*recorder);
  ASSERT_EQ(meta.size(), 1u);  // the __meta__ member, in one ranged read
  EXPECT_TRUE(covers(meta[0], 10238, 4532)) << meta[0].first << "+" << meta[0].second;
  Node item = ValueOrDie(europe.children->Read(1));
  // Navigating to a FILE reads exactly its local header (is the member there the sample's?).
  auto nav = DataReads(*recorder);
  ASSERT_EQ(nav.size(), 2u);
  const uint64_t header = 30 + std::string("DATA/europe/item_1").size();
  EXPECT_EQ(nav[1], std::make_pair(uint64_t{266} - header, header));
  EXPECT_EQ(ValueOrDie(ds->ReadBytes(item)), "data_europe_1");
  auto after = DataReads(*recorder);
  ASSERT_EQ(after.size(), 3u);
  EXPECT_TRUE(covers(after[2], 266, 13)) << after[2].first << "+" << after[2].second;
}

// Dataset::Prefetch: the three FOLDERs' __meta__ (adjacent members) in one read; navigating
// into each FOLDER then reads nothing more, and a damaged member is still refused (CRC-32).
TEST(DatasetPrefetch, MembersComeFromOneReadAndAreStillChecked) {
  std::shared_ptr<RecordingReader> recorder;
  auto ds = OpenRecorded(NestedZip(), &recorder);
  ASSERT_NE(ds, nullptr);
  const Table rows = ValueOrDie(ValueOrDie(ds->Sql("SELECT \"internal:gdal_vsi\" AS p FROM data_raw"))->DataRaw());
  const std::vector<std::string> paths = Strings(rows, "p");
  ASSERT_EQ(paths.size(), 3u);
  ds->Prefetch(paths);
  ASSERT_EQ(DataReads(*recorder).size(), 1u);
  for (const char* region : {"europe", "americas", "asia"}) {
    Node node = ValueOrDie(ds->Read(region));
    ASSERT_NE(node.children, nullptr);
    EXPECT_EQ(node.children->num_rows(), 3u) << region;
  }
  EXPECT_EQ(DataReads(*recorder).size(), 1u) << "navigation read a __meta__ again";

  // One byte of europe's __meta__ (bytes 10238..14770) changed: refused with or without
  // the read-ahead, with the same message.
  TempDir dir;
  std::string bytes = testing::ReadFile(NestedZip());
  bytes[10238 + 100] = static_cast<char>(bytes[10238 + 100] ^ 0x5A);
  testing::WriteFile(dir / "damaged.tacozip", bytes);
  std::string messages[2];
  for (int prefetch = 0; prefetch < 2; ++prefetch) {
    auto damaged = OpenOrDie(dir / "damaged.tacozip");
    ASSERT_NE(damaged, nullptr);
    if (prefetch == 1) damaged->Prefetch(paths);
    auto europe = damaged->Read("europe");
    ASSERT_FALSE(europe.ok());
    messages[prefetch] = europe.status().message();
    EXPECT_NE(messages[prefetch].find("CRC"), std::string::npos) << messages[prefetch];
  }
  EXPECT_EQ(messages[0], messages[1]);
}

TEST(DatasetOpen, ErrorsNameThePath) {
  auto missing = Dataset::Open(testing::UpstreamFixtures() + "/nope.tacozip");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nope.tacozip"), std::string::npos);
  TempDir dir;
  testing::WriteFile(dir / "bad.tacozip", "not a zip at all");
  auto bad = Dataset::Open(dir / "bad.tacozip");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.tacozip"), std::string::npos);
}

}  // namespace
}  // namespace taco::readtest
