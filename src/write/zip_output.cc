// WriteZip: a TACO ZIP in the upstream member order (FORMAT §1.1, §1.5, §12).
//
// The ZIP itself is written on the calling thread, member by member in the serial order, so
// the bytes do not depend on the threads. Beside it: the small files of a directory source
// are read ahead on two workers (util::OrderedParallel, batches of files); and the members
// after the data (every FOLDER's __meta__, deepest first, then the level tables) are encoded
// ahead on a thread of their own while the data is copied (a level of FILE rows only first:
// it needs no __meta__ offset). Their offsets are computed, not
// observed: each member is appended right after the previous one, its data
// ZipWriter::LocalHeaderSize after its start, so from the sizes the data members will have
// (the samples' sizes) every later offset follows. When the data came out elsewhere (a file
// changed size since it was scanned), what was encoded ahead is dropped and encoded again
// from the real offsets. What was not encoded ahead when the data is done (past a memory
// budget, or a table only the engine encodes) is encoded then: the __meta__ tables of one
// depth (none is another's parent) on two workers, appended in order.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>

#include "format/zip/zip_writer.h"
#include "io/range_runs.h"
#include "table/parquet_writer.h"
#include "util/ordered_parallel.h"
#include "write/metadata_columns.h"
#include "write/outputs.h"

namespace taco::write {
namespace {

// Files up to this size are read ahead whole; larger ones are copied by ZipWriter::AddFile.
constexpr uint64_t kReadAheadMax = uint64_t{1} << 20;
// Work is handed to the workers in batches of this many files or folders (one lock and
// wake-up per batch, not per file), at most kWindow batches ahead of the writer (memory: at
// most kBatch × kWindow files of kReadAheadMax).
constexpr size_t kBatch = 16;
constexpr size_t kWindow = 4;

size_t Batches(size_t n) { return (n + kBatch - 1) / kBatch; }

size_t WorkerThreads() { return std::thread::hardware_concurrency() >= 2 ? 2 : 1; }

// The bytes of `fd` when it holds exactly `expected` bytes (one pread of expected + 1 that
// comes back short with all of them: a regular file ends there), else nullopt. Costs no
// fstat when the file is as it was scanned.
std::optional<std::string> ReadExpectedSize(int fd, uint64_t expected) {
  if (expected == 0 || expected > kReadAheadMax) return std::nullopt;  // size 0: a device reads so too
  std::string bytes(static_cast<size_t>(expected) + 1, '\0');
  ssize_t n = 0;
  do {
    n = ::pread(fd, bytes.data(), bytes.size(), 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0 || static_cast<uint64_t>(n) != expected) return std::nullopt;
  bytes.resize(static_cast<size_t>(expected));
  return bytes;
}

// The bytes of the regular file `path` (nullopt when it is larger than kReadAheadMax now: the
// caller copies it with AddFile). Errors as ZipWriter::AddFile's. `expected`: the size the
// file had when its sample was made; when it still has it, no fstat is needed.
Result<std::optional<std::string>> ReadSmallFile(const std::string& path, uint64_t expected) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) return Status::NotFound(path + ": no such file");
    return Status::IOError(path + ": cannot open: " + std::strerror(err));
  }
  if (std::optional<std::string> as_scanned = ReadExpectedSize(fd, expected)) {
    ::close(fd);
    return as_scanned;
  }
  // Not as scanned (or not a regular file any more): what fstat says now.
  struct stat st {};
  Result<std::optional<std::string>> out = std::optional<std::string>();
  if (::fstat(fd, &st) != 0) {
    out = Status::IOError(path + ": cannot stat: " + std::strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    out = Status::InvalidArgument(path + ": not a regular file");
  } else if (static_cast<uint64_t>(st.st_size) <= kReadAheadMax) {
    std::string bytes(static_cast<size_t>(st.st_size), '\0');
    size_t done = 0;
    int err = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) err = errno;
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    if (done != bytes.size()) {
      out = Status::IOError(path + ": read failed: " + (err != 0 ? std::strerror(err) : "the file shrank"));
    } else {
      out = std::optional<std::string>(std::move(bytes));
    }
  }
  ::close(fd);
  return out;
}

