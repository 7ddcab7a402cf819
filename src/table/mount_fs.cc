// The "tacofs://" DuckDB file system over RangeReaders and in-memory output files.
#include "table/mount_fs.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "duckdb/common/exception.hpp"
#include "duckdb/common/file_system.hpp"
#include "duckdb/common/types/timestamp.hpp"

namespace taco::table {

// ---- MountTable -----------------------------------------------------------------------

namespace {

// The last path component of `name`, restricted to [A-Za-z0-9._-] so that DuckDB sees no glob
// characters, quotes or hive-partition segments ("key=value/") in a mount path.
std::string SafeBaseName(std::string_view name) {
  size_t slash = name.find_last_of("/\\");
  if (slash != std::string_view::npos) name.remove_prefix(slash + 1);
  std::string out;
  for (char c : name) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += ok ? c : '_';
  }
  return out.empty() ? std::string("file") : out;
}

}  // namespace

std::string MountTable::NewPath(std::string_view file_name) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string path = std::string(kMountScheme) + std::to_string(next_id_++) + "/" + SafeBaseName(file_name);
  entries_[path] = Entry{std::string(file_name), nullptr, nullptr};
  return path;
}

std::string MountTable::Mount(RangeReaderPtr reader, std::string_view file_name) {
  std::string path = NewPath(file_name);
  std::lock_guard<std::mutex> lock(mu_);
  entries_[path].reader = std::move(reader);
  return path;
}

void MountTable::Unmount(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.erase(path);
}

Result<std::string> MountTable::TakeOutput(const std::string& path) {
  std::shared_ptr<OutputFile> output;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(path);
    if (it != entries_.end()) output = it->second.output;
    entries_.erase(path);
  }
  if (!output) return Status::Internal(path + ": DuckDB wrote no output file");
  std::lock_guard<std::mutex> lock(output->mu);
  return std::move(output->bytes);
}

RangeReaderPtr MountTable::FindReader(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(path);
  return it == entries_.end() ? nullptr : it->second.reader;
}

std::shared_ptr<OutputFile> MountTable::FindOutput(const std::string& path, bool create) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(path);
  if (it == entries_.end()) {
    if (!create) return nullptr;
    it = entries_.emplace(path, Entry{path.substr(std::min(path.size(), kMountScheme.size())), nullptr, nullptr}).first;
  }
  if (it->second.reader) return nullptr;  // mounted inputs are read-only
  if (!it->second.output && create) it->second.output = std::make_shared<OutputFile>();
  return it->second.output;
}

bool MountTable::Exists(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(path);
  return it != entries_.end() && (it->second.reader || it->second.output);
}

bool MountTable::MoveOutput(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(from);
  if (it == entries_.end() || !it->second.output) return false;
  std::shared_ptr<OutputFile> output = it->second.output;
  entries_.erase(it);
  auto target = entries_.find(to);
  if (target == entries_.end()) {
    entries_.emplace(to, Entry{to, nullptr, std::move(output)});
  } else {
    target->second.reader = nullptr;
    target->second.output = std::move(output);
  }
  return true;
}

std::string MountTable::Describe(std::string text) const {
  std::lock_guard<std::mutex> lock(mu_);
  // Longest paths first so that "tacofs://1/x" does not clobber "tacofs://12/x".
  std::vector<const std::pair<const std::string, Entry>*> sorted;
  for (const auto& e : entries_) sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first.size() > b->first.size(); });
  for (const auto* e : sorted) {
    size_t pos = 0;
    while ((pos = text.find(e->first, pos)) != std::string::npos) {
      text.replace(pos, e->first.size(), e->second.file_name);
      pos += e->second.file_name.size();
    }
  }
  return text;
}

std::string MountTable::NamesIn(const std::string& text) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string names;
  for (const auto& [path, entry] : entries_) {
    if (text.find(path) == std::string::npos) continue;
    if (!names.empty()) names += ", ";
    names += entry.file_name;
  }
  return names;
}

// ---- DuckDB file system ---------------------------------------------------------------

namespace {

class MountHandle final : public duckdb::FileHandle {
 public:
  MountHandle(duckdb::FileSystem& fs, const std::string& path, duckdb::FileOpenFlags flags, RangeReaderPtr reader,
              std::shared_ptr<OutputFile> output)
      : duckdb::FileHandle(fs, path, flags), reader_(std::move(reader)), output_(std::move(output)) {}
  void Close() override {}

