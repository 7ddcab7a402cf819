// InProcessGdalPath() and the "/vsitaco/" GDAL file system behind it: see taco/io.h.
//
// Registry: each handed-off GDAL path gets a number n (the same path the same n while it is
// remembered) and the GDAL path "/vsitaco/<n>/<leaf>"; the registry is an LRU bounded in
// entries and prefetched bytes, so that a loop over millions of samples keeps memory flat. An entry keeps how to reach
// the bytes (a RangeReader of exactly the sample's bytes, opened without any request when the size is known) and the
// size, so that GDAL's stat is answered from memory. Only registered paths exist: GDAL's
// probes for side-car files (.aux.xml, .ovr, .msk) are answered "not found" without a
// request, and the sibling list is empty.
//
// An open handle reads through a small chunk cache: the first read fetches the whole sample
// when it is at most kWholeFetch bytes, else at least kFirstFetch bytes from where it
// starts; a later read outside the fetched chunks fetches at least kLaterFetch bytes. So a
// GDAL open (header, IFDs) costs one request, and tiles read later cost one each at most.
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "io/http_client.h"
#include "io/http_reader.h"
#include "io/range_check.h"
#include "taco/io.h"
#include "util/env_defaults.h"

namespace taco {
namespace {

constexpr std::string_view kPrefix = "/vsitaco/";
constexpr uint64_t kWholeFetch = 4ULL << 20;
constexpr uint64_t kFirstFetch = 1ULL << 20;
constexpr uint64_t kLaterFetch = 256ULL << 10;
constexpr uint64_t kMaxCachedPerHandle = 64ULL << 20;
// Registry bounds (see Registry): entries, and bytes prefetched by plain-http entries.
constexpr size_t kDefaultMaxPaths = 65536;
constexpr uint64_t kMaxResidentBytes = 256ULL << 20;

// ---- readers of a sample's bytes --------------------------------------------------------

// [offset, offset+size) of an http(s) object, one ranged GET per ReadAt, without learning
// the object's size first. Every answer must be a 206 for exactly the bytes asked, and all
// answers must carry the same ETag (else the object changed under us).
class HttpWindowReader final : public RangeReader {
 public:
  HttpWindowReader(std::string name, std::string url, uint64_t offset, uint64_t size)
      : name_(std::move(name)), url_(std::move(url)), offset_(offset), size_(size) {}
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    TACO_RETURN_IF_ERROR(io::CheckRange(name_, offset, n, size_));
    if (n == 0) return Status::OK();
    const io::HttpByteRange range{offset_ + offset, n};
    TACO_ASSIGN_OR_RETURN(io::HttpResponse r, io::HttpGet(name_, url_, range, n));
    TACO_RETURN_IF_ERROR(io::CheckRangeResponse(name_, r, range, /*clamp_to_end=*/false));
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!r.etag.empty()) {
        if (etag_.empty()) etag_ = r.etag;
        if (etag_ != r.etag) {
          return Status::IOError(name_ + ": the object changed while being read (ETag " + r.etag + ", was " + etag_ +
                                 ")");
        }
      }
    }
    std::memcpy(out, r.body.data(), n);
    return Status::OK();
  }

 private:
  std::string name_;
  std::string url_;
  uint64_t offset_;
  uint64_t size_;
  mutable std::mutex mu_;
  mutable std::string etag_;
};

// [offset, offset+size) of any other file, opened on the first read.
class LazyWindowReader final : public RangeReader {
 public:
  LazyWindowReader(std::string name, std::string root, uint64_t offset, uint64_t size)
      : name_(std::move(name)), root_(std::move(root)), offset_(offset), size_(size) {}
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    TACO_RETURN_IF_ERROR(io::CheckRange(name_, offset, n, size_));
    RangeReaderPtr window;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (window_ == nullptr) {
        TACO_ASSIGN_OR_RETURN(RangeReaderPtr root, OpenRangeReader(root_));
        TACO_ASSIGN_OR_RETURN(window_, SubRange(std::move(root), offset_, size_, name_));
      }
      window = window_;
    }
    return window->ReadAt(offset, n, out);
  }

 private:
  std::string name_;
  std::string root_;
  uint64_t offset_;
  uint64_t size_;
  mutable std::mutex mu_;
  mutable RangeReaderPtr window_;
};

