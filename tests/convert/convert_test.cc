// Conversions (ZIP ⇄ FOLDER) and export: bytes, metadata, safety, CLI.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "format/zip/zip_writer.h"
#include "support/paths.h"
#include "table/engine.h"
#include "taco/convert.h"
#include "taco/dataset.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;
using testing::WriteFile;

std::string Fixture(const std::string& rel) { return testing::UpstreamFixtures() + "/" + rel; }
std::string FlatZip() { return Fixture("zip/flat/flat.tacozip"); }
std::string NestedZip() { return Fixture("zip/nested/nested.tacozip"); }
std::string FlatFolder() { return Fixture("folder/flat"); }
std::string NestedFolder() { return Fixture("folder/nested"); }

std::unique_ptr<Dataset> OpenOrDie(const std::string& path) {
  auto ds = Dataset::Open(path);
  EXPECT_TRUE(ds.ok()) << ds.status().ToString();
  return ds.ok() ? std::move(*ds) : nullptr;
}

// Non-internal columns by name.
std::map<std::string, Column> PublicColumns(const Table& t) {
  std::map<std::string, Column> out;
  for (const Column& c : t.columns) {
    if (c.name.rfind("internal:", 0) != 0) out[c.name] = c;
  }
  return out;
}

void ExpectSameColumns(const Table& a, const Table& b, const std::string& what) {
  auto ca = PublicColumns(a);
  auto cb = PublicColumns(b);
  ASSERT_EQ(a.num_rows(), b.num_rows()) << what;
  ASSERT_EQ(ca.size(), cb.size()) << what;
  for (const auto& [name, col] : ca) {
    auto it = cb.find(name);
    ASSERT_NE(it, cb.end()) << what << ": column " << name << " missing";
    EXPECT_EQ(col.type.ToString(), it->second.type.ToString()) << what << ": " << name;
    EXPECT_TRUE(col.values == it->second.values) << what << ": values of " << name << " differ";
  }
}

// Walks a frame pair recursively comparing rows and every FILE's bytes; counts files.
void CompareFrames(const Dataset& da, const Frame& fa, const Dataset& db, const Frame& fb, const std::string& where,
                   int* files) {
  ExpectSameColumns(fa.rows(), fb.rows(), where);
  for (size_t i = 0; i < fa.num_rows(); ++i) {
    auto na = fa.Read(static_cast<int64_t>(i));
    auto nb = fb.Read(static_cast<int64_t>(i));
    ASSERT_TRUE(na.ok() && nb.ok()) << where;
    ASSERT_EQ(na->id, nb->id);
    ASSERT_EQ(na->type, nb->type);
    if (na->is_file()) {
      auto ba = da.ReadBytes(*na);
      auto bb = db.ReadBytes(*nb);
      ASSERT_TRUE(ba.ok() && bb.ok()) << where << "/" << na->id;
      EXPECT_EQ(*ba, *bb) << where << "/" << na->id;
      ++*files;
    } else {
      CompareFrames(da, *na->children, db, *nb->children, where + "/" + na->id, files);
    }
  }
}

