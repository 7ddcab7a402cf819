// WriteFolder: a FOLDER dataset (FORMAT §2): DATA/ tree, __meta__ per FOLDER, METADATA/,
// COLLECTION.json. No internal:offset/size anywhere; __meta__ has no internal columns.
//
// Threads: on ext4 most of the cost is the kernel's inode creation (about 40 µs a file or
// directory here), which runs side by side for different directories. The members are cut
// into kWriters shares (write/folder_shares.h: contiguous runs of member order, each
// __meta__ with the first file of its folder); the calling thread writes share 0 and a
// worker thread each other share, data files in member order then the share's __meta__
// files (engine-free Parquet encoder, safe off the engine's thread). Each thread makes the
// directories it needs (mkdir -p: one the other thread made first is taken as it is). The
// bytes of every file are those of a serial write (each file is written whole by one thread).
// A __meta__ the engine-free encoder does not accept (struct columns), the levels and
// COLLECTION.json are written afterwards on the calling thread, which owns the engine.
// Errors: the first in share order is returned (a failing share stops the later ones only,
// so an error is the same whatever the timing); the progress callback is only called on the
// calling thread.
//
// Syscalls per file: one openat relative to the open output directory (O_EXCL: the
// directory is new), one write of the whole file, one close; no fsync (the output is renamed
// into place whole by the caller, as before).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <limits>
#include <thread>
#include <unordered_set>

#include "format/zip/crc32.h"
#include "io/range_runs.h"
#include "io/thread_config.h"
#include "table/parquet_writer.h"
#include "util/file_copy.h"
#include "write/folder_shares.h"
#include "write/outputs.h"
#include "write/rebuild_copy.h"

namespace taco::write {
namespace {

constexpr size_t kWriters = 2;
constexpr size_t kNoShare = std::numeric_limits<size_t>::max();

std::string LevelMember(size_t level) { return "METADATA/level" + std::to_string(level) + ".parquet"; }

// Rows of all the consolidated levels.
uint64_t LevelRows(const model::LevelTables& t) {
  uint64_t rows = 0;
  for (const Table& level : t.levels) rows += level.num_rows();
  return rows;
}

// The temporary output directory as one thread sees it: files and directories are made
// relative to its descriptor (no walk of the absolute path per file); `made` remembers the
// directories this thread made or found.
class OutputDir {
 public:
  OutputDir(int fd, const std::string& root) : fd_(fd), root_(root) {}

  std::string Full(std::string_view relative) const { return root_ + "/" + std::string(relative); }

  // mkdir -p for the parents of `relative`.
  Status MakeParents(std::string_view relative) {
    const size_t last = relative.rfind('/');
    if (last == std::string_view::npos || relative.substr(0, last) == last_parent_) return Status::OK();
    for (size_t slash = relative.find('/'); slash != std::string_view::npos; slash = relative.find('/', slash + 1)) {
      std::string dir(relative.substr(0, slash));
      if (made_.count(dir) != 0) continue;
      if (::mkdirat(fd_, dir.c_str(), 0755) != 0 && errno != EEXIST) {
        return Status::IOError(Full(dir) + ": cannot create directory: " + std::strerror(errno));
      }
      made_.insert(std::move(dir));
    }
    last_parent_.assign(relative.substr(0, last));
    return Status::OK();
  }

  // Creates `relative` (must not exist) holding `bytes`: openat, write, close.
  Status WriteNew(const std::string& relative, std::string_view bytes) const {
    const int fd = ::openat(fd_, relative.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
      if (errno == EEXIST) return Status::AlreadyExists(Full(relative) + ": already exists");
      return Status::IOError(Full(relative) + ": cannot create: " + std::strerror(errno));
    }
    const char* data = bytes.data();
    size_t left = bytes.size();
    while (left > 0) {
      const ssize_t w = ::write(fd, data, left);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        const int err = errno;
        ::close(fd);
        return Status::IOError(Full(relative) + ": write failed: " + std::strerror(err));
      }
      data += w;
      left -= static_cast<size_t>(w);
    }
    if (::close(fd) != 0) return Status::IOError(Full(relative) + ": close failed: " + std::strerror(errno));
    return Status::OK();
  }

 private:
  int fd_;
  const std::string& root_;
  std::unordered_set<std::string> made_;
  std::string last_parent_ = "\n";  // no parent yet (never a path)
};

// What the threads share while they write: the first share that failed (later shares stop)
// and the bytes written by the worker threads not yet reported to the progress callback.
struct Coordination {
  std::atomic<size_t> first_failed{kNoShare};
  std::atomic<uint64_t> unreported_bytes{0};
  std::vector<char> level_written;  // per level; set by the last share, read after the join

  void Failed(size_t share) {
    size_t seen = first_failed.load();
    while (share < seen && !first_failed.compare_exchange_weak(seen, share)) {
    }
  }
  bool Stops(size_t share) const { return first_failed.load(std::memory_order_relaxed) < share; }
};

// One share's writer. `report(bytes)` is called after each data file.
class ShareWriter {
 public:
  ShareWriter(PreparedTaco& prepared, const std::vector<io::RangeRef>& ranges, const FolderShare& share, size_t index,
              OutputDir& out, Coordination& coordination)
      : prepared_(prepared), ranges_(ranges), share_(share), index_(index), out_(out), co_(coordination) {}

