// WriteFolder: a FOLDER dataset (FORMAT §2): DATA/ tree, __meta__ per FOLDER, METADATA/,
// COLLECTION.json. No internal:offset/size anywhere; __meta__ has no internal columns.
//
// Two threads: a FOLDER's __meta__ does not depend on the data files (no offsets), so the
// __meta__ files are encoded and written on a thread of their own while the calling thread
// writes the data files (on ext4 most of the cost is the kernel's inode creation, which two
// threads do side by side). The __meta__ thread takes the folders in reverse order, so that
// the two threads work in different directories; each thread makes the directories it needs
// (mkdir -p: a directory the other thread made first is taken as it is), so the directories
// are shared out between them too. The bytes of every file are those of a serial write (each
// file is written whole by one thread).
#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>
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

// Writes the __meta__ of folder_meta[i] for i = n-1 .. 0 while `stop` is false, with the
// engine-free Parquet encoder (safe on this thread); a table it does not accept (struct
// columns) is left in `leftover` for the caller's thread, which owns the engine.
Status WriteMetaFiles(const model::LevelTables& t, const std::string& temp_dir, const std::atomic<bool>& stop,
                      std::vector<size_t>& leftover) {
  std::unordered_set<std::string> made;
  for (size_t k = t.folder_meta.size(); k-- > 0 && !stop.load(std::memory_order_relaxed);) {
    const auto& [folder, meta] = t.folder_meta[k];
    TACO_RETURN_IF_ERROR(MakeParents(temp_dir, folder + "__meta__", made));
    if (meta.columns.empty() || !table::CanEncodeParquet(meta)) {
      leftover.push_back(k);
      continue;
    }
    Result<std::string> parquet = table::EncodeParquet(meta, {kMetaZstd, 65536});
    if (!parquet.ok() && parquet.status().code() == StatusCode::kNotSupported) {
      leftover.push_back(k);
      continue;
    }
    if (!parquet.ok()) return parquet.status();
    TACO_RETURN_IF_ERROR(WriteNewFile(temp_dir + "/" + folder + "__meta__", *parquet));
  }
  return Status::OK();
}

// The data files, in member order (the calling thread).
Status WriteDataFiles(PreparedTaco& prepared, const std::string& temp_dir, std::unordered_set<std::string>& made,
                      Progress& progress) {
  const model::LevelTables& t = prepared.tables;
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
  return Status::OK();
}

}  // namespace

Status WriteFolder(PreparedTaco& prepared, const std::string& temp_dir, table::Engine& engine, Progress& progress) {
  model::LevelTables& t = prepared.tables;
  std::unordered_set<std::string> made;  // directories made or found by this thread

  std::atomic<bool> stop{false};
  std::vector<size_t> leftover;
  Status meta_status;
  std::thread meta_thread;
  bool threaded = t.folder_meta.size() > 1 && !t.files.empty();
  if (threaded) {
    try {
      meta_thread = std::thread([&] {
        try {
          meta_status = WriteMetaFiles(t, temp_dir, stop, leftover);
        } catch (const std::exception& e) {
          meta_status = Status::Internal(std::string("writing the __meta__ files: ") + e.what());
        }
      });
    } catch (const std::system_error&) {
      threaded = false;  // no thread to be had: written below on this one
    }
  }
  Status data_status = WriteDataFiles(prepared, temp_dir, made, progress);
  if (threaded) {
    if (!data_status.ok()) stop = true;
    meta_thread.join();
  } else {
    for (size_t k = t.folder_meta.size(); k-- > 0;) leftover.push_back(k);
  }
  TACO_RETURN_IF_ERROR(data_status);
  TACO_RETURN_IF_ERROR(meta_status);
  for (size_t k : leftover) {
    const auto& [folder, meta] = t.folder_meta[k];
    TACO_RETURN_IF_ERROR(MakeParents(temp_dir, folder + "__meta__", made));
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(engine, meta, {kMetaZstd, 65536}));
    TACO_RETURN_IF_ERROR(WriteNewFile(temp_dir + "/" + folder + "__meta__", parquet));
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