// Same levels (non-internal columns), same tree, same bytes. Returns the FILE count.
int ExpectSameDataset(const std::string& a, const std::string& b) {
  auto da = OpenOrDie(a);
  auto db = OpenOrDie(b);
  if (!da || !db) return -1;
  EXPECT_EQ(da->num_levels(), db->num_levels());
  for (int level = 0; level < std::min(da->num_levels(), db->num_levels()); ++level) {
    const std::string q = "SELECT * FROM level" + std::to_string(level);
    auto ta = da->QueryRaw(q);
    auto tb = db->QueryRaw(q);
    EXPECT_TRUE(ta.ok() && tb.ok());
    if (ta.ok() && tb.ok()) ExpectSameColumns(*ta, *tb, a + " vs " + b + " level" + std::to_string(level));
  }
  auto ra = da->DataRaw();
  auto rb = db->DataRaw();
  EXPECT_TRUE(ra.ok() && rb.ok());
  if (!ra.ok() || !rb.ok()) return -1;
  EXPECT_EQ(ra->num_rows(), rb->num_rows());
  int files = 0;
  for (size_t i = 0; i < std::min(ra->num_rows(), rb->num_rows()); ++i) {
    auto na = da->Read(static_cast<int64_t>(i));
    auto nb = db->Read(static_cast<int64_t>(i));
    EXPECT_TRUE(na.ok() && nb.ok());
    if (!na.ok() || !nb.ok()) return -1;
    EXPECT_EQ(na->id, nb->id);
    EXPECT_EQ(na->type, nb->type);
    if (na->is_file()) {
      auto ba = da->ReadBytes(*na);
      auto bb = db->ReadBytes(*nb);
      EXPECT_TRUE(ba.ok() && bb.ok());
      if (ba.ok() && bb.ok()) {
        EXPECT_EQ(*ba, *bb) << na->id;
      }
      ++files;
    } else {
      CompareFrames(*da, *na->children, *db, *nb->children, na->id, &files);
    }
  }
  // Collection fields other than the generated ones survive.
  for (const char* key : {"id", "dataset_version", "description", "licenses", "providers", "tasks", "extent"}) {
    EXPECT_EQ(da->collection().value(key, nlohmann::ordered_json()),
              db->collection().value(key, nlohmann::ordered_json()))
        << key;
  }
  // tacotoolbox 0.26 adds a pit `shape` array (its virtual padding) that our writer does not
  // write (tests/interop/test_matrix.py test_collection_and_pit); the rest of the pit schema must survive.
  nlohmann::ordered_json pit_a = da->collection().at("taco:pit_schema");
  nlohmann::ordered_json pit_b = db->collection().at("taco:pit_schema");
  pit_a.erase("shape");
  pit_b.erase("shape");
  EXPECT_EQ(pit_a, pit_b);
  return files;
}

struct RoundTrip {
  std::string input;
  int expected_files;
};

class ConvertRoundTrip : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(ConvertRoundTrip, KeepsBytesAndMetadata) {
  TempDir tmp;
  const std::string in = GetParam().input;
  const bool from_zip = in.find(".tacozip") != std::string::npos;
  const std::string mid = tmp / (from_zip ? "mid" : "mid.tacozip");
  const std::string back = tmp / (from_zip ? "back.tacozip" : "back");

  auto first = Convert(in, mid);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_EQ(*first, std::vector<std::string>{mid});
  auto second = Convert(mid, back);
  ASSERT_TRUE(second.ok()) << second.status().ToString();

  auto dm = OpenOrDie(mid);
  auto db = OpenOrDie(back);
  ASSERT_TRUE(dm && db);
  EXPECT_EQ(dm->format(), from_zip ? DatasetFormat::kFolder : DatasetFormat::kZip);
  EXPECT_EQ(db->format(), from_zip ? DatasetFormat::kZip : DatasetFormat::kFolder);
  EXPECT_EQ(dm->collection().at("taco_version"), "2.0.0");

  EXPECT_EQ(ExpectSameDataset(in, mid), GetParam().expected_files);
  EXPECT_EQ(ExpectSameDataset(in, back), GetParam().expected_files);
  EXPECT_EQ(ExpectSameDataset(mid, back), GetParam().expected_files);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ConvertRoundTrip,
                         ::testing::Values(RoundTrip{FlatZip(), 5}, RoundTrip{NestedZip(), 9},
                                           RoundTrip{FlatFolder(), 5}, RoundTrip{NestedFolder(), 9}));