  // `levels`: also write the consolidated levels the engine-free encoder accepts, after the
  // share (each level is moved out of prepared.tables as it is written; the others stay).
  template <typename Report>
  Status Write(Report&& report, bool levels) {
    Status status = WriteDataFiles(report);
    if (status.ok()) status = WriteMetaFiles();
    if (status.ok() && levels && !co_.Stops(index_)) status = WriteLevels();
    if (!status.ok()) co_.Failed(index_);
    return status;
  }

  // The __meta__ files left for the engine (indices into folder_meta).
  const std::vector<size_t>& leftover() const { return leftover_; }

 private:
  template <typename Report>
  Status WriteDataFiles(Report& report) {
    const model::LevelTables& t = prepared_.tables;
    const size_t begin = share_.file_begin;
    io::RunOptions copy = prepared_.copy;  // the reads in flight are shared out too
    if (share_.file_end - begin < t.files.size()) {
      copy.reads_in_flight = std::max<size_t>(1, copy.reads_in_flight / kWriters);
    }
    io::RangeRunReader runs(
        {ranges_.begin() + static_cast<ptrdiff_t>(begin), ranges_.begin() + static_cast<ptrdiff_t>(share_.file_end)},
        copy);
    for (size_t i = begin; i < share_.file_end && !co_.Stops(index_); ++i) {
      const auto& [path, sample] = t.files[i];
      TACO_RETURN_IF_ERROR(out_.MakeParents(path));
      TACO_ASSIGN_OR_RETURN(std::optional<io::RunBytes> run, runs.Get(i - begin));
      uint64_t bytes = 0;
      if (run) {  // read with its neighbours in one run (io/range_runs.h); checked, then written
        if (sample->range_is_zip_member()) {
          const uint32_t crc = zip::Crc32(0, run->data.data(), run->data.size());
          TACO_RETURN_IF_ERROR(CheckCopiedMember(*sample, run->before, crc, path));
        }
        TACO_RETURN_IF_ERROR(out_.WriteNew(path, run->data));
        bytes = run->data.size();
      } else if (sample->range_reader() != nullptr) {
        uint32_t crc = 0;
        TACO_RETURN_IF_ERROR(CopyRangeToNewFile(*sample->range_reader(), sample->range_offset(), sample->size_bytes(),
                                                out_.Full(path), sample->range_is_zip_member() ? &crc : nullptr));
        TACO_RETURN_IF_ERROR(CheckCopiedMember(*sample, {}, crc, path));
        bytes = sample->size_bytes();
      } else if (sample->file_path().empty()) {
        TACO_RETURN_IF_ERROR(out_.WriteNew(path, sample->bytes()));
        bytes = sample->bytes().size();
      } else {
        TACO_ASSIGN_OR_RETURN(bytes, CopyFileTo(sample->file_path(), out_.Full(path)));
      }
      report(bytes);
    }
    return Status::OK();
  }

  // With the engine-free Parquet encoder; a table it does not accept is left in leftover_.
  Status WriteMetaFiles() {
    const model::LevelTables& t = prepared_.tables;
    for (size_t k : share_.metas) {
      if (co_.Stops(index_)) break;
      const auto& [folder, meta] = t.folder_meta[k];
      const std::string member = folder + "__meta__";
      TACO_RETURN_IF_ERROR(out_.MakeParents(member));
      if (meta.columns.empty() || !table::CanEncodeParquet(meta)) {
        leftover_.push_back(k);
        continue;
      }
      Result<std::string> parquet = table::EncodeParquet(meta, {kMetaZstd, 65536});
      if (!parquet.ok() && parquet.status().code() == StatusCode::kNotSupported) {
        leftover_.push_back(k);
        continue;
      }
      if (!parquet.ok()) return parquet.status();
      TACO_RETURN_IF_ERROR(out_.WriteNew(member, *parquet));
    }
    return Status::OK();
  }

  Status WriteLevels() {
    std::vector<Table>& levels = prepared_.tables.levels;
    for (size_t level = 0; level < levels.size(); ++level) {
      if (levels[level].columns.empty() || !table::CanEncodeParquet(levels[level])) continue;
      Result<std::string> parquet = table::EncodeParquet(levels[level], {kLevelZstd, 65536});
      if (!parquet.ok() && parquet.status().code() == StatusCode::kNotSupported) continue;
      if (!parquet.ok()) return parquet.status();
      levels[level] = Table{};  // its memory is released
      TACO_RETURN_IF_ERROR(out_.MakeParents("METADATA/x"));
      TACO_RETURN_IF_ERROR(out_.WriteNew(LevelMember(level), *parquet));
      co_.level_written[level] = 1;
    }
    return Status::OK();
  }

