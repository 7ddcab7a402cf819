// WriteFolder: a FOLDER dataset (FORMAT §2): DATA/ tree, __meta__ per FOLDER, METADATA/,
// COLLECTION.json. No internal:offset/size anywhere; __meta__ has no internal columns.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <unordered_set>

#include "format/zip/crc32.h"
#include "io/range_runs.h"
#include "table/parquet_writer.h"
#include "util/file_copy.h"
#include "write/outputs.h"
#include "write/rebuild_copy.h"

namespace taco::write {
namespace {

// mkdir -p for the parents of `relative` under `root`, remembering what exists.
Status MakeParents(const std::string& root, const std::string& relative, std::unordered_set<std::string>& made) {
  for (size_t slash = relative.find('/'); slash != std::string::npos; slash = relative.find('/', slash + 1)) {
    std::string dir = relative.substr(0, slash);
    if (!made.insert(dir).second) continue;
    std::string full = root + "/" + dir;
    if (::mkdir(full.c_str(), 0755) != 0 && errno != EEXIST) {
      return Status::IOError(full + ": cannot create directory: " + std::strerror(errno));
    }
  }
  return Status::OK();
}

}  // namespace

Status WriteFolder(PreparedTaco& prepared, const std::string& temp_dir, table::Engine& engine, Progress& progress) {
  model::LevelTables& t = prepared.tables;
  std::unordered_set<std::string> made;

  io::RangeRunReader runs(SampleRanges(t.files), prepared.copy);
  for (size_t i = 0; i < t.files.size(); ++i) {
    const auto& [path, sample] = t.files[i];
    TACO_RETURN_IF_ERROR(MakeParents(temp_dir, path, made));
    const std::string dest = temp_dir + "/" + path;
    TACO_ASSIGN_OR_RETURN(std::optional<io::RunBytes> run, runs.Get(i));
    if (run) {  // read with its neighbours in one run (io/range_runs.h); checked, then written
      if (sample->range_is_zip_member()) {
        const uint32_t crc = zip::Crc32(0, run->data.data(), run->data.size());
        TACO_RETURN_IF_ERROR(CheckCopiedMember(*sample, run->before, crc, path));
      }
      TACO_RETURN_IF_ERROR(WriteNewFile(dest, run->data));
      progress.Add(run->data.size());
    } else if (sample->range_reader() != nullptr) {
      uint32_t crc = 0;
      TACO_RETURN_IF_ERROR(CopyRangeToNewFile(*sample->range_reader(), sample->range_offset(), sample->size_bytes(),
                                              dest, sample->range_is_zip_member() ? &crc : nullptr));
      TACO_RETURN_IF_ERROR(CheckCopiedMember(*sample, {}, crc, path));
      progress.Add(sample->size_bytes());
    } else if (sample->file_path().empty()) {
      TACO_RETURN_IF_ERROR(WriteNewFile(dest, sample->bytes()));
      progress.Add(sample->bytes().size());
    } else {
      TACO_ASSIGN_OR_RETURN(uint64_t copied, CopyFileTo(sample->file_path(), dest));
      progress.Add(copied);
    }
  }

  for (const auto& [folder, meta] : t.folder_meta) {
    const std::string member = folder + "__meta__";
    TACO_RETURN_IF_ERROR(MakeParents(temp_dir, member, made));
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(engine, meta, {kMetaZstd, 65536}));
    TACO_RETURN_IF_ERROR(WriteNewFile(temp_dir + "/" + member, parquet));
  }

  TACO_RETURN_IF_ERROR(MakeParents(temp_dir, "METADATA/x", made));
  for (size_t level = 0; level < t.levels.size(); ++level) {
    const Table table = std::move(t.levels[level]);  // consumed as it is written
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(engine, table, {kLevelZstd, 65536}));
    TACO_RETURN_IF_ERROR(WriteNewFile(temp_dir + "/METADATA/level" + std::to_string(level) + ".parquet", parquet));
  }
  return WriteNewFile(temp_dir + "/COLLECTION.json", prepared.collection_json);
}

}  // namespace taco::write