// Reads ahead the files of samples made from a path (not ranges, not in-memory bytes).
Result<std::optional<std::string>> ReadAhead(const Sample& sample) {
  if (sample.range_reader() != nullptr || sample.file_path().empty() || sample.size_bytes() > kReadAheadMax) {
    return std::optional<std::string>();
  }
  return ReadSmallFile(sample.file_path(), sample.size_bytes());
}

// `run`: the sample's bytes when they were read as part of a run (io/range_runs.h). A ZIP
// member's CRC is the one the writer computed, checked against the source's local header.
// `read`: the file's bytes when they were read ahead (ReadAhead).
Status AddSampleData(zip::ZipWriter& zip, const std::string& path, const Sample& sample,
                     const std::optional<io::RunBytes>& run, const std::optional<std::string>& read, MemberRange& range,
                     Progress& progress) {
  Result<zip::MemberInfo> info =
      run    ? zip.AddBytes(path, run->data)
      : read ? zip.AddBytes(path, *read)
      : sample.range_reader() != nullptr
          ? zip.AddRange(path, *sample.range_reader(), sample.range_offset(), sample.size_bytes())
          : (sample.file_path().empty() ? zip.AddBytes(path, sample.bytes()) : zip.AddFile(path, sample.file_path()));
  if (!info.ok()) return info.status();
  TACO_RETURN_IF_ERROR(CheckCopiedMember(sample, run ? run->before : std::string_view(), info->crc32, path));
  range = {info->data_offset, info->size};
  progress.Add(info->size);
  return Status::OK();
}

// Archive paths of the children listed in a folder's __meta__ table.
std::vector<std::string> ChildPaths(const std::string& folder, const Table& meta) {
  const Column& ids = meta.column("id");
  const Column& types = meta.column("type");
  std::vector<std::string> paths;
  paths.reserve(ids.values.size());
  for (size_t i = 0; i < ids.values.size(); ++i) {
    std::string p = folder + ids.values[i].get<std::string>();
    if (types.values[i].get<std::string>() == "FOLDER") p += '/';
    paths.push_back(std::move(p));
  }
  return paths;
}

// Folders of folder_meta in [begin, end) have the same depth (so none is another's parent).
size_t DepthRunEnd(const model::LevelTables& t, size_t begin) {
  auto depth = [&](size_t i) { return std::count(t.folder_meta[i].first.begin(), t.folder_meta[i].first.end(), '/'); };
  size_t end = begin + 1;
  while (end < t.folder_meta.size() && depth(end) == depth(begin)) ++end;
  return end;
}

// A folder's __meta__ table with its offsets, encoded when the engine-free encoder takes it
// (else `parquet` is nullopt and the caller's thread, which owns the engine, encodes it).
struct EncodedMeta {
  Status status;
  Table table;
  std::optional<std::string> parquet;
};

EncodedMeta EncodeMeta(const std::string& folder, const Table& meta_table, const MemberRanges& ranges) {
  EncodedMeta out;
  out.table = meta_table;
  out.status = AddOffsetColumns(out.table, ChildPaths(folder, out.table), ranges);
  if (!out.status.ok() || out.table.columns.empty() || !table::CanEncodeParquet(out.table)) return out;
  Result<std::string> bytes = table::EncodeParquet(out.table, {kMetaZstd, 65536});
  if (bytes.ok()) {
    out.parquet = std::move(*bytes);
  } else if (bytes.status().code() != StatusCode::kNotSupported) {
    out.status = bytes.status();
  }
  return out;
}

// table::TableToParquet with the engine opened only when the engine-free encoder refuses.
Result<std::string> ToParquet(const EngineSource& engine, const Table& table, const table::ParquetWriteOptions& opts) {
  if (!table.columns.empty() && table::CanEncodeParquet(table)) {
    Result<std::string> bytes = table::EncodeParquet(table, opts);
    if (bytes.ok() || bytes.status().code() != StatusCode::kNotSupported) return bytes;
  }
  TACO_ASSIGN_OR_RETURN(table::Engine * sql, engine());
  return sql->ToParquet(table, opts);
}