  uint64_t Size() const {
    if (reader_) return reader_->size();
    std::lock_guard<std::mutex> lock(output_->mu);
    return output_->bytes.size();
  }

  void ReadAt(void* buffer, uint64_t n, uint64_t location) const {
    if (!reader_) {
      std::lock_guard<std::mutex> lock(output_->mu);
      if (location > output_->bytes.size() || n > output_->bytes.size() - location) {
        throw duckdb::IOException("Read past the end of \"" + path + "\"");
      }
      std::memcpy(buffer, output_->bytes.data() + location, n);
      return;
    }
    Status st = reader_->ReadAt(location, static_cast<size_t>(n), buffer);
    if (!st.ok()) throw duckdb::IOException(st.message());
  }

  void WriteAt(const void* buffer, uint64_t n, uint64_t location) const {
    if (!output_) throw duckdb::IOException("Cannot write to mounted file \"" + path + "\"");
    std::lock_guard<std::mutex> lock(output_->mu);
    std::string& bytes = output_->bytes;
    if (bytes.size() < location + n) bytes.resize(location + n);
    if (n > 0) std::memcpy(bytes.data() + location, buffer, n);
  }

  void Truncate(uint64_t size) const {
    if (!output_) throw duckdb::IOException("Cannot truncate mounted file \"" + path + "\"");
    std::lock_guard<std::mutex> lock(output_->mu);
    output_->bytes.resize(size);
  }

  uint64_t position = 0;

 private:
  RangeReaderPtr reader_;
  std::shared_ptr<OutputFile> output_;
};

class MountFileSystem final : public duckdb::FileSystem {
 public:
  explicit MountFileSystem(std::shared_ptr<MountTable> mounts) : mounts_(std::move(mounts)) {}

  duckdb::unique_ptr<duckdb::FileHandle> OpenFile(const std::string& path, duckdb::FileOpenFlags flags,
                                                  duckdb::optional_ptr<duckdb::FileOpener>) override {
    if (flags.OpenForWriting()) {
      std::shared_ptr<OutputFile> output = mounts_->FindOutput(path, /*create=*/true);
      if (!output) throw duckdb::IOException("Cannot open mounted file \"" + path + "\" for writing");
      if (!flags.OpenForAppending()) {
        std::lock_guard<std::mutex> lock(output->mu);
        output->bytes.clear();
      }
      return duckdb::make_uniq<MountHandle>(*this, path, flags, nullptr, std::move(output));
    }
    RangeReaderPtr reader = mounts_->FindReader(path);
    std::shared_ptr<OutputFile> output;
    if (!reader) output = mounts_->FindOutput(path, /*create=*/false);
    if (!reader && !output) {
      if (flags.ReturnNullIfNotExists()) return nullptr;
      throw duckdb::IOException("No such mounted file \"" + path + "\"");
    }
    return duckdb::make_uniq<MountHandle>(*this, path, flags, std::move(reader), std::move(output));
  }

  void Read(duckdb::FileHandle& handle, void* buffer, int64_t nr_bytes, duckdb::idx_t location) override {
    auto& h = handle.Cast<MountHandle>();
    uint64_t size = h.Size();
    if (nr_bytes < 0 || location > size || static_cast<uint64_t>(nr_bytes) > size - location) {
      throw duckdb::IOException("Read of " + std::to_string(nr_bytes) + " bytes at " + std::to_string(location) +
                                " is past the end of \"" + handle.path + "\" (" + std::to_string(size) + " bytes)");
    }
    ReadInto(h, buffer, static_cast<uint64_t>(nr_bytes), location);
  }

  int64_t Read(duckdb::FileHandle& handle, void* buffer, int64_t nr_bytes) override {
    auto& h = handle.Cast<MountHandle>();
    uint64_t size = h.Size();
    uint64_t start = std::min(h.position, size);
    uint64_t n = std::min<uint64_t>(nr_bytes < 0 ? 0 : static_cast<uint64_t>(nr_bytes), size - start);
    ReadInto(h, buffer, n, start);
    h.position = start + n;
    return static_cast<int64_t>(n);
  }

