#include "validate/container.h"

#include "io/http_client.h"
#include "io/http_reader.h"
#include "io/thread_config.h"
#include "read/path_safety.h"
#include "taco/log.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <system_error>
#include <thread>

namespace taco::validate {

namespace fs = std::filesystem;

namespace {

// Metadata is untrusted (issue 16 B): a member path built from stored ids is looked up only
// when it cannot leave the dataset ('..' or '.' components, absolute, backslashes). The
// sample-id / relative-path rules report such ids.
bool StaysInside(const std::string& archive_path) {
  if (archive_path.empty() || archive_path.front() == '/' || archive_path.find('\\') != std::string::npos) return false;
  size_t start = 0;
  while (start <= archive_path.size()) {
    size_t slash = archive_path.find('/', start);
    if (slash == std::string::npos) slash = archive_path.size();
    const std::string_view part(archive_path.data() + start, slash - start);
    if (part == ".." || part == ".") return false;
    start = slash + 1;
  }
  return true;
}

}  // namespace

Result<std::unique_ptr<ZipContainer>> ZipContainer::Open(const std::string& path, bool defer_data_offsets) {
  std::unique_ptr<ZipContainer> c(new ZipContainer());
  c->path_ = path;
  TACO_ASSIGN_OR_RETURN(c->reader_, OpenRangeReader(path));
  TACO_ASSIGN_OR_RETURN(zip::CentralDirectory cd, zip::ReadCentralDirectoryRecords(*c->reader_));
  c->entries_ = std::move(cd.entries);
  c->cd_offset_ = cd.offset;
  if (!defer_data_offsets || !c->local()) {  // remote: as before (its reads are requests)
    TACO_RETURN_IF_ERROR(c->ResolveDataOffsets());
  } else {
    std::vector<size_t> early;
    for (size_t i = 0; i < c->entries_.size(); ++i) {
      if (c->entries_[i].name.rfind("DATA/", 0) != 0) early.push_back(i);
    }
    // A fault among them: the error of resolving all (the first fault in file order).
    if (!zip::ResolveDataOffsets(*c->reader_, c->cd_offset_, &c->entries_, &early).ok()) {
      TACO_RETURN_IF_ERROR(c->ResolveDataOffsets());
    }
  }
  c->by_name_.reserve(c->entries_.size());
  c->is_duplicate_.assign(c->entries_.size(), 0);
  for (size_t i = 0; i < c->entries_.size(); ++i) {
    if (!c->by_name_.emplace(c->entries_[i].name, i).second) {
      c->duplicates_.push_back(i);
      c->is_duplicate_[i] = 1;
    }
  }
  return c;
}

Status ZipContainer::ResolveDataOffsets() {
  if (resolved_) return Status::OK();
  TACO_RETURN_IF_ERROR(zip::ResolveDataOffsets(*reader_, cd_offset_, &entries_));
  resolved_ = true;
  return Status::OK();
}

void ZipContainer::AdoptDataOffsets(const std::vector<uint64_t>& offsets) {
  for (size_t i = 0; i < entries_.size() && i < offsets.size(); ++i) entries_[i].data_offset = offsets[i];
  resolved_ = offsets.size() == entries_.size();
}

std::optional<size_t> ZipContainer::FindIndex(const std::string& archive_path, size_t hint) const {
  // The first entry of its name is what the map holds for that name.
  if (hint < entries_.size() && is_duplicate_[hint] == 0 && entries_[hint].name == archive_path) return hint;
  auto it = by_name_.find(archive_path);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<MemberRange> ZipContainer::Find(const std::string& archive_path) const {
  std::optional<size_t> index = FindIndex(archive_path);
  if (!index) return std::nullopt;
  const zip::ZipEntry& e = entries_[*index];
  return MemberRange{e.data_offset, e.compressed_size};
}

Result<RangeReaderPtr> ZipContainer::OpenMember(const std::string& archive_path) const {
  std::optional<MemberRange> m = Find(archive_path);
  if (!m) return Status::NotFound(path_ + ": no member " + archive_path);
  return OpenRange(archive_path, *m);
}

Result<RangeReaderPtr> ZipContainer::OpenRange(const std::string& archive_path, const MemberRange& range) const {
  return SubRange(reader_, range.offset, range.size, path_ + " member " + archive_path);
}

std::vector<std::string> ZipContainer::Members() const {
  std::vector<std::string> out;
  out.reserve(by_name_.size());
  size_t next_duplicate = 0;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (next_duplicate < duplicates_.size() && duplicates_[next_duplicate] == i) {
      ++next_duplicate;
      continue;
    }
    out.push_back(entries_[i].name);
  }
  return out;
}

Result<std::unique_ptr<FolderContainer>> FolderContainer::Open(const std::string& path) {
  std::unique_ptr<FolderContainer> c(new FolderContainer());
  c->path_ = path;
  c->root_ = path;
  while (c->root_.size() > 1 && c->root_.back() == '/') c->root_.pop_back();
  std::error_code ec;
  if (!fs::is_directory(c->root_, ec)) return Status::NotFound(path + ": not a directory");
  return c;
}

std::string FolderContainer::Outside(const std::string& archive_path) const {
  if (!StaysInside(archive_path)) return "";
  const Status st = read::CheckInsideRoot(path_, root_, root_ + "/" + archive_path);
  // NotFound / IOError: not there (reported as missing); InvalidArgument: it leaves.
  return st.code() == StatusCode::kInvalidArgument ? st.message() : "";
}

std::optional<MemberRange> FolderContainer::Find(const std::string& archive_path) const {
  if (!StaysInside(archive_path) || !Outside(archive_path).empty()) return std::nullopt;
  std::error_code ec;
  const fs::path p = root_ + "/" + archive_path;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  const uintmax_t size = fs::file_size(p, ec);
  if (ec) return std::nullopt;
  return MemberRange{0, static_cast<uint64_t>(size)};
}

Result<RangeReaderPtr> FolderContainer::OpenMember(const std::string& archive_path) const {
  if (!StaysInside(archive_path))
    return Status::InvalidArgument(path_ + ": refused member path '" + archive_path + "'");
  if (std::string outside = Outside(archive_path); !outside.empty()) return Status::InvalidArgument(outside);
  return OpenLocalFile(root_ + "/" + archive_path);
}

std::vector<std::string> FolderContainer::Members() const {
  std::vector<std::string> out;
  for (const char* top : {"DATA", "METADATA"}) {
    std::error_code ec;
    const fs::path base = fs::path(root_) / top;
    if (!fs::is_directory(base, ec)) continue;
    fs::recursive_directory_iterator it(base, fs::directory_options::none, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code type_ec;
      if (!it->is_regular_file(type_ec)) continue;
      out.push_back(std::string(top) + "/" + it->path().lexically_relative(base).generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace taco::validate

namespace taco::validate {

namespace {
constexpr size_t kParallelAsks = 8;
}  // namespace

Result<std::unique_ptr<RemoteFolderContainer>> RemoteFolderContainer::Open(const std::string& path) {
  std::unique_ptr<RemoteFolderContainer> c(new RemoteFolderContainer());
  c->path_ = path;
  c->root_ = path;
  while (c->root_.size() > 1 && c->root_.back() == '/') c->root_.pop_back();
  (void)c->Ask("COLLECTION.json");
  TACO_RETURN_IF_ERROR(c->LookupFailure());
  return c;
}

Status RemoteFolderContainer::LookupFailure() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (failure_.ok()) return failure_;
  return Status(failure_.code(), path_ + ": cannot be validated: " + failure_.message());
}

std::optional<uint64_t> RemoteFolderContainer::Ask(const std::string& archive_path) const {
  if (!StaysInside(archive_path) || archive_path.find_first_of("%?#") != std::string::npos) return std::nullopt;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sizes_.find(archive_path);
    if (it != sizes_.end()) return it->second;
  }
  bool whole = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    whole = whole_files_;
  }
  Result<std::optional<uint64_t>> size =
      whole ? Result<std::optional<uint64_t>>(std::nullopt) : FileSize(root_ + "/" + archive_path);
  if (whole || (!size.ok() && io::IsRangeIgnored(size.status()))) {
    if (!whole) {
      std::lock_guard<std::mutex> lock(mu_);
      if (!whole_files_) {
        Log(LogLevel::kVerbose, path_ + ": the server ignores Range requests; every file is fetched whole");
      }
      whole_files_ = true;
    }
    Result<std::string> body = FetchWhole(archive_path);
    size = body.ok() ? Result<std::optional<uint64_t>>(std::optional<uint64_t>(body->size()))
                     : Result<std::optional<uint64_t>>(body.status());
  }
  std::optional<uint64_t> known = size.ok() ? *size : std::nullopt;
  std::lock_guard<std::mutex> lock(mu_);
  if (!size.ok() && size.status().code() != StatusCode::kNotFound && failure_.ok()) failure_ = size.status();
  sizes_[archive_path] = known;
  return known;
}

std::optional<MemberRange> RemoteFolderContainer::Find(const std::string& archive_path) const {
  std::optional<uint64_t> size = Ask(archive_path);
  if (!size) return std::nullopt;
  return MemberRange{0, *size};
}

Result<RangeReaderPtr> RemoteFolderContainer::OpenMember(const std::string& archive_path) const {
  if (!StaysInside(archive_path) || archive_path.find_first_of("%?#") != std::string::npos) {
    return Status::InvalidArgument(path_ + ": refused member path '" + archive_path + "'");
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!whole_files_) return OpenRangeReader(root_ + "/" + archive_path);
    auto kept = bodies_.find(archive_path);
    if (kept != bodies_.end()) return MemoryReader(*kept->second, root_ + "/" + archive_path);
  }
  TACO_ASSIGN_OR_RETURN(std::string body, FetchWhole(archive_path));
  return MemoryReader(std::move(body), root_ + "/" + archive_path);
}

Result<std::string> RemoteFolderContainer::FetchWhole(const std::string& archive_path) const {
  const std::string name = root_ + "/" + archive_path;
  std::optional<std::string> url = io::PlainHttpUrl(name);
  if (!url) return Status::IOError(name + ": " + std::string(io::kRangeIgnored) + " (and it is not an http(s) URL)");
  TACO_ASSIGN_OR_RETURN(std::string body, io::FetchHttpObject(name, *url));
  std::lock_guard<std::mutex> lock(mu_);
  if (bodies_.count(archive_path) == 0 && kept_bytes_ + body.size() <= kKeptBodyBytes) {
    kept_bytes_ += body.size();
    bodies_.emplace(archive_path, std::make_shared<const std::string>(body));
  }
  return body;
}

void RemoteFolderContainer::Prefetch(const std::vector<std::string>& archive_paths) const {
  std::atomic<size_t> next{0};
  // The caller's thread-local GDAL options (credentials, headers) hold in the workers too.
  auto work = io::WithCallerGdalConfig([&] {
    for (size_t i = next++; i < archive_paths.size(); i = next++) (void)Ask(archive_paths[i]);
  });
  std::vector<std::thread> threads;
  for (size_t t = 1; t < std::min(kParallelAsks, archive_paths.size()); ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
}

}  // namespace taco::validate