TEST(Convert, NestedZipFolderHasCorrectLevel1Offsets) {
  // The upstream nested ZIP has rotated level1 offsets; the rebuilt ZIP follows __meta__.
  TempDir tmp;
  ASSERT_TRUE(Convert(NestedZip(), tmp / "f").ok());
  ASSERT_TRUE(Convert(tmp / "f", tmp / "z.tacozip").ok());
  auto ds = OpenOrDie(tmp / "z.tacozip");
  ASSERT_TRUE(ds);
  auto level1 = ds->QueryRaw("SELECT \"internal:gdal_vsi\", \"internal:relative_path\" FROM level1");
  ASSERT_TRUE(level1.ok()) << level1.status().ToString();
  ASSERT_EQ(level1->num_rows(), 9u);
  for (size_t i = 0; i < 9; ++i) {
    const std::string rel = level1->columns[1].values[i].get<std::string>();
    const std::string region = rel.substr(0, rel.find('/'));
    const std::string item = rel.substr(rel.find('/') + 1);
    auto node = ds->ReadPath({SampleKey(region), SampleKey(item)});
    ASSERT_TRUE(node.ok());
    EXPECT_EQ(node->gdal_path, level1->columns[0].values[i].get<std::string>()) << rel;
    auto bytes = ds->ReadBytes(*node);
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(*bytes, "data_" + region + "_" + item.substr(5));
  }
}

TEST(Convert, ExistingOutputIsRefusedAndUntouched) {
  TempDir tmp;
  const std::string out = tmp / "out";
  ASSERT_EQ(::mkdir(out.c_str(), 0755), 0);
  WriteFile(out + "/keep", "mine");
  auto r = Convert(FlatZip(), out);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadFile(out + "/keep"), "mine");
  size_t entries = 0;
  for (auto it = fs::directory_iterator(tmp.path()); it != fs::directory_iterator(); ++it) ++entries;
  EXPECT_EQ(entries, 1u);  // no temporary left beside it
  size_t inside = 0;
  for (auto it = fs::directory_iterator(out); it != fs::directory_iterator(); ++it) ++inside;
  EXPECT_EQ(inside, 1u);
}

// A ZIP whose level0 says a FILE is called `id` (hand-made; every check of the writer bypassed).
void WriteZipWithId(const std::string& path, const std::string& id) {
  auto zip = zip::ZipWriter::Create(path);
  ASSERT_TRUE(zip.ok());
  ASSERT_TRUE((*zip)->BeginTacoHeader().ok());
  // The member is named after a plain id (readers check the name at the offset); an id that
  // cannot be a member name is refused before any member is read.
  const bool plain = id.find_first_of("./\\") == std::string::npos;
  auto data = (*zip)->AddBytes(plain ? "DATA/" + id : "DATA/good", "payload");
  ASSERT_TRUE(data.ok());
  Table level0;
  level0.columns.push_back({"id", DataType::String(), {Value(id)}});
  level0.columns.push_back({"type", DataType::String(), {Value("FILE")}});
  level0.columns.push_back({"internal:current_id", DataType::Int64(), {Value(int64_t{0})}});
  level0.columns.push_back({"internal:parent_id", DataType::Int64(), {Value(int64_t{0})}});
  level0.columns.push_back({"internal:offset", DataType::Int64(), {Value(static_cast<int64_t>(data->data_offset))}});
  level0.columns.push_back({"internal:size", DataType::Int64(), {Value(static_cast<int64_t>(data->size))}});
  auto engine = table::Engine::Open();
  ASSERT_TRUE(engine.ok());
  auto parquet = (*engine)->ToParquet(level0);
  ASSERT_TRUE(parquet.ok()) << parquet.status().ToString();
  auto l0 = (*zip)->AddBytes("METADATA/level0.parquet", *parquet);
  ASSERT_TRUE(l0.ok());
  nlohmann::ordered_json c = {
      {"id", "evil"},
      {"dataset_version", "1"},
      {"description", "d"},
      {"licenses", {"x"}},
      {"providers", {{{"name", "p"}}}},
      {"tasks", {"other"}},
      {"taco:pit_schema", {{"root", {{"n", 1}, {"type", "FILE"}}}, {"hierarchy", nlohmann::ordered_json::object()}}}};
  auto col = (*zip)->AddBytes("COLLECTION.json", c.dump());
  ASSERT_TRUE(col.ok());
  ASSERT_TRUE((*zip)->SetTacoHeader({{l0->data_offset, l0->size}, {col->data_offset, col->size}}).ok());
  ASSERT_TRUE((*zip)->Finish().ok());
}

