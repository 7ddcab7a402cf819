// The metadata files of a folder-shaped dataset (a FOLDER dataset: COLLECTION.json and
// METADATA/level{i}.parquet; a `.tacocat/` folder: COLLECTION.json and level{i}.parquet),
// read for the open of either, the same way whatever the location.
//
// ReadLevelFiles(files, use_cache) is the one place that decides how they are read:
//  * a local directory is probed: COLLECTION.json, then level0, level1, ... up to level5,
//    the first missing level ending the list; a file reached through a symbolic link that
//    leaves `files.inside_root` is refused (read/path_safety.h CheckInsideRoot); with
//    `check_collection_size`, a COLLECTION.json above util::kMaxCollectionJsonBytes is
//    refused before it is read. The levels are read in place.
//  * a remote directory cannot be listed or probed without a request per name: its levels
//    are the ones COLLECTION.json's pit_schema names, fetched in parallel with the disk cache
//    (read/remote_tacocat.h) and served from memory.
// Errors (NotFound) name `owner` and the missing file: "<owner>: not a <what>: <shown> is
// missing", <shown> being the file's path relative to `dir`, prefixed by `dir/` when
// `name_dir` is set.
#ifndef TACO_READ_LEVEL_FILES_H_
#define TACO_READ_LEVEL_FILES_H_

#include <string>
#include <vector>

#include "taco/io.h"

namespace taco::read {

struct LevelFileSet {
  std::string owner;        // the dataset path, for errors
  std::string dir;          // where COLLECTION.json is, without a trailing slash
  std::string level_dir;    // "" or "METADATA/"
  std::string inside_root;  // local: no file may leave it through a symbolic link
  std::string what;         // "TACO folder dataset" or "TACOCAT"
  bool name_dir = false;
  bool check_collection_size = false;
  bool tacocat = false;  // remote: the `.tacocat/` cache layout, else the FOLDER one
};

struct LevelFiles {
  std::string collection;              // COLLECTION.json bytes
  std::vector<RangeReaderPtr> levels;  // level0..levelN
};

Result<LevelFiles> ReadLevelFiles(const LevelFileSet& files, bool use_cache);

}  // namespace taco::read

#endif  // TACO_READ_LEVEL_FILES_H_
