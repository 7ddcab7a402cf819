// WriteZip: a TACO ZIP in the upstream member order (FORMAT §1.1, §1.5, §12).
//
// Three threads at most (the ZIP itself is written on the calling thread, member by member
// in the serial order, so the bytes do not depend on the threads): the small files of a
// directory source are read ahead on two workers (util::OrderedParallel, batches of files),
// and the __meta__ tables of folders of one depth (none is another's parent) are completed
// and encoded on two workers, then appended in order.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
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

// The bytes of the regular file `path` (nullopt when it is larger than kReadAheadMax now: the
// caller copies it with AddFile). Errors as ZipWriter::AddFile's.
Result<std::optional<std::string>> ReadSmallFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) return Status::NotFound(path + ": no such file");
    return Status::IOError(path + ": cannot open: " + std::strerror(err));
  }
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
  return ReadSmallFile(sample.file_path());
}

// `run`: the sample's bytes when they were read as part of a run (io/range_runs.h). A ZIP
// member's CRC is the one the writer computed, checked against the source's local header.
// `read`: the file's bytes when they were read ahead (ReadAhead).
Status AddSampleData(zip::ZipWriter& zip, const std::string& path, const Sample& sample,
                     const std::optional<io::RunBytes>& run, const std::optional<std::string>& read,
                     MemberRanges& ranges, Progress& progress) {
  Result<zip::MemberInfo> info =
      run    ? zip.AddBytes(path, run->data)
      : read ? zip.AddBytes(path, *read)
      : sample.range_reader() != nullptr
          ? zip.AddRange(path, *sample.range_reader(), sample.range_offset(), sample.size_bytes())
          : (sample.file_path().empty() ? zip.AddBytes(path, sample.bytes()) : zip.AddFile(path, sample.file_path()));
  if (!info.ok()) return info.status();
  TACO_RETURN_IF_ERROR(CheckCopiedMember(sample, run ? run->before : std::string_view(), info->crc32, path));
  ranges[path] = {info->data_offset, info->size};
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

}  // namespace

Status WriteZip(PreparedTaco& prepared, const std::string& temp_path, table::Engine& engine, Progress& progress) {
  model::LevelTables& t = prepared.tables;
  TACO_ASSIGN_OR_RETURN(auto zip, zip::ZipWriter::Create(temp_path));
  TACO_RETURN_IF_ERROR(zip->BeginTacoHeader());

  MemberRanges ranges;
  ranges.reserve(t.files.size() + t.folder_meta.size());
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
              AddSampleData(*zip, t.files[i].first, *t.files[i].second, bytes, *reads[j], ranges, progress));
        }
        return Status::OK();
      }));

  // Deepest folders first, so every child __meta__ exists before its parent's table; the
  // folders of one depth are encoded in parallel (workers only read `ranges`: the members
  // appended are added to it after the run).
  for (size_t begin = 0; begin < t.folder_meta.size();) {
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
              TACO_ASSIGN_OR_RETURN(encoded.parquet, table::TableToParquet(engine, encoded.table, {kMetaZstd, 65536}));
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
    TACO_RETURN_IF_ERROR(AddOffsetColumns(table, t.archive_paths[level], ranges));
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(engine, table, {kLevelZstd, 65536}));
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