TEST(ConvertSafety, ZipWithTraversalIdIsRefused) {
  TempDir tmp;
  ASSERT_EQ(::mkdir((tmp / "in").c_str(), 0755), 0);
  const std::string good = tmp / "in/good.tacozip";
  WriteZipWithId(good, "fine");
  ASSERT_TRUE(Convert(good, tmp / "in/good_out").ok());  // the hand-made ZIP itself is readable

  for (const std::string bad_id : {"../../evil", "/abs/evil", "a\\b", ".."}) {
    const std::string bad = tmp / "in/bad.tacozip";
    fs::remove(bad);
    WriteZipWithId(bad, bad_id);
    const std::string out = tmp / "in/out";
    auto r = Convert(bad, out);
    ASSERT_FALSE(r.ok()) << bad_id;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();
    EXPECT_NE(r.status().message().find(bad), std::string::npos) << r.status().ToString();
    EXPECT_NE(r.status().message().find("id '" + bad_id + "'"), std::string::npos) << r.status().ToString();
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(tmp / "evil"));
    EXPECT_FALSE(fs::exists(tmp.path() + "/../evil"));
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(tmp / "in")) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"bad.tacozip", "good.tacozip", "good_out"})) << bad_id;
  }
}

std::string CopyTree(const std::string& from, const std::string& to) {
  fs::copy(from, to, fs::copy_options::recursive);
  return to;
}

TEST(ConvertSafety, FolderMetaWithTraversalIdIsRefused) {
  TempDir tmp;
  const std::string src = CopyTree(NestedFolder(), tmp / "nested");
  const std::string meta = src + "/DATA/europe/__meta__";
  auto engine = table::Engine::Open();
  ASSERT_TRUE(engine.ok());
  auto reader = OpenLocalFile(meta);
  ASSERT_TRUE(reader.ok());
  auto rows = (*engine)->ReadParquet(*reader);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  int id_col = rows->FindColumn("id");
  ASSERT_GE(id_col, 0);
  rows->columns[static_cast<size_t>(id_col)].values[0] = Value(std::string("../../../evil"));
  auto parquet = (*engine)->ToParquet(*rows);
  ASSERT_TRUE(parquet.ok());
  fs::remove(meta);
  WriteFile(meta, *parquet);

  const std::string out = tmp / "out.tacozip";
  auto r = Convert(src, out);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();
  EXPECT_NE(r.status().message().find("../../../evil"), std::string::npos) << r.status().ToString();
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(tmp / "evil"));
}

TEST(ConvertSafety, FolderSymlinkIsRefused) {
  TempDir tmp;
  const std::string src = CopyTree(FlatFolder(), tmp / "flat");
  WriteFile(tmp / "secret", "outside");
  fs::remove(src + "/DATA/sample_2");
  fs::create_symlink(tmp / "secret", src + "/DATA/sample_2");
  auto r = Convert(src, tmp / "out.tacozip");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("symbolic link"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("sample_2"), std::string::npos) << r.status().ToString();
  EXPECT_FALSE(fs::exists(tmp / "out.tacozip"));
}