// Memory bound of the members encoded ahead (held until the data is written).
constexpr uint64_t kAheadBudget = uint64_t{64} << 20;

// The members after the data encoded ahead (see the file comment), and where they go.
struct EncodedAhead {
  MemberRanges ranges;             // the data members' computed ranges, then each member encoded
  std::vector<std::string> metas;  // Parquet of folder_meta[0, metas.size())
  // Per level: its Parquet when encoded ahead, and where AddOffsetColumns put its columns.
  std::vector<std::optional<std::string>> levels;
  std::vector<size_t> offset_columns_at;
  uint64_t end = 0;  // where the next member's local header goes
  Status status;     // the first __meta__ encoding error (it stops the encoding)
  std::exception_ptr thrown;
};

// Where AddOffsetColumns inserts the offset columns of `table`.
size_t OffsetColumnsAt(const Table& table) {
  const int at = table.FindColumn("internal:relative_path");
  return at < 0 ? table.columns.size() : static_cast<size_t>(at);
}

// True when every row of the level is a FILE (its offsets are data members' only).
bool FilesOnly(const model::LevelTables& t, size_t level) {
  return std::none_of(t.archive_paths[level].begin(), t.archive_paths[level].end(),
                      [](const std::string& path) { return !path.empty() && path.back() == '/'; });
}

// Encodes level `level` into ahead.levels (its offset columns inserted into the table) from
// ahead.ranges. False when the encoding stops there: an error, or a table the engine-free
// encoder refuses; the table is left as it was, for the calling thread, which meets the same
// error in the serial order (after every __meta__).
bool EncodeLevelAhead(model::LevelTables& t, size_t level, EncodedAhead& ahead) {
  Table& table = t.levels[level];
  if (table.columns.empty() || !table::CanEncodeParquet(table)) return false;
  const size_t at = OffsetColumnsAt(table);
  if (!AddOffsetColumns(table, t.archive_paths[level], ahead.ranges).ok()) return false;
  Result<std::string> bytes = table::EncodeParquet(table, {kLevelZstd, 65536});
  if (!bytes.ok()) {
    table.columns.erase(table.columns.begin() + static_cast<std::ptrdiff_t>(at),
                        table.columns.begin() + static_cast<std::ptrdiff_t>(at + 2));
    return false;
  }
  ahead.offset_columns_at[level] = at;
  ahead.levels[level] = std::move(*bytes);
  return true;
}

// Encodes the members after the data from `ahead.ranges` (the data members') and
// `ahead.end`: first the levels whose rows are all FILEs (the largest, and they need no
// __meta__ offset), then the __meta__ in member order, then the other levels; until done,
// `stop`, the budget, an error, or a table the engine-free encoder refuses.
void EncodeAhead(model::LevelTables& t, EncodedAhead& ahead, const std::atomic<bool>& stop) {
  ahead.levels.resize(t.levels.size());
  ahead.offset_columns_at.resize(t.levels.size());
  uint64_t kept = 0;
  auto more = [&] { return !stop.load(std::memory_order_relaxed) && kept <= kAheadBudget; };
  for (size_t level = 0; level < t.levels.size(); ++level) {
    if (!FilesOnly(t, level)) continue;
    if (!more() || !EncodeLevelAhead(t, level, ahead)) return;
    kept += ahead.levels[level]->size();
  }
  for (const auto& [folder, meta] : t.folder_meta) {
    if (!more()) return;
    EncodedMeta encoded = EncodeMeta(folder, meta, ahead.ranges);
    if (!encoded.status.ok()) {
      ahead.status = encoded.status;
      return;
    }
    if (!encoded.parquet) return;  // for the engine, on the calling thread
    const std::string member = folder + "__meta__";
    const uint64_t offset = ahead.end + zip::ZipWriter::LocalHeaderSize(member, encoded.parquet->size());
    ahead.end = offset + encoded.parquet->size();
    ahead.ranges[member] = {offset, encoded.parquet->size()};
    kept += encoded.parquet->size();
    ahead.metas.push_back(std::move(*encoded.parquet));
  }
  for (size_t level = 0; level < t.levels.size(); ++level) {
    if (ahead.levels[level]) continue;
    if (!more() || !EncodeLevelAhead(t, level, ahead)) return;
    kept += ahead.levels[level]->size();
  }
}

