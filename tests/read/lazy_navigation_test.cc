// The lazy engine (issue 28) for `info` and navigation: DescribeLevel()/DatasetInfoJson(),
// Read()/ReadPath() down to the deepest FILE, a FOLDER's children (Data(), ExportArrow())
// and the bytes of every FILE start no SQL engine on local ZIP and FOLDER datasets, and
// answer exactly what they answer once the engine runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "read/read_test_util.h"
#include "taco/arrow_c.h"
#include "taco/diagnostics.h"
#include "taco/info.h"
#include "taco/model.h"
#include "taco/writer.h"

namespace taco::readtest {
namespace {

using testing::TempDir;

// r0, r1 (FOLDER) → c0 (FOLDER) → a.bin, b.bin (FILE), plus f.bin (FILE): three levels.
Taco ThreeLevelTaco() {
  std::vector<Sample> roots;
  for (int r = 0; r < 2; ++r) {
    const std::string tag = "r" + std::to_string(r);
    std::vector<Sample> leaves;
    for (const char* name : {"a.bin", "b.bin"}) {
      Sample leaf = *Sample::FromBytes(name, tag + "/c0/" + name + std::string(100, 'x'));
      EXPECT_TRUE(leaf.Extend(Field{"band", DataType::Int64(), Value(int64_t{r}), ""}).ok());
      leaves.push_back(std::move(leaf));
    }
    std::vector<Sample> children;
    children.push_back(*Sample::FromTortilla("c0", *Tortilla::Make(std::move(leaves))));
    children.push_back(*Sample::FromBytes("f.bin", tag + "/f.bin"));
    Sample root = *Sample::FromTortilla(tag, *Tortilla::Make(std::move(children)));
    EXPECT_TRUE(root.Extend(Field{"cloud_cover", DataType::Double(), Value(0.5 * r), ""}).ok());
    roots.push_back(std::move(root));
  }
  nlohmann::ordered_json collection = {{"id", "three_levels"},           {"dataset_version", "1.0.0"},
                                       {"description", "lazy nav"},      {"licenses", {"CC-BY-4.0"}},
                                       {"providers", {{{"name", "T"}}}}, {"tasks", {"classification"}}};
  auto taco = Taco::Make(*Tortilla::Make(std::move(roots)), collection);
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return *taco;
}

std::string Dump(const Table& t) {
  std::string out;
  for (const Column& c : t.columns) {
    out += c.name + ":" + c.type.ToString() + "=[";
    for (const Value& v : c.values) out += v.ToString() + (v.is<std::string>() ? "'" : "") + ",";
    out += "] ";
  }
  return out;
}

std::string ArrowFormats(const Frame& frame) {
  ArrowArrayStream stream{};
  Status st = frame.ExportArrow(false, &stream);
  EXPECT_TRUE(st.ok()) << st.ToString();
  if (!st.ok()) return "";
  ArrowSchema schema{};
  EXPECT_EQ(stream.get_schema(&stream, &schema), 0);
  std::string out = schema.format;
  for (int64_t i = 0; i < schema.n_children; ++i) {
    out += std::string(" ") + schema.children[i]->name + ":" + schema.children[i]->format;
  }
  schema.release(&schema);
  stream.release(&stream);
  return out;
}

// Everything navigation shows below `node`, depth first: rows, children, FILE bytes.
void Walk(const Node& node, std::string* out) {
  *out += "node " + node.id + " " + node.type + " L" + std::to_string(node.level) + " " + node.gdal_path + " " +
          Dump(node.row) + "\n";
  if (!node.children) return;
  const Frame& frame = *node.children;
  *out += "children " + Dump(frame.Data()) + " arrow " + ArrowFormats(frame) + "\n";
  for (size_t i = 0; i < frame.num_rows(); ++i) {
    Node child = ValueOrDie(frame.Read(static_cast<int64_t>(i)));
    if (child.is_file()) *out += "bytes " + ValueOrDie(frame.ReadBytes(static_cast<int64_t>(i))) + "\n";
    Walk(child, out);
  }
}

// info, then every sample by position and (for level 0) by id.
std::string InfoAndTree(Dataset& ds) {
  std::string out = ValueOrDie(DatasetInfoJson(ds)).dump() + "\n";
  for (int level = 0; level < ds.num_levels(); ++level) {
    LevelInfo info = ValueOrDie(ds.DescribeLevel(level));
    out += "level " + std::to_string(info.level) + " rows " + std::to_string(info.rows) + "\n";
  }
  const int64_t n = ValueOrDie(ds.RowCount());
  for (int64_t i = 0; i < n; ++i) {
    Node node = ValueOrDie(ds.Read(i));
    Walk(node, &out);
    Node by_id = ValueOrDie(ds.Read(node.id));
    EXPECT_EQ(by_id.gdal_path, node.gdal_path);
    if (node.is_file()) out += "bytes " + ValueOrDie(ds.ReadBytes(node)) + "\n";
  }
  return out;
}

std::vector<std::string> Paths(const TempDir& dir) {
  const Taco taco = ThreeLevelTaco();
  CreateOptions zip;
  zip.format = OutputFormat::kZip;
  CreateOptions folder;
  folder.format = OutputFormat::kFolder;
  EXPECT_TRUE(Create(taco, dir / "deep.tacozip", zip).ok());
  EXPECT_TRUE(Create(taco, dir / "deep_folder", folder).ok());
  return {FlatZip(), FlatFolder(), NestedZip(), NestedFolder(), dir / "deep.tacozip", dir / "deep_folder"};
}

TEST(LazyNavigation, InfoAndNavigationStartNoEngineAndAnswerAsTheEngine) {
  TempDir dir;
  for (const std::string& path : Paths(dir)) {
    SCOPED_TRACE(path);
    const uint64_t before = EnginesStarted();
    auto lazy = OpenOrDie(path);
    ASSERT_NE(lazy, nullptr);
    const std::string without = InfoAndTree(*lazy);
    EXPECT_EQ(EnginesStarted(), before) << "info or navigation started the SQL engine";

    // The same dataset with its engine running: the engine's rows for Read() and its view
    // of every level's columns and row count.
    auto eager = OpenOrDie(path);
    ASSERT_NE(eager, nullptr);
    ASSERT_TRUE(eager->QueryRaw("SELECT 1").ok());
    EXPECT_EQ(EnginesStarted(), before + 1);
    EXPECT_EQ(InfoAndTree(*eager), without);
    for (int level = 0; level < eager->num_levels(); ++level) {
      const std::string table = "level" + std::to_string(level) + "_table";
      Table schema = ValueOrDie(eager->QueryRaw("SELECT * FROM " + table + " LIMIT 0"));
      Table count = ValueOrDie(eager->QueryRaw("SELECT count(*) FROM " + table));
      LevelInfo info = ValueOrDie(lazy->DescribeLevel(level));
      EXPECT_EQ(info.rows, static_cast<uint64_t>(count.columns.at(0).values.at(0).get<int64_t>()));
      ASSERT_EQ(info.columns.size(), schema.columns.size());
      for (size_t c = 0; c < schema.columns.size(); ++c) {
        EXPECT_EQ(info.columns[c].name, schema.columns[c].name);
        EXPECT_EQ(info.columns[c].type, schema.columns[c].type.ToString()) << schema.columns[c].name;
      }
    }
  }
}

// A three-level path followed by keys (what `taco read DS r1 c0 b.bin` and `taco cat` do).
TEST(LazyNavigation, ReadPathToTheDeepestFileStartsNoEngine) {
  TempDir dir;
  const std::vector<std::string> paths = Paths(dir);
  for (const std::string& path : {paths[4], paths[5]}) {
    SCOPED_TRACE(path);
    const uint64_t before = EnginesStarted();
    auto ds = OpenOrDie(path);
    ASSERT_NE(ds, nullptr);
    Node node = ValueOrDie(ds->ReadPath({std::string("r1"), std::string("c0"), std::string("b.bin")}));
    EXPECT_EQ(node.level, 2);
    EXPECT_EQ(ValueOrDie(ds->ReadBytes(node)), "r1/c0/b.bin" + std::string(100, 'x'));
    EXPECT_EQ(EnginesStarted(), before);
  }
}

}  // namespace
}  // namespace taco::readtest
