// ShareFolderWrites (write/folder_shares.h): how a FOLDER output's files and __meta__ files
// are shared out between the writer threads. Checked on hand-made level tables: the runs
// cover every file once in order, every __meta__ is in exactly one share (the one holding
// its folder's first file), shares are balanced by weight, and a cut does not split a
// directory when a directory change is in reach.
#include <gtest/gtest.h>

#include <deque>
#include <set>
#include <string>

#include "model/metadata.h"
#include "taco/model.h"
#include "write/folder_shares.h"

namespace taco::write {
namespace {

// Level tables holding only what ShareFolderWrites reads: files (path, sample) and the
// folders of folder_meta (tables left empty).
class Tree {
 public:
  void File(const std::string& path, size_t bytes = 4096) {
    samples_.push_back(*Sample::FromBytes("f", std::string(bytes, 'x')));
    tables_.files.emplace_back(path, &samples_.back());
  }
  void Folder(const std::string& path) { tables_.folder_meta.emplace_back(path, Table{}); }
  const model::LevelTables& tables() const { return tables_; }

 private:
  std::deque<Sample> samples_;  // stable addresses
  model::LevelTables tables_;
};

std::string Parent(const std::string& path) { return path.substr(0, path.rfind('/') + 1); }

// The contract's invariants for any tree and count.
void ExpectCoversAll(const model::LevelTables& t, const std::vector<FolderShare>& shares, size_t count) {
  ASSERT_EQ(shares.size(), count);
  size_t next = 0;
  std::set<size_t> metas;
  for (const FolderShare& s : shares) {
    EXPECT_EQ(s.file_begin, next);
    EXPECT_LE(s.file_begin, s.file_end);
    next = s.file_end;
    EXPECT_TRUE(std::is_sorted(s.metas.begin(), s.metas.end()));
    for (size_t k : s.metas) EXPECT_TRUE(metas.insert(k).second) << "meta " << k << " in two shares";
  }
  EXPECT_EQ(next, t.files.size());
  EXPECT_EQ(metas.size(), t.folder_meta.size());
}

// Which share holds file i.
size_t ShareOfFile(const std::vector<FolderShare>& shares, size_t i) {
  for (size_t j = 0; j < shares.size(); ++j) {
    if (i >= shares[j].file_begin && i < shares[j].file_end) return j;
  }
  return shares.size();
}

// The scale benchmark's tree: N folders × 2 files of 4 KiB, a __meta__ each.
TEST(ShareFolderWrites, ScaleTreeSplitsInHalvesWithEachMetaBesideItsFiles) {
  Tree tree;
  for (int i = 0; i < 10; ++i) {
    const std::string folder = "DATA/sample_" + std::to_string(i) + "/";
    tree.Folder(folder);
    tree.File(folder + "a");
    tree.File(folder + "b");
  }
  const auto shares = ShareFolderWrites(tree.tables(), 2);
  ExpectCoversAll(tree.tables(), shares, 2);
  EXPECT_EQ(shares[0].file_end, 10u);
  EXPECT_EQ(shares[0].metas, (std::vector<size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(shares[1].metas, (std::vector<size_t>{5, 6, 7, 8, 9}));
  std::set<std::string> dirs0, dirs1;  // no directory gets files from both shares
  for (size_t i = 0; i < 20; ++i) (i < 10 ? dirs0 : dirs1).insert(Parent(tree.tables().files[i].first));
  for (const std::string& d : dirs0) EXPECT_EQ(dirs1.count(d), 0u) << d;
}

// Weights 3,1 | 3,1 | 3,1 (the __meta__ on each folder's first file): half of 12 is reached
// inside the second folder, so the cut moves on to the third.
TEST(ShareFolderWrites, CutMovesToTheNextDirectory) {
  Tree tree;
  for (const char* folder : {"DATA/x/", "DATA/y/", "DATA/z/"}) {
    tree.Folder(folder);
    tree.File(std::string(folder) + "1");
    tree.File(std::string(folder) + "2");
  }
  const auto shares = ShareFolderWrites(tree.tables(), 2);
  ExpectCoversAll(tree.tables(), shares, 2);
  EXPECT_EQ(shares[0].file_end, 4u);
  EXPECT_EQ(shares[0].metas, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(shares[1].metas, (std::vector<size_t>{2}));
}

// One directory: no directory change in reach, so the cut by weight stays.
TEST(ShareFolderWrites, OneDirectoryIsCutByWeight) {
  Tree tree;
  for (int i = 0; i < 10; ++i) tree.File("DATA/f" + std::to_string(i));
  const auto shares = ShareFolderWrites(tree.tables(), 2);
  ExpectCoversAll(tree.tables(), shares, 2);
  EXPECT_EQ(shares[0].file_end, 5u);
}

// Work of the last share besides its files (the levels) moves the cut towards the end: 20
// files of weight 1 in 20 directories and 10 more for the last share: share 0 takes 15.
TEST(ShareFolderWrites, LastShareExtraWorkIsWeighedIn) {
  Tree tree;
  for (int i = 0; i < 20; ++i) tree.File("DATA/d" + std::to_string(i) + "/f");
  EXPECT_EQ(ShareFolderWrites(tree.tables(), 2)[0].file_end, 10u);
  const auto shares = ShareFolderWrites(tree.tables(), 2, 10);
  ExpectCoversAll(tree.tables(), shares, 2);
  EXPECT_EQ(shares[0].file_end, 15u);
  EXPECT_EQ(ShareFolderWrites(tree.tables(), 2, 1000)[0].file_end, 20u);  // all files to share 0
}

// A large file weighs its bytes too: 2 MiB = 1 + 8 inodes' worth.
TEST(ShareFolderWrites, LargeFilesWeighTheirBytes) {
  Tree tree;
  tree.File("DATA/big", 2 * 1024 * 1024);
  for (int i = 0; i < 9; ++i) tree.File("DATA/s" + std::to_string(i));
  const auto shares = ShareFolderWrites(tree.tables(), 2);
  ExpectCoversAll(tree.tables(), shares, 2);
  EXPECT_EQ(shares[0].file_end, 1u);  // 9 of 18
}

// Two depths: a region's __meta__ goes with its first file even when its sub-folders are cut
// between shares; a folder without any file goes to share 0.
TEST(ShareFolderWrites, NestedMetasFollowTheirFirstFile) {
  Tree tree;
  // folder_meta sorted deepest first, then by path, as BuildLevelTables makes it.
  for (const char* r : {"r0", "r1"}) {
    for (const char* s : {"s0", "s1", "s2"}) tree.Folder("DATA/" + std::string(r) + "/" + s + "/");
  }
  tree.Folder("DATA/empty/");
  tree.Folder("DATA/r0/");
  tree.Folder("DATA/r1/");
  for (const char* r : {"r0", "r1"}) {
    for (const char* s : {"s0", "s1", "s2"}) {
      for (const char* f : {"a", "b"}) tree.File("DATA/" + std::string(r) + "/" + s + "/" + f);
    }
  }
  const model::LevelTables& t = tree.tables();
  for (size_t count : {1, 2, 3, 5, 20}) {
    const auto shares = ShareFolderWrites(t, count);
    ExpectCoversAll(t, shares, count);
    for (size_t j = 0; j < shares.size(); ++j) {
      for (size_t k : shares[j].metas) {
        const std::string& folder = t.folder_meta[k].first;
        size_t first = t.files.size();
        for (size_t i = 0; i < t.files.size() && first == t.files.size(); ++i) {
          if (t.files[i].first.rfind(folder, 0) == 0) first = i;
        }
        EXPECT_EQ(j, first == t.files.size() ? 0 : ShareOfFile(shares, first)) << folder << " count " << count;
      }
    }
  }
  const auto two = ShareFolderWrites(t, 2);
  EXPECT_EQ(two[0].file_end, 6u);  // r0 whole: 12 files + 8 metas weigh 20, r0 and r1 10 each
}

TEST(ShareFolderWrites, FewerFilesThanSharesAndNoFiles) {
  Tree tree;
  tree.Folder("DATA/a/");
  tree.File("DATA/a/x");
  ExpectCoversAll(tree.tables(), ShareFolderWrites(tree.tables(), 4), 4);
  ExpectCoversAll(tree.tables(), ShareFolderWrites(tree.tables(), 0), 1);
  Tree empty;
  empty.Folder("DATA/b/");
  const auto shares = ShareFolderWrites(empty.tables(), 2);
  ExpectCoversAll(empty.tables(), shares, 2);
  EXPECT_EQ(shares[0].metas, (std::vector<size_t>{0}));
}

}  // namespace
}  // namespace taco::write
