// ReadLevelFiles(): see level_files.h.
#include "read/level_files.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "format/folder/collection_levels.h"
#include "io/object_folder.h"
#include "read/path_safety.h"
#include "util/limits.h"

namespace taco::read {
namespace {

constexpr int kMaxLevels = 6;  // level0..level5

std::string LevelName(int level) { return "level" + std::to_string(level) + ".parquet"; }

}  // namespace

Result<LevelFiles> ReadLevelFiles(const LevelFileSet& files, bool use_cache) {
  auto missing = [&](const std::string& rel) {
    const std::string shown = files.name_dir ? files.dir + "/" + rel : rel;
    return Status::NotFound(files.owner + ": not a " + files.what + ": " + shown + " is missing");
  };
  auto inside = [&](const std::string& file) {
    Status st = CheckInsideRoot(files.owner, files.inside_root, file);
    return st.code() == StatusCode::kInvalidArgument ? st : Status::OK();  // missing: reported by the caller
  };
  io::FolderOpenOptions how;
  how.use_cache = use_cache;
  TACO_ASSIGN_OR_RETURN(std::unique_ptr<io::ObjectFolder> folder, io::OpenObjectFolder(files.dir, how));

  LevelFiles out;
  const std::string collection_name = "COLLECTION.json";
  TACO_RETURN_IF_ERROR(inside(folder->PathOf(collection_name)));
  auto collection = folder->Open(collection_name);
  if (!collection.ok()) {
    if (collection.status().code() == StatusCode::kNotFound) return missing(collection_name);
    return collection.status();
  }
  const uint64_t size = (*collection)->size();
  if (files.check_collection_size && size > util::kMaxCollectionJsonBytes) {
    return Status::Corruption(files.owner + ": COLLECTION.json is " + std::to_string(size) + " bytes, more than the " +
                              std::to_string(util::kMaxCollectionJsonBytes) + " allowed");
  }
  TACO_ASSIGN_OR_RETURN(out.collection, (*collection)->ReadAll());
  if (files.parse_collection) TACO_RETURN_IF_ERROR(files.parse_collection(out.collection));

  // The levels COLLECTION.json names, fetched together where fetching costs a request.
  const std::string collection_path = folder->PathOf(collection_name);
  TACO_ASSIGN_OR_RETURN(const int max_depth, format::PitSchemaMaxDepth(out.collection, collection_path));
  std::vector<std::string> named;
  for (int i = 0; i <= max_depth; ++i) named.push_back(files.level_dir + LevelName(i));
  Status declared = folder->Declare(named);
  if (!declared.ok()) {
    if (declared.code() != StatusCode::kNotFound) return declared;
    return Status::NotFound(declared.message() + " (taco:pit_schema in " + collection_path + " names levels 0.." +
                            std::to_string(max_depth) + ")");
  }

  for (int i = 0; i < kMaxLevels; ++i) {
    const std::string rel = files.level_dir + LevelName(i);
    TACO_RETURN_IF_ERROR(inside(folder->PathOf(rel)));
    auto level = folder->Open(rel);
    if (!level.ok()) {
      if (i == 0) return missing(rel);
      break;
    }
    out.levels.push_back(std::move(*level));
  }
  return out;
}

}  // namespace taco::read