void ExpectSubsetCollection(const Dataset& ds) {
  EXPECT_EQ(ds.collection().at("taco:subset_of"), "test_dataset");
  const std::string date = ds.collection().at("taco:subset_date").get<std::string>();
  EXPECT_TRUE(std::regex_match(date, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00)"))) << date;
}

TEST(Export, BboxSubsetOfFlatZip) {
  TempDir tmp;
  auto ds = OpenOrDie(FlatZip());
  ASSERT_TRUE(ds);
  auto view = ds->FilterBbox(-80, -15, -70, 41);  // lima and nyc
  ASSERT_TRUE(view.ok());
  auto ids = (*view)->Data();
  ASSERT_TRUE(ids.ok());
  ASSERT_EQ(ids->num_rows(), 2u);
  for (const std::string& out : {tmp / "sub.tacozip", tmp / "sub"}) {
    auto written = Export(**view, out);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    auto sub = OpenOrDie(out);
    ASSERT_TRUE(sub);
    ExpectSubsetCollection(*sub);
    auto rows = sub->Data();
    ASSERT_TRUE(rows.ok());
    ASSERT_EQ(rows->num_rows(), 2u);
    EXPECT_TRUE(rows->column("id").values == ids->column("id").values);
    ExpectSameColumns(*rows, *ids, "exported rows");
    // Recomputed extent covers only the subset (lima -77,-12 and nyc -74,40.7).
    auto spatial = sub->collection().at("extent").at("spatial");
    EXPECT_LT(spatial[2].get<double>(), 0.0);
    EXPECT_EQ(sub->collection().at("taco:pit_schema").at("root").at("n"), 2);
    for (size_t i = 0; i < 2; ++i) {
      auto a = sub->Read(static_cast<int64_t>(i));
      auto b = ds->Read(ids->column("id").values[i].get<std::string>());
      ASSERT_TRUE(a.ok() && b.ok());
      EXPECT_EQ(*sub->ReadBytes(*a), *ds->ReadBytes(*b));
    }
  }
}

TEST(Export, CascadedFilterKeepsWholeSubtrees) {
  TempDir tmp;
  auto ds = OpenOrDie(NestedFolder());
  ASSERT_TRUE(ds);
  auto view = ds->FilterBbox(-74.2, 40.5, -73.8, 40.9, "auto", 1);  // one child of americas
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  auto filtered_node = (*view)->Read("americas");
  ASSERT_TRUE(filtered_node.ok());
  ASSERT_LT(filtered_node->children->num_rows(), 3u);  // the view itself hides children

  const std::string out = tmp / "americas.tacozip";
  auto written = Export(**view, out);  // reopens the source for whole subtrees
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto sub = OpenOrDie(out);
  ASSERT_TRUE(sub);
  ExpectSubsetCollection(*sub);
  auto rows = sub->Data();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->num_rows(), 1u);
  EXPECT_EQ(rows->column("id").values[0], Value("americas"));
  auto node = sub->Read("americas");
  ASSERT_TRUE(node.ok());
  ASSERT_EQ(node->children->num_rows(), 3u);
  auto src_node = ds->Read("americas");
  ASSERT_TRUE(src_node.ok());
  int files = 0;
  CompareFrames(*sub, *node->children, *ds, *src_node->children, "americas", &files);
  EXPECT_EQ(files, 3);
  auto level1 = sub->QueryRaw("SELECT count(*) FROM level1");
  ASSERT_TRUE(level1.ok());
  EXPECT_EQ(level1->columns[0].values[0], Value(int64_t{3}));
}

TEST(Export, EmptySelectionIsAnErrorAndWritesNothing) {
  TempDir tmp;
  auto ds = OpenOrDie(FlatZip());
  ASSERT_TRUE(ds);
  auto view = ds->FilterBbox(50, 50, 51, 51);
  ASSERT_TRUE(view.ok());
  auto r = Export(**view, tmp / "none.tacozip");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("empty"), std::string::npos) << r.status().ToString();
  EXPECT_FALSE(fs::exists(tmp / "none.tacozip"));
}

