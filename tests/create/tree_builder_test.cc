// TacoFromDirectory: what becomes a sample, sibling order, metadata columns per level,
// padding, extensions, and the errors for bad trees.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "support/paths.h"
#include "taco/demo_data.h"
#include "taco/tree_builder.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

nlohmann::ordered_json Collection() {
  return nlohmann::ordered_json::parse(R"({"id": "tree_test", "dataset_version": "1.0", "description": "d",
      "licenses": ["CC0-1.0"], "providers": [{"name": "p"}], "tasks": ["classification"]})");
}

void Put(const TempDir& dir, const std::string& rel, const std::string& bytes = "x") {
  fs::path p = fs::path(dir.path()) / rel;
  fs::create_directories(p.parent_path());
  WriteFile(p.string(), bytes);
}

std::vector<std::string> Ids(const Tortilla& t) {
  std::vector<std::string> ids;
  for (const Sample& s : t.samples()) ids.push_back(s.id());
  return ids;
}

std::vector<std::string> FieldNames(const Sample& s) {
  std::vector<std::string> names;
  for (const Field& f : s.extensions()) names.push_back(f.name);
  return names;
}

const Field* FindField(const Sample& s, const std::string& name) {
  for (const Field& f : s.extensions()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

TEST(TreeBuilder, DirectoriesAreFoldersFilesAreFilesSortedByteOrderHiddenSkipped) {
  TempDir dir;
  Put(dir, "src/b/2.txt", "22");
  Put(dir, "src/b/10.txt", "1010");
  Put(dir, "src/B/2.txt");
  Put(dir, "src/B/10.txt");
  Put(dir, "src/.git/config");
  Put(dir, "src/b/.DS_Store");
  DirectoryOptions options;
  options.collection = Collection();
  auto taco = TacoFromDirectory(dir / "src", options);
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  EXPECT_EQ(Ids(taco->root()), (std::vector<std::string>{"B", "b"}));  // 'B' (0x42) < 'b' (0x62)
  const Sample& b = taco->root().samples()[1];
  EXPECT_EQ(b.type(), SampleType::kFolder);
  EXPECT_EQ(Ids(*b.children()), (std::vector<std::string>{"10.txt", "2.txt"}));
  EXPECT_EQ(b.children()->samples()[0].type(), SampleType::kFile);
  EXPECT_EQ(b.children()->samples()[0].size_bytes(), 4u);
  EXPECT_EQ(b.size_bytes(), 6u);
  EXPECT_EQ(taco->num_levels(), 2);
}

TEST(TreeBuilder, OrderFileListsFirstThenTheRestByName) {
  TempDir dir;
  for (const char* t : {"t1", "t2", "t3"}) {
    for (const char* f : {"a", "b", "c"}) Put(dir, std::string("src/") + t + "/" + f);
  }
  WriteFile(dir / "order.txt", "t3\n\n  t1  \nt1/c\n./t2/c\nt3/c\n");
  DirectoryOptions options;
  options.collection = Collection();
  options.order_file = dir / "order.txt";
  auto taco = TacoFromDirectory(dir / "src", options);
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  EXPECT_EQ(Ids(taco->root()), (std::vector<std::string>{"t3", "t1", "t2"}));
  for (const Sample& s : taco->root().samples()) {
    EXPECT_EQ(Ids(*s.children()), (std::vector<std::string>{"c", "a", "b"})) << s.id();
  }

  WriteFile(dir / "bad_order.txt", "t1\nnope/x\n");
  options.order_file = dir / "bad_order.txt";
  auto bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), dir / "bad_order.txt:2: 'nope/x' is not a sample under " + dir / "src");

  WriteFile(dir / "dup_order.txt", "t1\nt2\n./t1\n");
  options.order_file = dir / "dup_order.txt";
  bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), dir / "dup_order.txt:3: 't1' is already listed at line 1");
}