// ---- registry -----------------------------------------------------------------------

struct Entry {
  std::string key;   // the GDAL path + '\n' + leaf it was made for
  std::string dir;   // "/vsitaco/<n>"
  std::string path;  // dir + "/" + leaf
  RangeReaderPtr reader;
  uint64_t resident = 0;                            // bytes the reader holds in memory (a prefetched http object)
  std::list<std::shared_ptr<Entry>>::iterator lru;  // position in Registry::lru_
};

// Handed-out paths, bounded: at most MaxPaths() entries and kMaxResidentBytes of prefetched
// bytes; past that, the least recently used entries (handed out, stat'ed or opened) are
// forgotten. An open handle keeps its reader, so eviction never breaks an open dataset.
class Registry {
 public:
  static Registry& Get() {
    static Registry* registry = new Registry();  // lives as long as GDAL may call us
    return *registry;
  }

  Result<std::string> Add(const std::string& key, const std::string& leaf,
                          const std::function<Result<RangeReaderPtr>()>& make_reader, uint64_t resident) {
    std::lock_guard<std::mutex> lock(mu_);
    auto found = by_key_.find(key + '\n' + leaf);
    if (found != by_key_.end()) {
      Touch(found->second);
      return found->second->path;
    }
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, make_reader());
    auto entry = std::make_shared<Entry>();
    entry->key = key + '\n' + leaf;
    entry->dir = std::string(kPrefix) + std::to_string(++next_number_);
    entry->path = entry->dir + "/" + leaf;
    entry->reader = std::move(reader);
    entry->resident = resident;
    resident_ += resident;
    lru_.push_front(entry);
    entry->lru = lru_.begin();
    by_key_[entry->key] = entry;
    by_path_[entry->path] = entry;
    dirs_[entry->dir] = entry;
    while (lru_.size() > 1 && (lru_.size() > MaxPaths() || resident_ > kMaxResidentBytes)) Erase(lru_.back());
    return entry->path;
  }

  std::shared_ptr<const Entry> Find(const std::string& path) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_path_.find(path);
    if (it == by_path_.end()) return nullptr;
    Touch(it->second);
    return it->second;
  }
  std::shared_ptr<const Entry> FindDir(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    std::lock_guard<std::mutex> lock(mu_);
    auto it = dirs_.find(path);
    if (it == dirs_.end()) return nullptr;
    Touch(it->second);
    return it->second;
  }

  bool Release(const std::string& path) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_path_.find(path);
    if (it == by_path_.end()) return false;
    Erase(it->second);
    return true;
  }

  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return lru_.size();
  }

 private:
  static size_t MaxPaths() {
    static const size_t max = [] { return util::EnvVsitacoMaxPaths().value_or(kDefaultMaxPaths); }();
    return max;
  }
  void Touch(const std::shared_ptr<Entry>& e) { lru_.splice(lru_.begin(), lru_, e->lru); }
  void Erase(std::shared_ptr<Entry> e) {  // by value: the maps hold the last references
    resident_ -= e->resident;
    by_key_.erase(e->key);
    by_path_.erase(e->path);
    dirs_.erase(e->dir);
    lru_.erase(e->lru);
  }

  mutable std::mutex mu_;
  uint64_t next_number_ = 0;
  uint64_t resident_ = 0;
  std::list<std::shared_ptr<Entry>> lru_;  // most recently used first
  std::map<std::string, std::shared_ptr<Entry>> by_key_;
  std::map<std::string, std::shared_ptr<Entry>> by_path_;
  std::map<std::string, std::shared_ptr<Entry>> dirs_;
};

// ---- an open handle ---------------------------------------------------------------------

class Handle {
 public:
  explicit Handle(RangeReaderPtr reader) : reader_(std::move(reader)) {}