TEST(ConvertCli, ZipToFolderAndBack) {
  TempDir tmp;
  auto r = RunTaco("convert " + ShellQuote(NestedZip()) + " " + ShellQuote(tmp / "n"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, tmp / "n" + "\n");
  EXPECT_EQ(r.err, "");
  auto back = RunTaco("convert " + ShellQuote(tmp / "n") + " " + ShellQuote(tmp / "n2.tacozip"));
  EXPECT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(ExpectSameDataset(NestedZip(), tmp / "n2.tacozip"), 9);

  auto forced = RunTaco("convert --format zip " + ShellQuote(NestedZip()) + " " + ShellQuote(tmp / "plain"));
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(ReadFile(tmp / "plain").substr(0, 2), "PK");
}

TEST(ConvertCli, ExistingOutputExitCode2) {
  TempDir tmp;
  WriteFile(tmp / "x.tacozip", "already");
  auto r = RunTaco("convert " + ShellQuote(FlatFolder()) + " " + ShellQuote(tmp / "x.tacozip"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "taco: convert: " + tmp / "x.tacozip" + ": already exists\n");
  EXPECT_EQ(ReadFile(tmp / "x.tacozip"), "already");
}

TEST(ExportCli, BboxAndSql) {
  TempDir tmp;
  auto r =
      RunTaco("export " + ShellQuote(FlatZip()) + " " + ShellQuote(tmp / "v.tacozip") + " --bbox -0.5,39.3,-0.2,39.6");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, tmp / "v.tacozip" + "\n");
  auto v = OpenOrDie(tmp / "v.tacozip");
  ASSERT_TRUE(v);
  auto rows = v->Data();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->num_rows(), 1u);
  EXPECT_EQ(rows->column("location").values[0], Value("valencia"));
  ExpectSubsetCollection(*v);

  auto sql = RunTaco("export " + ShellQuote(NestedZip()) + " " + ShellQuote(tmp / "s") +
                     " --sql \"SELECT * FROM data_raw WHERE id <> 'asia'\" --format folder");
  EXPECT_EQ(sql.exit_code, 0) << sql.err;
  auto s = OpenOrDie(tmp / "s");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->format(), DatasetFormat::kFolder);
  auto level1 = s->QueryRaw("SELECT count(*) FROM level1");
  ASSERT_TRUE(level1.ok());
  EXPECT_EQ(level1->columns[0].values[0], Value(int64_t{6}));

  auto bad = RunTaco("export " + ShellQuote(FlatZip()) + " " + ShellQuote(tmp / "b.tacozip") + " --bbox 1,2,3");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "taco: export: --bbox '1,2,3': expected minx,miny,maxx,maxy (4 numbers)\n");
  EXPECT_FALSE(fs::exists(tmp / "b.tacozip"));
}

}  // namespace
}  // namespace taco

namespace taco {
namespace {

// Done-when of the conversions: zip → folder → zip and folder → zip → folder outputs pass
// `taco validate` (exit 0), on both upstream fixtures.
TEST(ConvertCli, RoundTripsPassValidate) {
  using testing::RunTaco;
  using testing::ShellQuote;
  testing::TempDir tmp;
  const std::string f = testing::UpstreamFixtures();
  struct Case {
    std::string input, first, second;
  };
  for (const Case& c :
       {Case{f + "/zip/nested/nested.tacozip", "n_folder", "n.tacozip"},
        Case{f + "/zip/flat/flat.tacozip", "f_folder", "f.tacozip"},
        Case{f + "/folder/nested", "nz.tacozip", "nz_folder"}, Case{f + "/folder/flat", "fz.tacozip", "fz_folder"}}) {
    ASSERT_EQ(RunTaco("convert " + ShellQuote(c.input) + " " + ShellQuote(tmp / c.first)).exit_code, 0) << c.input;
    ASSERT_EQ(RunTaco("convert " + ShellQuote(tmp / c.first) + " " + ShellQuote(tmp / c.second)).exit_code, 0);
    for (const std::string& out : {c.first, c.second}) {
      auto v = RunTaco("validate " + ShellQuote(tmp / out));
      EXPECT_EQ(v.exit_code, 0) << out << ": " << v.out << v.err;
    }
  }
}

}  // namespace
}  // namespace taco