TEST(TreeBuilder, MetadataColumnsBelongToTheLevelsWhereTheyHaveValues) {
  TempDir dir;
  for (const char* t : {"ta", "tb"}) {
    for (const char* f : {"x.tif", "y.tif"}) Put(dir, std::string("src/") + t + "/" + f);
  }
  WriteFile(dir / "m.csv", "path,score,label\nta,1,\ntb/y.tif,2.5,\nta/x.tif,,water\n");
  WriteFile(dir / "m.jsonl", "{\"path\": \"tb\", \"tags\": [\"a\"], \"score\": null}\n");
  DirectoryOptions options;
  options.collection = Collection();
  options.metadata_files = {dir / "m.csv", dir / "m.jsonl"};
  auto taco = TacoFromDirectory(dir / "src", options);
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  const Sample& ta = taco->root().samples()[0];
  const Sample& tb = taco->root().samples()[1];
  // level 0: score (double over all its cells) and tags; label has no level-0 cell.
  EXPECT_EQ(FieldNames(ta), (std::vector<std::string>{"score", "tags"}));
  EXPECT_EQ(FieldNames(tb), (std::vector<std::string>{"score", "tags"}));
  EXPECT_EQ(FindField(ta, "score")->value, Value(1.0));
  EXPECT_TRUE(FindField(tb, "score")->value.is_null());
  EXPECT_TRUE(FindField(ta, "tags")->value.is_null());
  EXPECT_EQ(FindField(tb, "tags")->type, DataType::List(DataType::String()));
  // level 1: score and label for every sample, nulls where not given.
  for (const Sample& t : taco->root().samples()) {
    for (const Sample& s : t.children()->samples()) {
      EXPECT_EQ(FieldNames(s), (std::vector<std::string>{"score", "label"})) << t.id() << "/" << s.id();
    }
  }
  EXPECT_EQ(FindField(tb.children()->samples()[1], "score")->value, Value(2.5));
  EXPECT_EQ(FindField(ta.children()->samples()[0], "label")->value, Value("water"));
  EXPECT_TRUE(FindField(tb.children()->samples()[0], "label")->value.is_null());

  WriteFile(dir / "bad.csv", "path,score\nta,1\nta/zz.tif,2\n");
  options.metadata_files = {dir / "bad.csv"};
  auto bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), dir / "bad.csv:3: path 'ta/zz.tif' matches no sample under " + dir / "src");
}

TEST(TreeBuilder, PadToPadsEveryFolderAndTheRootAndLetsUnevenFoldersPass) {
  TempDir dir;
  Put(dir, "src/a/1");
  Put(dir, "src/a/2");
  Put(dir, "src/a/3");
  Put(dir, "src/b/1");
  Put(dir, "src/b/2");
  DirectoryOptions options;
  options.collection = Collection();
  auto unpadded = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(unpadded.ok());
  EXPECT_EQ(unpadded.status().message(),
            dir / "src" + ": PIT: level 1: folder 'b' has 2 children, expected 3 (as 'a'); it lacks '3'");

  options.pad_to = 3;
  WriteFile(dir / "m.csv", "path,q\na/1,1\n");
  options.metadata_files = {dir / "m.csv"};
  Put(dir, "src2/a/1");
  Put(dir, "src2/a/2");
  Put(dir, "src2/a/3");
  Put(dir, "src2/b/1");
  Put(dir, "src2/b/2");
  Put(dir, "src2/c/1");
  Put(dir, "src2/c/2");
  Put(dir, "src2/c/3");
  auto taco = TacoFromDirectory(dir / "src2", options);
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  const Sample& b = taco->root().samples()[1];
  EXPECT_EQ(Ids(*b.children()), (std::vector<std::string>{"1", "2", "__TACOPAD__0"}));
  EXPECT_TRUE(FindField(b.children()->samples()[2], "q")->value.is_null());
  EXPECT_EQ(taco->root().size(), 3u);

  // A root of FOLDERs is not padded; a root of FILEs is.
  Put(dir, "src2/d/1");
  Put(dir, "src2/d/2");
  taco = TacoFromDirectory(dir / "src2", options);
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  EXPECT_EQ(Ids(taco->root()), (std::vector<std::string>{"a", "b", "c", "d"}));
  options.metadata_files.clear();
  auto flat = TacoFromDirectory(dir / "src2/a", options);
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  EXPECT_EQ(Ids(flat->root()), (std::vector<std::string>{"1", "2", "3"}));
  options.pad_to = 2;
  flat = TacoFromDirectory(dir / "src2/a", options);
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  EXPECT_EQ(Ids(flat->root()), (std::vector<std::string>{"1", "2", "3", "__TACOPAD__0"}));
}