  size_t Read(void* buffer, size_t size, size_t count) {
    const uint64_t total = reader_->size();
    if (size == 0 || count == 0) return 0;
    if (pos_ >= total) {
      eof_ = true;
      return 0;
    }
    const uint64_t want = static_cast<uint64_t>(size) * count;
    const uint64_t n = std::min<uint64_t>(want, total - pos_);
    if (!Fill(pos_, n, static_cast<char*>(buffer))) return 0;
    pos_ += n;
    if (n < want) eof_ = true;
    return static_cast<size_t>(n / size);
  }
  int Seek(vsi_l_offset offset, int whence) {
    const uint64_t total = reader_->size();
    switch (whence) {
      case SEEK_SET: pos_ = offset; break;
      case SEEK_CUR: pos_ += offset; break;
      case SEEK_END: pos_ = total + offset; break;
      default: return -1;
    }
    eof_ = false;
    return 0;
  }
  vsi_l_offset Tell() const { return pos_; }
  int Eof() const { return eof_ ? 1 : 0; }

 private:
  struct Chunk {
    uint64_t offset;
    std::string bytes;
  };

  // Copies [offset, offset+n) into out, fetching a chunk when no cached chunk holds it.
  bool Fill(uint64_t offset, uint64_t n, char* out) {
    for (const Chunk& c : chunks_) {
      if (offset >= c.offset && offset + n <= c.offset + c.bytes.size()) {
        std::memcpy(out, c.bytes.data() + (offset - c.offset), static_cast<size_t>(n));
        return true;
      }
    }
    const uint64_t total = reader_->size();
    uint64_t start = offset;
    uint64_t len;
    if (chunks_.empty() && total <= kWholeFetch) {
      start = 0;
      len = total;
    } else {
      len = std::max<uint64_t>(n, chunks_.empty() ? kFirstFetch : kLaterFetch);
      len = std::min<uint64_t>(len, total - start);
    }
    auto got = reader_->Read(start, static_cast<size_t>(len));
    if (!got.ok()) {
      CPLError(CE_Failure, CPLE_FileIO, "%s", got.status().ToString().c_str());
      return false;
    }
    cached_ += got->size();
    chunks_.push_back(Chunk{start, std::move(*got)});
    while (cached_ > kMaxCachedPerHandle && chunks_.size() > 1) {
      cached_ -= chunks_.front().bytes.size();
      chunks_.pop_front();
    }
    const Chunk& c = chunks_.back();
    std::memcpy(out, c.bytes.data() + (offset - c.offset), static_cast<size_t>(n));
    return true;
  }

  RangeReaderPtr reader_;
  uint64_t pos_ = 0;
  bool eof_ = false;
  std::deque<Chunk> chunks_;
  uint64_t cached_ = 0;
};

// ---- GDAL plugin callbacks --------------------------------------------------------------
// GDAL passes names without the "/vsitaco/" prefix.

std::string FullPath(const char* name) {
  std::string out(kPrefix);
  out += name;
  return out;
}

int StatCallback(void*, const char* filename, VSIStatBufL* stat, int) {
  std::memset(stat, 0, sizeof(*stat));
  if (auto e = Registry::Get().Find(FullPath(filename))) {
    stat->st_mode = S_IFREG | 0444;
    stat->st_size = static_cast<decltype(stat->st_size)>(e->reader->size());
    return 0;
  }
  if (Registry::Get().FindDir(FullPath(filename)) != nullptr) {
    stat->st_mode = S_IFDIR | 0555;
    return 0;
  }
  return -1;
}

char** ReadDirCallback(void*, const char* dirname, int) {
  auto e = Registry::Get().FindDir(FullPath(dirname));
  if (e == nullptr) return nullptr;
  return CSLAddString(nullptr, e->path.substr(e->dir.size() + 1).c_str());
}

char** SiblingFilesCallback(void*, const char*) {
  return static_cast<char**>(CPLCalloc(1, sizeof(char*)));  // none: no side-car probing
}

void* OpenCallback(void*, const char* filename, const char* access) {
  if (access != nullptr && (std::strchr(access, 'w') != nullptr || std::strchr(access, 'a') != nullptr ||
                            std::strchr(access, '+') != nullptr)) {
    return nullptr;
  }
  auto e = Registry::Get().Find(FullPath(filename));
  if (e == nullptr) return nullptr;
  return new Handle(e->reader);
}

