// ReadLevelFiles(): see level_files.h.
#include "read/level_files.h"

#include <string>
#include <utility>

#include "read/path_safety.h"
#include "read/remote_tacocat.h"
#include "util/limits.h"

namespace taco::read {
namespace {

constexpr int kMaxLevels = 6;  // level0..level5

std::string LevelName(int level) { return "level" + std::to_string(level) + ".parquet"; }

Result<LevelFiles> FromRemote(RemoteLevelFiles remote) {
  LevelFiles out;
  out.collection = std::move(remote.collection);
  for (size_t i = 0; i < remote.levels.size(); ++i) {
    out.levels.push_back(MemoryReader(std::move(remote.levels[i]), std::move(remote.level_names[i])));
  }
  return out;
}

Result<LevelFiles> ReadLocal(const LevelFileSet& files) {
  auto missing = [&](const std::string& rel) {
    const std::string shown = files.name_dir ? files.dir + "/" + rel : rel;
    return Status::NotFound(files.owner + ": not a " + files.what + ": " + shown + " is missing");
  };
  auto inside = [&](const std::string& file) {
    Status st = CheckInsideRoot(files.owner, files.inside_root, file);
    return st.code() == StatusCode::kInvalidArgument ? st : Status::OK();  // missing: reported by the caller
  };
  LevelFiles out;
  const std::string collection_file = files.dir + "/COLLECTION.json";
  TACO_RETURN_IF_ERROR(inside(collection_file));
  auto collection = OpenRangeReader(collection_file);
  if (!collection.ok()) return missing("COLLECTION.json");
  const uint64_t size = (*collection)->size();
  if (files.check_collection_size && size > util::kMaxCollectionJsonBytes) {
    return Status::Corruption(files.owner + ": COLLECTION.json is " + std::to_string(size) + " bytes, more than the " +
                              std::to_string(util::kMaxCollectionJsonBytes) + " allowed");
  }
  TACO_ASSIGN_OR_RETURN(out.collection, (*collection)->ReadAll());
  for (int i = 0; i < kMaxLevels; ++i) {
    const std::string rel = files.level_dir + LevelName(i);
    TACO_RETURN_IF_ERROR(inside(files.dir + "/" + rel));
    auto level = OpenRangeReader(files.dir + "/" + rel);
    if (!level.ok()) {
      if (i == 0) return missing(rel);
      break;
    }
    out.levels.push_back(std::move(*level));
  }
  return out;
}

}  // namespace

Result<LevelFiles> ReadLevelFiles(const LevelFileSet& files, bool use_cache) {
  // The one local/remote branch of the folder-shaped opens: a remote directory cannot be
  // listed, so its levels come from COLLECTION.json (level_files.h).
  if (IsRemotePath(files.dir)) {
    TACO_ASSIGN_OR_RETURN(RemoteLevelFiles remote, files.tacocat ? FetchRemoteTacocatFolder(files.dir, use_cache)
                                                                 : FetchRemoteFolderDataset(files.dir, use_cache));
    return FromRemote(std::move(remote));
  }
  return ReadLocal(files);
}

}  // namespace taco::read