TEST(TreeBuilder, BadTreesAreErrorsNamingThePath) {
  TempDir dir;
  Put(dir, "src/a/__x");
  DirectoryOptions options;
  options.collection = Collection();
  auto bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), dir /
                                        "src/a/__x: bad sample id: id '__x' starts with '__' (reserved for "
                                        "padding samples '__TACOPAD__<k>')");

  fs::remove(dir / "src/a/__x");
  bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(dir / "src/a: empty directory"), std::string::npos);

  Put(dir, "target/f", "data");
  Put(dir, "src/a/real");
  ASSERT_EQ(::symlink((dir / "target").c_str(), (dir / "src/a/dirlink").c_str()), 0);
  bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(dir / "src/a/dirlink: symbolic link to a directory"), std::string::npos);

  fs::remove(dir / "src/a/dirlink");
  ASSERT_EQ(::symlink((dir / "target/f").c_str(), (dir / "src/a/filelink").c_str()), 0);
  auto ok = TacoFromDirectory(dir / "src", options);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  const Sample& link = ok->root().samples()[0].children()->samples()[0];
  EXPECT_EQ(link.id(), "filelink");
  EXPECT_EQ(link.size_bytes(), 4u);

  options.collection.erase("licenses");
  options.collection_name = "col.json";
  bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "col.json: collection: missing required field 'licenses'");

  options.collection = Collection();
  options.extensions = {ext::ExtensionSpec{"nope", "", "nope"}};  // made by hand, not parsed
  bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("extension 'nope' is unknown"), std::string::npos);

  DirectoryOptions plain;
  plain.collection = Collection();
  bad = TacoFromDirectory(dir / "missing", plain);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kNotFound);
}

// The root's entries are scanned on worker threads in batches: the samples still come in
// byte order with their own sizes, and of several bad entries the first in that order is
// the one reported, whatever batch each is in.
TEST(TreeBuilder, ManyRootEntriesKeepTheirOrderAndTheFirstBadOneIsReported) {
  TempDir dir;
  std::vector<std::string> expected;
  for (int i = 99; i >= 0; --i) {
    char name[8];
    std::snprintf(name, sizeof name, "d%03d", i);
    Put(dir, std::string("src/") + name + "/f", std::string(static_cast<size_t>(i + 1), 'x'));
  }
  for (int i = 0; i < 100; ++i) {
    char name[8];
    std::snprintf(name, sizeof name, "d%03d", i);
    expected.push_back(name);
  }
  DirectoryOptions options;
  options.collection = Collection();
  auto taco = TacoFromDirectory(dir / "src", options);
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  EXPECT_EQ(Ids(taco->root()), expected);
  for (size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(taco->root().samples()[i].children()->samples()[0].size_bytes(), i + 1) << expected[i];
  }

  Put(dir, "src/d090/__x");        // a bad id in a later batch
  fs::remove(dir / "src/d050/f");  // an empty directory in an earlier one
  Put(dir, "src/d070/.hidden");    // hidden entries do not count
  fs::remove(dir / "src/d070/f");
  auto bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), dir /
                                        "src/d050: empty directory (a FOLDER sample needs at least one child; "
                                        "hidden entries do not count)");
  Put(dir, "src/d050/f");
  Put(dir, "src/d070/f");
  bad = TacoFromDirectory(dir / "src", options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), dir /
                                        "src/d090/__x: bad sample id: id '__x' starts with '__' (reserved for "
                                        "padding samples '__TACOPAD__<k>')");
}