vsi_l_offset TellCallback(void* file) { return static_cast<Handle*>(file)->Tell(); }
int SeekCallback(void* file, vsi_l_offset offset, int whence) {
  return static_cast<Handle*>(file)->Seek(offset, whence);
}
size_t ReadCallback(void* file, void* buffer, size_t size, size_t count) {
  return static_cast<Handle*>(file)->Read(buffer, size, count);
}
int EofCallback(void* file) { return static_cast<Handle*>(file)->Eof(); }
int CloseCallback(void* file) {
  delete static_cast<Handle*>(file);
  return 0;
}

Status InstallHandlerOnce() {
  static const int installed = [] {
    VSIFilesystemPluginCallbacksStruct* cb = VSIAllocFilesystemPluginCallbacksStruct();
    cb->stat = StatCallback;
    cb->read_dir = ReadDirCallback;
    cb->sibling_files = SiblingFilesCallback;
    cb->open = OpenCallback;
    cb->tell = TellCallback;
    cb->seek = SeekCallback;
    cb->read = ReadCallback;
    cb->eof = EofCallback;
    cb->close = CloseCallback;
    // GDAL keeps the prefix pointer: it must outlive the process's use of GDAL.
    static const char kPrefixC[] = "/vsitaco/";
    const int rc = VSIInstallPluginHandler(kPrefixC, cb);
    VSIFreeFilesystemPluginCallbacksStruct(cb);
    return rc;
  }();
  if (installed != 0) return Status::IOError("cannot install the GDAL file system " + std::string(kPrefix));
  return Status::OK();
}

// ---- parsing ----------------------------------------------------------------------------

std::string LeafFor(const std::string& leaf, const std::string& gdal_path) {
  std::string out = leaf;
  if (out.empty()) {
    const size_t slash = gdal_path.find_last_of('/');
    out = slash == std::string::npos ? gdal_path : gdal_path.substr(slash + 1);
  }
  for (char& c : out) {
    if (c == '/' || c == '\\' || c == ',' || static_cast<unsigned char>(c) < 0x20) c = '_';
  }
  if (out.empty() || out == "." || out == "..") out = "sample";
  return out;
}

}  // namespace

Result<std::string> InProcessGdalPath(const std::string& gdal_path, const std::string& leaf) {
  TACO_RETURN_IF_ERROR(InstallHandlerOnce());
  if (gdal_path.rfind(kPrefix, 0) == 0) return gdal_path;  // already ours
  const std::optional<VsiSubfile> window = ParseVsiSubfile(gdal_path);
  if (!window && gdal_path.rfind("/vsisubfile/", 0) == 0) {
    return Status::InvalidArgument(gdal_path + ": malformed /vsisubfile/ path");
  }
  const std::string name = LeafFor(leaf, gdal_path);
  const uint64_t resident = !window && io::PlainHttpUrl(gdal_path) ? kWholeFetch : 0;
  return Registry::Get().Add(
      gdal_path, name,
      [&]() -> Result<RangeReaderPtr> {
        if (!window) {  // the size is unknown: learnt now, with the first bytes (http: one GET)
          if (auto url = io::PlainHttpUrl(gdal_path)) {
            TACO_ASSIGN_OR_RETURN(auto reader, io::OpenHttpFile(gdal_path, *url, kWholeFetch));
            return RangeReaderPtr(std::move(reader));
          }
          return OpenRangeReader(gdal_path);
        }
        if (auto url = io::PlainHttpUrl(window->root)) {
          return RangeReaderPtr(std::make_shared<HttpWindowReader>(gdal_path, *url, window->offset, window->size));
        }
        return RangeReaderPtr(
            std::make_shared<LazyWindowReader>(gdal_path, window->root, window->offset, window->size));
      },
      resident);
}

bool ReleaseInProcessGdalPath(const std::string& path) { return Registry::Get().Release(path); }

size_t InProcessGdalPathCount() { return Registry::Get().size(); }

}  // namespace taco
