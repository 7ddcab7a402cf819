// How WriteFolder shares the files of a FOLDER output out between its writer threads.
//
// On ext4 most of the cost of a FOLDER output is the kernel's inode creation, which runs in
// parallel for different directories (a directory's lock is held while an entry is added to
// it). So the members are cut into shares that each thread writes whole, data files and
// __meta__ files alike, each share in directories of its own as far as the tree allows.
//
// Contract (ShareFolderWrites(t, count, last_extra)), count >= 1; exactly `count` shares
// are returned:
//  * The FILE members t.files are cut into `count` contiguous runs of member order, share j
//    holding [file_begin, file_end); the runs cover every file once, in order.
//  * Every __meta__ (an index k of t.folder_meta) is in exactly one share's `metas`
//    (ascending): the share holding the first file (in member order) whose archive path
//    starts with the folder's path, or share 0 when no file does.
//  * Balance: a file weighs 1 (its inode) + its size / kBytesPerInode, and each __meta__ 1
//    more on the first file of its folder; `last_extra` is work the last share does besides
//    its files (WriteFolder: the levels), in the same unit. Share j's run ends where the
//    running weight first reaches (j+1) / count of the total (files and extra), moved on to the next file whose parent
//    directory differs from the one before it (so that two shares do not add files to one directory) unless there is
//    none before the next cut would be. Shares may be empty (few files).
//  * Depends only on `t`, `count` and `last_extra` (not on timing): the writing order of each share and
//    the bytes of every file are those of a serial write.
#ifndef TACO_WRITE_FOLDER_SHARES_H_
#define TACO_WRITE_FOLDER_SHARES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/metadata.h"

namespace taco::write {

// Bytes copied into the page cache that cost about as much CPU as creating one inode here
// (about 40 µs of system time per inode on the scale benchmark's ext4; memcpy of 256 KiB
// into the page cache takes about as long).
inline constexpr uint64_t kBytesPerInode = uint64_t{256} << 10;

struct FolderShare {
  size_t file_begin = 0;
  size_t file_end = 0;
  std::vector<size_t> metas;  // indices into LevelTables::folder_meta, ascending
};

// Rows of the consolidated levels that cost about as much CPU to encode (Parquet, zstd 13) as
// creating one inode (30,000 rows: about 33 ms, 1,500 inodes' worth, on the scale benchmark).
inline constexpr uint64_t kLevelRowsPerInode = 20;

std::vector<FolderShare> ShareFolderWrites(const model::LevelTables& t, size_t count, uint64_t last_extra = 0);

}  // namespace taco::write

#endif  // TACO_WRITE_FOLDER_SHARES_H_
