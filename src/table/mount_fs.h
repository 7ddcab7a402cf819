// Mount table and DuckDB file system that expose RangeReaders and in-memory output files to
// DuckDB under the "tacofs://" scheme.
//
// Contract:
//  * "tacofs://<n>/<file name>" paths; <n> is a per-table counter, so a path is never
//    reused and DuckDB cannot serve bytes of an earlier mount under it.
//  * Reads go straight to RangeReader::ReadAt (no copies). An open file keeps its reader
//    alive, so Unmount() while DuckDB still reads is safe.
//  * Writes (COPY ... TO 'tacofs://...') land in an in-memory buffer, created on open, that
//    TakeOutput() hands over.
//  * All members are thread-safe (DuckDB worker threads call the file system concurrently).
//  * This header includes no DuckDB header; MakeMountFileSystem() returns the file system
//    object for DatabaseInstance::GetFileSystem().RegisterSubSystem().
#ifndef TACO_TABLE_MOUNT_FS_H_
#define TACO_TABLE_MOUNT_FS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "taco/io.h"
#include "taco/status.h"

namespace duckdb {
class FileSystem;
}  // namespace duckdb

namespace taco::table {

inline constexpr std::string_view kMountScheme = "tacofs://";

// Bytes written by DuckDB into one output path.
struct OutputFile {
  std::mutex mu;
  std::string bytes;
};

class MountTable {
 public:
  // Registers `reader` and returns its new path, "tacofs://<n>/<base name of file_name>"
  // (characters other than [A-Za-z0-9._-] become '_'). Errors name it `file_name`.
  std::string Mount(RangeReaderPtr reader, std::string_view file_name);
  // Reserves a fresh path for an output file (created when DuckDB opens it for writing).
  std::string NewPath(std::string_view file_name);
  // Forgets `path` (reader or output). Unknown paths are ignored.
  void Unmount(const std::string& path);
  // The bytes written to `path` (and forgets it); NotFound if nothing was written.
  Result<std::string> TakeOutput(const std::string& path);

  RangeReaderPtr FindReader(const std::string& path) const;
  // The output buffer of `path`; created (empty) when `create`.
  std::shared_ptr<OutputFile> FindOutput(const std::string& path, bool create);
  bool Exists(const std::string& path) const;
  // Renames an output (DuckDB's temp-file-then-move protocol). False if `from` is unknown.
  bool MoveOutput(const std::string& from, const std::string& to);

  // `text` with every known path replaced by its file name (for error messages).
  std::string Describe(std::string text) const;
  // The file names of the known paths that occur in `text`, joined by ", "; empty if none.
  std::string NamesIn(const std::string& text) const;

 private:
  struct Entry {
    std::string file_name;
    RangeReaderPtr reader;               // mounted input
    std::shared_ptr<OutputFile> output;  // written output (null until opened for writing)
  };
  mutable std::mutex mu_;
  uint64_t next_id_ = 0;
  std::map<std::string, Entry> entries_;
};

// A new duckdb::FileSystem over `mounts`; the caller hands it to RegisterSubSystem().
std::unique_ptr<duckdb::FileSystem> MakeMountFileSystem(std::shared_ptr<MountTable> mounts);

}  // namespace taco::table

#endif  // TACO_TABLE_MOUNT_FS_H_