TEST(TreeBuilder, ExtensionsComeAfterMetadataAndFoldersGetNulls) {
  TempDir dir;
  DemoOptions demo;
  demo.tiles = 2;
  demo.size = 8;
  ASSERT_TRUE(SynthesizeDemoTree(dir / "src", demo).ok());
  WriteFile(dir / "m.csv", "path,note\ntile_00/label.tif,hi\n");
  DirectoryOptions options;
  options.collection = Collection();
  options.metadata_files = {dir / "m.csv"};
  options.extensions = *ext::ParseExtensionSpecs({"stac", "majortom"});
  size_t last_done = 0, last_total = 0;
  options.progress = [&](size_t done, size_t total) {
    last_done = done;
    last_total = total;
  };
  auto taco = TacoFromDirectory(dir / "src", options);
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  EXPECT_EQ(last_total, 6u);
  EXPECT_EQ(last_done, 6u);
  const Sample& label = taco->root().samples()[0].children()->samples()[2];
  ASSERT_EQ(label.id(), "label.tif");
  std::vector<std::string> names = FieldNames(label);
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names.front(), "note");
  EXPECT_EQ(names[1], "stac:crs");
  EXPECT_EQ(names.back(), "majortom:code");
  ASSERT_NE(FindField(label, "stac:crs"), nullptr);
  EXPECT_TRUE(FindField(label, "stac:crs")->value.is<std::string>());
  EXPECT_TRUE(FindField(label, "majortom:code")->value.is<std::string>());
  // Level 0 holds only FOLDERs: they get the STAC columns from their files (centroid set,
  // the per-raster columns null) and, having a centroid column, majortom.
  const Sample& tile = taco->root().samples()[0];
  ASSERT_NE(FindField(tile, "stac:centroid"), nullptr);
  EXPECT_TRUE(FindField(tile, "stac:centroid")->value.is<Binary>());
  EXPECT_TRUE(FindField(tile, "stac:crs")->value.is_null());
  EXPECT_TRUE(FindField(tile, "stac:tensor_shape")->value.is_null());
  ASSERT_NE(FindField(tile, "majortom:code"), nullptr);
  EXPECT_TRUE(FindField(tile, "majortom:code")->value.is<std::string>());
}

TEST(TreeBuilder, FilePatternsShareAColumnAndStatsOnlyGoToLevelsTheyMatch) {
  TempDir dir;
  DemoOptions demo;
  demo.tiles = 2;
  demo.size = 8;
  ASSERT_TRUE(SynthesizeDemoTree(dir / "src", demo).ok());
  DirectoryOptions options;
  options.collection = Collection();
  options.extensions = *ext::ParseExtensionSpecs({"stats:*fore.tif,stats-categorical:label.tif"});
  auto taco = TacoFromDirectory(dir / "src", options);
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  EXPECT_TRUE(taco->root().samples()[0].extensions().empty());  // no stac: FOLDERs get nothing
  int categorical = 0;
  for (const Sample& file : taco->root().samples()[0].children()->samples()) {
    ASSERT_EQ(FieldNames(file), std::vector<std::string>{"geotiff:stats"}) << file.id();
    const Value& v = FindField(file, "geotiff:stats")->value;
    if (v.is_null()) continue;  // a band without valid pixels
    const size_t k = v.get<ValueList>()[0].get<ValueList>().size();
    if (file.id() == "label.tif") {
      EXPECT_NE(k, 9u);
      ++categorical;
    } else {
      EXPECT_EQ(k, 9u) << file.id();
    }
  }
  EXPECT_EQ(categorical, 1);
}

TEST(TreeBuilder, LoadCollectionFileNamesTheFile) {
  TempDir dir;
  WriteFile(dir / "c.json", "{\"id\": ");
  auto bad = LoadCollectionFile(dir / "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind(dir / "c.json: is not valid JSON", 0), 0u) << bad.status().message();
  WriteFile(dir / "c.json", "[]");
  bad = LoadCollectionFile(dir / "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), dir / "c.json: expected a JSON object with the collection fields, got array");
  WriteFile(dir / "c.json", Collection().dump());
  auto good = LoadCollectionFile(dir / "c.json");
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ((*good)["id"], "tree_test");
}

}  // namespace
}  // namespace taco::testing