  void Write(duckdb::FileHandle& handle, void* buffer, int64_t nr_bytes, duckdb::idx_t location) override {
    handle.Cast<MountHandle>().WriteAt(buffer, static_cast<uint64_t>(nr_bytes), location);
  }

  int64_t Write(duckdb::FileHandle& handle, void* buffer, int64_t nr_bytes) override {
    auto& h = handle.Cast<MountHandle>();
    h.WriteAt(buffer, static_cast<uint64_t>(nr_bytes), h.position);
    h.position += static_cast<uint64_t>(nr_bytes);
    return nr_bytes;
  }

  int64_t GetFileSize(duckdb::FileHandle& handle) override {
    return static_cast<int64_t>(handle.Cast<MountHandle>().Size());
  }
  duckdb::timestamp_t GetLastModifiedTime(duckdb::FileHandle&) override { return duckdb::timestamp_t(0); }
  std::string GetVersionTag(duckdb::FileHandle& handle) override { return handle.path; }
  duckdb::FileType GetFileType(duckdb::FileHandle&) override { return duckdb::FileType::FILE_TYPE_REGULAR; }
  void Truncate(duckdb::FileHandle& handle, int64_t new_size) override {
    handle.Cast<MountHandle>().Truncate(static_cast<uint64_t>(new_size));
  }
  void FileSync(duckdb::FileHandle&) override {}

  bool FileExists(const std::string& filename, duckdb::optional_ptr<duckdb::FileOpener>) override {
    return mounts_->Exists(filename);
  }
  bool DirectoryExists(const std::string&, duckdb::optional_ptr<duckdb::FileOpener>) override { return false; }
  void CreateDirectory(const std::string&, duckdb::optional_ptr<duckdb::FileOpener>) override {}
  bool IsPipe(const std::string&, duckdb::optional_ptr<duckdb::FileOpener>) override { return false; }
  void RemoveFile(const std::string& filename, duckdb::optional_ptr<duckdb::FileOpener>) override {
    RemoveOutput(filename);
  }
  bool TryRemoveFile(const std::string& filename, duckdb::optional_ptr<duckdb::FileOpener>) override {
    return RemoveOutput(filename);
  }
  void MoveFile(const std::string& source, const std::string& target,
                duckdb::optional_ptr<duckdb::FileOpener>) override {
    if (!mounts_->MoveOutput(source, target)) {
      throw duckdb::IOException("Cannot move \"" + source + "\": not an output file");
    }
  }

  duckdb::vector<duckdb::OpenFileInfo> Glob(const std::string& path, duckdb::FileOpener*) override {
    duckdb::vector<duckdb::OpenFileInfo> result;
    if (mounts_->Exists(path)) result.emplace_back(path);
    return result;
  }

  bool CanHandleFile(const std::string& path) override { return path.rfind(kMountScheme, 0) == 0; }
  void Seek(duckdb::FileHandle& handle, duckdb::idx_t location) override {
    handle.Cast<MountHandle>().position = location;
  }
  void Reset(duckdb::FileHandle& handle) override { handle.Cast<MountHandle>().position = 0; }
  duckdb::idx_t SeekPosition(duckdb::FileHandle& handle) override { return handle.Cast<MountHandle>().position; }
  bool CanSeek() override { return true; }
  // Mounted readers may be remote: let DuckDB batch and prefetch its reads.
  bool OnDiskFile(duckdb::FileHandle&) override { return false; }
  std::string GetName() const override { return "TacoMountFileSystem"; }

 private:
  static void ReadInto(const MountHandle& h, void* buffer, uint64_t n, uint64_t location) {
    if (n == 0) return;
    h.ReadAt(buffer, n, location);
  }

  bool RemoveOutput(const std::string& path) {
    if (!mounts_->FindOutput(path, /*create=*/false)) return false;
    mounts_->Unmount(path);
    return true;
  }

  std::shared_ptr<MountTable> mounts_;
};

}  // namespace

std::unique_ptr<duckdb::FileSystem> MakeMountFileSystem(std::shared_ptr<MountTable> mounts) {
  return std::make_unique<MountFileSystem>(std::move(mounts));
}

}  // namespace taco::table
