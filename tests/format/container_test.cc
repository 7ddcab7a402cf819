// format::Container (src/format/container.h): what each container answers in place of the
// format branches that edit, convert, publish, rebuild, views and validate had.
#include "format/container.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace taco::format {
namespace {

using Kind = StoredFile::Kind;

const Container& Of(DatasetFormat f) { return Container::For(f); }

// "kind path name" per file, for whole-list comparisons.
std::vector<std::string> Describe(const std::vector<StoredFile>& files) {
  std::vector<std::string> out;
  for (const StoredFile& f : files) {
    const char* kind = "";
    switch (f.kind) {
      case Kind::kContainerFile: kind = "container"; break;
      case Kind::kCollection: kind = "collection"; break;
      case Kind::kLevel: kind = "level"; break;
      case Kind::kIndexFile: kind = "index"; break;
      case Kind::kDataTree: kind = "data"; break;
      case Kind::kPartsBeside: kind = "parts"; break;
    }
    out.push_back(std::string(kind) + " " + f.path + " " + f.name);
  }
  return out;
}

TEST(ContainerTest, CapabilitiesOfEachContainer) {
  // Copies written as a tree (edit, convert's opposite form): FOLDER only.
  EXPECT_TRUE(Of(DatasetFormat::kFolder).is_tree());
  EXPECT_FALSE(Of(DatasetFormat::kZip).is_tree());
  EXPECT_FALSE(Of(DatasetFormat::kTacocat).is_tree());
  EXPECT_FALSE(Of(DatasetFormat::kLegacy).is_tree());
  // Samples looked up as ZIP members (views' member resolver, rebuild's CRC-checked copies).
  EXPECT_TRUE(Of(DatasetFormat::kZip).samples_are_zip_members());
  EXPECT_TRUE(Of(DatasetFormat::kTacocat).samples_are_zip_members());
  EXPECT_FALSE(Of(DatasetFormat::kFolder).samples_are_zip_members());
  EXPECT_FALSE(Of(DatasetFormat::kLegacy).samples_are_zip_members());
  // edit --in-place: a TACO ZIP only; edit refuses an index of parts (TACOCAT).
  EXPECT_TRUE(Of(DatasetFormat::kZip).metadata_rewritable_in_place());
  EXPECT_FALSE(Of(DatasetFormat::kFolder).metadata_rewritable_in_place());
  EXPECT_FALSE(Of(DatasetFormat::kTacocat).metadata_rewritable_in_place());
  EXPECT_TRUE(Of(DatasetFormat::kTacocat).indexes_parts());
  EXPECT_FALSE(Of(DatasetFormat::kZip).indexes_parts());
  EXPECT_FALSE(Of(DatasetFormat::kLegacy).indexes_parts());
  // publish lists every container but the legacy BLOB.
  EXPECT_FALSE(Of(DatasetFormat::kLegacy).publishable());
  EXPECT_TRUE(Of(DatasetFormat::kFolder).publishable());
  EXPECT_TRUE(Of(DatasetFormat::kLegacy).StoredFiles("/d/old.taco", 2).empty());
}

TEST(ContainerTest, StoredFilesOfZipAndFolder) {
  EXPECT_EQ(Describe(Of(DatasetFormat::kZip).StoredFiles("/d/set.tacozip", 2)),
            std::vector<std::string>({"container /d/set.tacozip set.tacozip"}));
  EXPECT_EQ(Describe(Of(DatasetFormat::kFolder).StoredFiles("/d/set", 2)),
            std::vector<std::string>({"collection /d/set/COLLECTION.json COLLECTION.json",
                                      "level /d/set/METADATA/level0.parquet METADATA/level0.parquet",
                                      "level /d/set/METADATA/level1.parquet METADATA/level1.parquet",
                                      "data /d/set/DATA DATA/"}));
  // A relative path keeps its form.
  EXPECT_EQ(
      Describe(Of(DatasetFormat::kFolder).StoredFiles("set", 1)),
      std::vector<std::string>({"collection set/COLLECTION.json COLLECTION.json",
                                "level set/METADATA/level0.parquet METADATA/level0.parquet", "data set/DATA DATA/"}));
}

TEST(ContainerTest, StoredFilesOfTacocatForms) {
  const Container& tacocat = Of(DatasetFormat::kTacocat);
  // The single file: the index, then the parts beside it.
  EXPECT_EQ(Describe(tacocat.StoredFiles("/d/__TACOCAT__", 3)),
            std::vector<std::string>({"index /d/__TACOCAT__ __TACOCAT__", "parts /d "}));
  EXPECT_EQ(Describe(tacocat.StoredFiles("__TACOCAT__", 1)),
            std::vector<std::string>({"index __TACOCAT__ __TACOCAT__", "parts  "}));
  // The folder, named itself or by the directory holding it.
  const std::vector<std::string> folder = {"collection /d/.tacocat/COLLECTION.json .tacocat/COLLECTION.json",
                                           "level /d/.tacocat/level0.parquet .tacocat/level0.parquet", "parts /d "};
  EXPECT_EQ(Describe(tacocat.StoredFiles("/d/.tacocat", 1)), folder);
  EXPECT_EQ(Describe(tacocat.StoredFiles("/d", 1)), folder);
}

}  // namespace
}  // namespace taco::format
