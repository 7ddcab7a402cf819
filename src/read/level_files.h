// The metadata files of a folder-shaped dataset (a FOLDER dataset: COLLECTION.json and
// METADATA/level{i}.parquet; a `.tacocat/` folder: COLLECTION.json and level{i}.parquet),
// read for the open of either, the same way whatever the location.
//
// ReadLevelFiles(files, use_cache): one path for a local and a remote directory; the folder
// reader (io/object_folder.h) decides how the files are fetched:
//  * COLLECTION.json is read (with `check_collection_size`, one above
//    util::kMaxCollectionJsonBytes is refused before it is read) and handed to
//    `parse_collection` (whose error is returned as it is); the levels its pit_schema
//    names (format/folder/collection_levels.h) are declared to the folder (remote: fetched in
//    parallel with the disk cache, `use_cache`; a named level that is not there is NotFound
//    naming its URL and the pit_schema); then level0, level1, ... up to level5 are opened,
//    the first absent one ending the list (a remote folder holds only what was declared).
//  * a file reached through a symbolic link that leaves `files.inside_root` is refused
//    (read/path_safety.h CheckInsideRoot; a remote location has no symbolic links).
// Errors (NotFound) name `owner` and the missing file: "<owner>: not a <what>: <shown> is
// missing", <shown> being the file's path relative to `dir`, prefixed by `dir/` when
// `name_dir` is set.
#ifndef TACO_READ_LEVEL_FILES_H_
#define TACO_READ_LEVEL_FILES_H_

#include <functional>
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
  std::function<Status(const std::string& bytes)> parse_collection;  // called before the levels are read
};

struct LevelFiles {
  std::string collection;              // COLLECTION.json bytes
  std::vector<RangeReaderPtr> levels;  // level0..levelN
};

Result<LevelFiles> ReadLevelFiles(const LevelFileSet& files, bool use_cache);

}  // namespace taco::read

#endif  // TACO_READ_LEVEL_FILES_H_
