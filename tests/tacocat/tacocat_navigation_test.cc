// Navigation into the FOLDERs of a TACOCAT from its consolidated levels (issue 28): the
// children equal those the part's `__meta__` gives (the part ZIP opened alone reads them from
// there), no `__meta__` is read when the level can answer, and a part whose stored ranges
// may be tacotoolbox's shifted ones falls back to the `__meta__`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/model.h"
#include "taco/tacocat.h"
#include "taco/writer.h"

namespace taco {
namespace {

namespace fs = std::filesystem;

std::string Bytes(const std::string& path) {
  std::string s;
  while (s.size() < 200) s += path + ";";
  return s;
}

Sample File(const std::string& id, const std::string& path, int64_t band) {
  Sample s = *Sample::FromBytes(id, Bytes(path));
  EXPECT_TRUE(s.Extend(Field{"zeta", DataType::Int64(), Value(band), ""}).ok());
  EXPECT_TRUE(s.Extend(Field{"alpha", DataType::String(), Value(path), ""}).ok());
  return s;
}

// Root FOLDERs `roots`, each holding FOLDERs `middles` (in that order), each holding three
// FILEs padded to four: three stored levels.
Taco ThreeLevels(const std::vector<std::string>& roots, const std::vector<std::string>& middles) {
  std::vector<Sample> level0;
  for (const auto& r : roots) {
    std::vector<Sample> level1;
    for (const auto& m : middles) {
      std::vector<Sample> files;
      for (int k = 0; k < 3; ++k) files.push_back(File("f" + std::to_string(k), r + "/" + m, k));
      TortillaOptions pad;
      pad.pad_to = 4;
      Sample folder = *Sample::FromTortilla(m, *Tortilla::Make(std::move(files), pad));
      EXPECT_TRUE(folder.Extend(Field{"kind", DataType::String(), Value(std::string("middle")), ""}).ok());
      level1.push_back(std::move(folder));
    }
    level1.push_back(File("loose", r + "/loose", 9));
    Sample root = *Sample::FromTortilla(r, *Tortilla::Make(std::move(level1), {std::nullopt, false}));
    EXPECT_TRUE(root.Extend(Field{"cloud", DataType::Double(), Value(1.5), ""}).ok());
    level0.push_back(std::move(root));
  }
  nlohmann::ordered_json collection = {{"id", "catnav"},
                                       {"dataset_version", "1.0.0"},
                                       {"description", "navigation test"},
                                       {"licenses", {"CC-BY-4.0"}},
                                       {"providers", {{{"name", "Test"}}}},
                                       {"tasks", {"classification"}}};
  return *Taco::Make(*Tortilla::Make(std::move(level0)), collection);
}

std::string WriteZip(const Taco& taco, const std::string& path) {
  auto parts = Create(taco, path);
  EXPECT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_EQ(parts->size(), 1u);
  return path;
}

void ExpectSameRows(const Table& a, const Table& b, const std::string& where) {
  ASSERT_EQ(a.columns.size(), b.columns.size()) << where;
  for (size_t c = 0; c < a.columns.size(); ++c) {
    EXPECT_EQ(a.columns[c].name, b.columns[c].name) << where;
    EXPECT_EQ(a.columns[c].type.ToString(), b.columns[c].type.ToString()) << where << " " << a.columns[c].name;
    EXPECT_TRUE(a.columns[c].values == b.columns[c].values) << where << " " << a.columns[c].name;
  }
}

// Every FOLDER of `cat` (level 0 and 1) against the same FOLDER of the part ZIP opened alone,
// whose children come from its `__meta__`: same rows and columns in the same order, same
// paths, and every FILE's bytes the same. The part ZIPs lie in `dir`, or for a concat in each
// row's internal:source_path.
void ExpectSameAsParts(Dataset& cat, const std::string& dir) {
  auto table = cat.DataRaw();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  for (size_t i = 0; i < table->num_rows(); ++i) {
    const std::string id = table->column("id").values[i].get<std::string>();
    const std::string source = table->column("internal:source_file").values[i].get<std::string>();
    const int root = table->FindColumn("internal:source_path");
    const std::string in = root < 0 ? dir : table->columns[static_cast<size_t>(root)].values[i].get<std::string>();
    auto part = Dataset::Open(in + "/" + source);
    ASSERT_TRUE(part.ok()) << part.status().ToString();
    auto a = cat.Read(static_cast<int64_t>(i));
    auto b = (*part)->Read(id);
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    ASSERT_NE(a->children, nullptr);
    ExpectSameRows(a->children->rows(), b->children->rows(), source + " " + id);
    for (size_t j = 0; j < b->children->num_rows(); ++j) {
      auto ca = a->children->Read(static_cast<int64_t>(j));
      auto cb = b->children->Read(static_cast<int64_t>(j));
      ASSERT_TRUE(ca.ok()) << ca.status().ToString();
      ASSERT_TRUE(cb.ok()) << cb.status().ToString();
      EXPECT_EQ(ca->gdal_path, cb->gdal_path);
      if (ca->is_file()) {
        EXPECT_EQ(*cat.ReadBytes(*ca), *(*part)->ReadBytes(*cb)) << ca->gdal_path;
        continue;
      }
      const std::string where = source + " " + id + "/" + ca->id;
      ExpectSameRows(ca->children->rows(), cb->children->rows(), where);
      for (size_t k = 0; k < cb->children->num_rows(); ++k) {
        auto fa = ca->children->Read(static_cast<int64_t>(k));
        auto fb = cb->children->Read(static_cast<int64_t>(k));
        ASSERT_TRUE(fa.ok()) << where << ": " << fa.status().ToString();
        ASSERT_TRUE(fb.ok()) << fb.status().ToString();
        EXPECT_EQ(fa->gdal_path, fb->gdal_path);
        EXPECT_EQ(*cat.ReadBytes(*fa), *(*part)->ReadBytes(*fb)) << fa->gdal_path;
      }
    }
  }
}

// The byte range [offset, offset + size) of the `__meta__` of FOLDER `id` at level 0 of `zip`.
std::pair<int64_t, int64_t> MetaRange(const std::string& zip, const std::string& id) {
  auto ds = Dataset::Open(zip);
  EXPECT_TRUE(ds.ok());
  auto node = (*ds)->Read(id);
  EXPECT_TRUE(node.ok());
  const Table& row = node->row;
  return {row.column("internal:offset").values[0].get<int64_t>(), row.column("internal:size").values[0].get<int64_t>()};
}

// Overwrites the `__meta__` of level-0 FOLDER `id` of `zip` with zeros: reading it now fails
// (no Parquet magic), so a navigation that still answers did not read it.
void SpoilMeta(const std::string& zip, const std::string& id) {
  auto [offset, size] = MetaRange(zip, id);
  std::fstream f(zip, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(offset);
  const std::string zeros(static_cast<size_t>(size), '\0');
  f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
}

class TacocatNavigation : public ::testing::TestWithParam<bool> {
 protected:
  // part_a: roots r0, r1 with middles m0, m1 (in path order); part_b: roots q1, q0 (out of
  // path order: tacotoolbox would have shifted the ranges of its levels >= 1, so they are
  // not used); then the TACOCAT of both (GetParam(): the single-file form).
  void SetUp() override {
    dir_ = tmp_.path() + "/parts";
    fs::create_directories(dir_);
    WriteZip(ThreeLevels({"r0", "r1"}, {"m0", "m1"}), dir_ + "/part_a.tacozip");
    WriteZip(ThreeLevels({"q1", "q0"}, {"m0", "m1"}), dir_ + "/part_b.tacozip");
    TacocatOptions options;
    options.single_file = GetParam();
    auto made = CreateTacocat({dir_ + "/part_a.tacozip", dir_ + "/part_b.tacozip"}, options);
    ASSERT_TRUE(made.ok()) << made.status().ToString();
    cat_ = *made;
  }
  testing::TempDir tmp_;
  std::string dir_, cat_;
};

TEST_P(TacocatNavigation, ChildrenEqualThoseOfThePartsMeta) {
  auto cat = Dataset::Open(cat_);
  ASSERT_TRUE(cat.ok()) << cat.status().ToString();
  ASSERT_EQ((*cat)->num_levels(), 3);
  ExpectSameAsParts(**cat, dir_);
}

TEST_P(TacocatNavigation, NoMetaIsReadWhereTheLevelAnswers) {
  // part_a's level-0 FOLDERs: their children and grandchildren come from levels 1 and 2.
  SpoilMeta(dir_ + "/part_a.tacozip", "r0");
  auto part = Dataset::Open(dir_ + "/part_a.tacozip");
  ASSERT_TRUE(part.ok());
  EXPECT_FALSE((*part)->ReadPath({std::string("r0"), std::string("m0")}).ok());  // the __meta__ is spoiled
  auto cat = Dataset::Open(cat_);
  ASSERT_TRUE(cat.ok()) << cat.status().ToString();
  auto node = (*cat)->ReadPath({std::string("r0"), std::string("m1"), std::string("f2")});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  EXPECT_EQ(*(*cat)->ReadBytes(*node), Bytes("r0/m1"));
}

TEST_P(TacocatNavigation, APartOutOfPathOrderFallsBackToTheMeta) {
  // part_b's roots are out of path order (q1 before q0): its levels 1 and 2 may hold
  // tacotoolbox's shifted ranges, so its FOLDERs' children come from their __meta__.
  SpoilMeta(dir_ + "/part_b.tacozip", "q1");
  auto cat = Dataset::Open(cat_);
  ASSERT_TRUE(cat.ok());
  EXPECT_FALSE((*cat)->Read(std::string("q1")).ok());
  auto other = (*cat)->ReadPath({std::string("q0"), std::string("m1"), std::string("f1")});
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_EQ(*(*cat)->ReadBytes(*other), Bytes("q0/m1"));
}

// A concat of two TACOCATs (issue 28) navigates from each source's levels too. The second
// TACOCAT's parts have the first's file names and internal:current_ids (only their ids and
// bytes differ), so the concat's part must be told apart by internal:source_part.
class ConcatNavigation : public TacocatNavigation {
 protected:
  void SetUp() override {
    TacocatNavigation::SetUp();
    other_ = tmp_.path() + "/other";
    fs::create_directories(other_);
    WriteZip(ThreeLevels({"s0", "s1"}, {"m0", "m1"}), other_ + "/part_a.tacozip");
    WriteZip(ThreeLevels({"p1", "p0"}, {"m0", "m1"}), other_ + "/part_b.tacozip");
    TacocatOptions options;
    options.single_file = GetParam();
    auto made = CreateTacocat({other_ + "/part_a.tacozip", other_ + "/part_b.tacozip"}, options);
    ASSERT_TRUE(made.ok()) << made.status().ToString();
    other_cat_ = *made;
  }
  std::string other_, other_cat_;
};

TEST_P(ConcatNavigation, ChildrenEqualThoseOfThePartsMeta) {
  auto concat = Dataset::OpenList({cat_, other_cat_});
  ASSERT_TRUE(concat.ok()) << concat.status().ToString();
  ASSERT_EQ((*concat)->num_levels(), 3);
  ExpectSameAsParts(**concat, dir_);
}

TEST_P(ConcatNavigation, NoMetaIsReadWhereTheLevelAnswers) {
  SpoilMeta(dir_ + "/part_a.tacozip", "r0");
  SpoilMeta(other_ + "/part_a.tacozip", "s1");
  auto concat = Dataset::OpenList({cat_, other_cat_});
  ASSERT_TRUE(concat.ok()) << concat.status().ToString();
  for (const auto& [root, middle] : std::vector<std::pair<std::string, std::string>>{
           {"r0", "m1"}, {"s1", "m0"}, {"s0", "m1"}, {"q0", "m0"}, {"p1", "m1"}}) {
    auto node = (*concat)->ReadPath({root, middle, std::string("f2")});
    ASSERT_TRUE(node.ok()) << root << ": " << node.status().ToString();
    EXPECT_EQ(*(*concat)->ReadBytes(*node), Bytes(root + "/" + middle));
  }
  // A part out of path order still reads its __meta__ (spoiled here: the error says so).
  SpoilMeta(other_ + "/part_b.tacozip", "p1");
  EXPECT_FALSE((*concat)->Read(std::string("p1")).ok());
}

INSTANTIATE_TEST_SUITE_P(Forms, ConcatNavigation, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "SingleFile" : "Folder"; });

INSTANTIATE_TEST_SUITE_P(Forms, TacocatNavigation, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "SingleFile" : "Folder"; });

}  // namespace
}  // namespace taco