  PreparedTaco& prepared_;
  const std::vector<io::RangeRef>& ranges_;
  const FolderShare& share_;
  size_t index_;
  OutputDir& out_;
  Coordination& co_;
  std::vector<size_t> leftover_;
};

// A share written on a thread of its own (or, when no thread can be started, later on the
// calling thread: Finish()).
class WorkerShare {
 public:
  WorkerShare(PreparedTaco& prepared, const std::vector<io::RangeRef>& ranges, const FolderShare& share, size_t index,
              bool levels, int dir_fd, const std::string& root, Coordination& coordination)
      : out_(dir_fd, root),
        writer_(prepared, ranges, share, index, out_, coordination),
        co_(coordination),
        levels_(levels) {}
  ~WorkerShare() {  // only when the calling thread threw: the share runs to its end first
    if (thread_.joinable()) thread_.join();
  }
  WorkerShare(const WorkerShare&) = delete;
  WorkerShare& operator=(const WorkerShare&) = delete;

  void Start() {
    try {
      thread_ = std::thread(io::WithCallerGdalConfig([this] { Run(); }));
    } catch (const std::system_error&) {
      // no thread to be had: Finish() writes the share on the calling thread
    }
  }

  Status Finish() {
    if (thread_.joinable()) {
      thread_.join();
    } else {
      Run();
    }
    return status_;
  }

  const std::vector<size_t>& leftover() const { return writer_.leftover(); }

 private:
  void Run() {
    try {
      status_ = writer_.Write([this](uint64_t bytes) { co_.unreported_bytes.fetch_add(bytes); }, levels_);
    } catch (const std::exception& e) {
      status_ = Status::Internal(std::string("writing the FOLDER output: ") + e.what());
    }
  }

  OutputDir out_;
  ShareWriter writer_;
  Coordination& co_;
  bool levels_;
  Status status_;
  std::thread thread_;
};

class DirFd {
 public:
  explicit DirFd(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {}
  ~DirFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  DirFd(const DirFd&) = delete;
  DirFd& operator=(const DirFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Status WriteFolder(PreparedTaco& prepared, const std::string& temp_dir, table::Engine& engine, Progress& progress) {
  model::LevelTables& t = prepared.tables;
  DirFd dir(temp_dir);
  if (dir.get() < 0) return Status::IOError(temp_dir + ": cannot open the output directory: " + std::strerror(errno));
  OutputDir out(dir.get(), temp_dir);

  // The last share also encodes the levels (weighed in), off the calling thread.
  std::vector<FolderShare> shares = ShareFolderWrites(t, kWriters, LevelRows(t) / kLevelRowsPerInode);
  const std::vector<io::RangeRef> ranges = SampleRanges(t.files);
  if (io::AnyRangeIsRemote(ranges)) {  // one reader: adjacent members in one request, as before
    for (FolderShare& share : shares) share.file_begin = share.file_end = 0;
    shares[0].file_end = t.files.size();
  }
  Coordination co;
  co.level_written.assign(t.levels.size(), 0);
  std::vector<std::unique_ptr<WorkerShare>> workers;
  for (size_t j = 1; j < shares.size(); ++j) {
    const bool last = j + 1 == shares.size();
    if (!last && shares[j].file_begin == shares[j].file_end && shares[j].metas.empty()) continue;
    workers.push_back(std::make_unique<WorkerShare>(prepared, ranges, shares[j], j, last, dir.get(), temp_dir, co));
    workers.back()->Start();
  }
  ShareWriter mine(prepared, ranges, shares[0], 0, out, co);
  Status status =
      mine.Write([&](uint64_t bytes) { progress.Add(bytes + co.unreported_bytes.exchange(0)); }, workers.empty());
  std::vector<size_t> leftover = mine.leftover();
  for (auto& worker : workers) {
    Status worker_status = worker->Finish();  // joins even after an error: no thread outlives the call
    if (status.ok()) status = worker_status;
    leftover.insert(leftover.end(), worker->leftover().begin(), worker->leftover().end());
  }
  if (const uint64_t rest = co.unreported_bytes.exchange(0); rest > 0) progress.Add(rest);
  TACO_RETURN_IF_ERROR(status);

  std::sort(leftover.begin(), leftover.end());
  for (size_t k : leftover) {
    const auto& [folder, meta] = t.folder_meta[k];
    const std::string member = folder + "__meta__";
    TACO_RETURN_IF_ERROR(out.MakeParents(member));
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(engine, meta, {kMetaZstd, 65536}));
    TACO_RETURN_IF_ERROR(out.WriteNew(member, parquet));
  }

  // The levels the engine-free encoder did not take (struct columns), through the engine.
  TACO_RETURN_IF_ERROR(out.MakeParents("METADATA/x"));
  for (size_t level = 0; level < t.levels.size(); ++level) {
    if (co.level_written[level] != 0) continue;      // written by the last share
    const Table table = std::move(t.levels[level]);  // consumed as it is written
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(engine, table, {kLevelZstd, 65536}));
    TACO_RETURN_IF_ERROR(out.WriteNew(LevelMember(level), parquet));
  }
  return out.WriteNew("COLLECTION.json", prepared.collection_json);
}

}  // namespace taco::write