// Runs EncodeAhead on a thread of its own from construction; Finish() (or the destructor)
// stops it and waits for the member it is encoding.
class AheadThread {
 public:
  AheadThread(model::LevelTables& t, EncodedAhead& ahead) {
    try {
      thread_ = std::thread([&t, &ahead, this] {
        try {
          EncodeAhead(t, ahead, stop_);
        } catch (...) {
          ahead.thrown = std::current_exception();
        }
      });
    } catch (const std::system_error&) {
      // No thread: nothing is encoded ahead; the calling thread encodes it all afterwards.
    }
  }
  ~AheadThread() { Finish(); }
  AheadThread(const AheadThread&) = delete;
  AheadThread& operator=(const AheadThread&) = delete;

  void Finish() {
    stop_.store(true, std::memory_order_relaxed);
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

Status WriteZip(PreparedTaco& prepared, const std::string& temp_path, const EngineSource& engine, Progress& progress) {
  model::LevelTables& t = prepared.tables;
  TACO_ASSIGN_OR_RETURN(auto zip, zip::ZipWriter::Create(temp_path));
  TACO_RETURN_IF_ERROR(zip->BeginTacoHeader());

  // Where each data member goes when every sample has the size it had when it was made.
  std::vector<MemberRange> planned(t.files.size()), actual(t.files.size());
  uint64_t planned_end = zip->position();
  for (size_t i = 0; i < t.files.size(); ++i) {
    const uint64_t size = t.files[i].second->size_bytes();
    planned[i] = {planned_end + zip::ZipWriter::LocalHeaderSize(t.files[i].first, size), size};
    planned_end = planned[i].offset + size;
  }
  EncodedAhead ahead;
  ahead.end = planned_end;
  ahead.ranges.reserve(t.files.size() + t.folder_meta.size());
  for (size_t i = 0; i < t.files.size(); ++i) ahead.ranges.emplace(t.files[i].first, planned[i]);
  AheadThread ahead_thread(t, ahead);

  io::RangeRunReader runs(SampleRanges(t.files), prepared.copy);
  using ReadBatch = std::vector<Result<std::optional<std::string>>>;
  TACO_RETURN_IF_ERROR(util::OrderedParallel(
      Batches(t.files.size()), WorkerThreads(), kWindow,
      [&](size_t b) {
        ReadBatch reads;
        for (size_t i = b * kBatch; i < std::min(t.files.size(), (b + 1) * kBatch); ++i) {
          reads.push_back(ReadAhead(*t.files[i].second));
        }
        return reads;
      },
      [&](size_t b, ReadBatch reads) -> Status {
        for (size_t j = 0; j < reads.size(); ++j) {
          const size_t i = b * kBatch + j;
          if (!reads[j].ok()) return reads[j].status();
          TACO_ASSIGN_OR_RETURN(std::optional<io::RunBytes> bytes, runs.Get(i));
          TACO_RETURN_IF_ERROR(
              AddSampleData(*zip, t.files[i].first, *t.files[i].second, bytes, *reads[j], actual[i], progress));
        }
        return Status::OK();
      }));
  ahead_thread.Finish();
  if (ahead.thrown) std::rethrow_exception(ahead.thrown);

  const bool as_planned =
      zip->position() == planned_end &&
      std::equal(planned.begin(), planned.end(), actual.begin(),
                 [](const MemberRange& a, const MemberRange& b) { return a.offset == b.offset && a.size == b.size; });
  MemberRanges ranges;
  size_t meta_begin = 0;
  if (as_planned) {
    ranges = std::move(ahead.ranges);
    for (; meta_begin < ahead.metas.size(); ++meta_begin) {
      const std::string member = t.folder_meta[meta_begin].first + "__meta__";
      TACO_ASSIGN_OR_RETURN(zip::MemberInfo info, zip->AddBytes(member, ahead.metas[meta_begin]));
      if (info.data_offset != ranges[member].offset) {
        return Status::Internal(member + ": written at " + std::to_string(info.data_offset) + ", not at " +
                                std::to_string(ranges[member].offset) + " as computed");
      }
      ahead.metas[meta_begin] = std::string();
    }
    TACO_RETURN_IF_ERROR(ahead.status);  // where the serial order meets it: after what was encoded before it
  } else {
    // A data member is not where it was computed to be: encode the rest from the real ranges.
    for (size_t level = 0; level < ahead.levels.size(); ++level) {
      if (!ahead.levels[level]) continue;
      ahead.levels[level].reset();
      const auto at = static_cast<std::ptrdiff_t>(ahead.offset_columns_at[level]);
      t.levels[level].columns.erase(t.levels[level].columns.begin() + at, t.levels[level].columns.begin() + at + 2);
    }
    ranges.reserve(t.files.size() + t.folder_meta.size());
    for (size_t i = 0; i < t.files.size(); ++i) ranges.emplace(t.files[i].first, actual[i]);
  }
  std::vector<std::optional<std::string>> levels_ahead = std::move(ahead.levels);
  levels_ahead.resize(t.levels.size());
  ahead = EncodedAhead();

  // Deepest folders first, so every child __meta__ exists before its parent's table; the
  // folders of one depth are encoded in parallel (workers only read `ranges`: the members
  // appended are added to it after the run).
  for (size_t begin = meta_begin; begin < t.folder_meta.size();) {
    const size_t end = DepthRunEnd(t, begin);
    std::vector<std::pair<std::string, zip::MemberInfo>> added;
    added.reserve(end - begin);
    TACO_RETURN_IF_ERROR(util::OrderedParallel(
        Batches(end - begin), WorkerThreads(), kWindow,
        [&](size_t b) {
          std::vector<EncodedMeta> batch;
          for (size_t k = begin + b * kBatch; k < std::min(end, begin + (b + 1) * kBatch); ++k) {
            batch.push_back(EncodeMeta(t.folder_meta[k].first, t.folder_meta[k].second, ranges));
          }
          return batch;
        },
        [&](size_t b, std::vector<EncodedMeta> batch) -> Status {
          for (size_t j = 0; j < batch.size(); ++j) {
            EncodedMeta& encoded = batch[j];
            TACO_RETURN_IF_ERROR(encoded.status);
            if (!encoded.parquet) {
              TACO_ASSIGN_OR_RETURN(table::Engine * sql, engine());
              TACO_ASSIGN_OR_RETURN(encoded.parquet, sql->ToParquet(encoded.table, {kMetaZstd, 65536}));
            }
            const std::string member = t.folder_meta[begin + b * kBatch + j].first + "__meta__";
            TACO_ASSIGN_OR_RETURN(zip::MemberInfo info, zip->AddBytes(member, *encoded.parquet));
            added.emplace_back(member, info);
          }
          return Status::OK();
        }));
    for (const auto& [member, info] : added) ranges[member] = {info.data_offset, info.size};
    begin = end;
  }

  std::vector<zip::HeaderEntry> header;
  for (size_t level = 0; level < t.levels.size(); ++level) {
    Table table = std::move(t.levels[level]);  // consumed: the level's memory goes as it is written
    std::string parquet;
    if (levels_ahead[level]) {
      parquet = std::move(*levels_ahead[level]);
    } else {
      TACO_RETURN_IF_ERROR(AddOffsetColumns(table, t.archive_paths[level], ranges));
      TACO_ASSIGN_OR_RETURN(parquet, ToParquet(engine, table, {kLevelZstd, 65536}));
    }
    TACO_ASSIGN_OR_RETURN(zip::MemberInfo info,
                          zip->AddBytes("METADATA/level" + std::to_string(level) + ".parquet", parquet));
    header.push_back({info.data_offset, info.size});
  }
  TACO_ASSIGN_OR_RETURN(zip::MemberInfo collection, zip->AddBytes("COLLECTION.json", prepared.collection_json));
  header.push_back({collection.data_offset, collection.size});

  TACO_RETURN_IF_ERROR(zip->SetTacoHeader(header));
  return zip->Finish();
}

}  // namespace taco::write
