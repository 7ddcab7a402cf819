// OpenObjectFolder() and its two ObjectFolders: see object_folder.h.
#include "io/object_folder.h"

#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "io/cache.h"
#include "io/http_client.h"
#include "io/http_reader.h"
#include "io/range_check.h"
#include "io/thread_config.h"

namespace taco::io {
namespace {

std::string WithoutTrailingSlashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

// A local directory: every object is the file of that name, read in place.
class LocalFolder final : public ObjectFolder {
 public:
  explicit LocalFolder(std::string dir) : dir_(std::move(dir)) {}
  std::string PathOf(const std::string& name) const override { return dir_ + "/" + name; }
  Result<RangeReaderPtr> Open(const std::string& name) override { return OpenLocalFile(PathOf(name)); }
  Status Declare(const std::vector<std::string>&) override { return Status::OK(); }

 private:
  std::string dir_;
};

// Bytes shared by the folder (for the cache entry) and the reader Open() hands out.
using Bytes = std::shared_ptr<const std::string>;

class BytesReader final : public RangeReader {
 public:
  BytesReader(Bytes bytes, std::string name) : bytes_(std::move(bytes)), name_(std::move(name)) {}
  uint64_t size() const override { return bytes_->size(); }
  const std::string& name() const override { return name_; }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    TACO_RETURN_IF_ERROR(CheckRange(name_, offset, n, size()));
    if (n > 0) std::memcpy(out, bytes_->data() + offset, n);
    return Status::OK();
  }

 private:
  Bytes bytes_;
  std::string name_;
};

// Runs task(0) .. task(n-1), each in a thread of its own (inline when n == 1 or when no
// thread can be started); returns the first failure in index order.
Status RunParallel(size_t n, const std::function<Status(size_t)>& task) {
  std::vector<Status> results(n);
  std::vector<std::thread> threads;
  // The caller's thread-local GDAL options (credentials, headers) hold in the workers too.
  auto run = WithCallerGdalConfig([&results, &task](size_t i) { results[i] = task(i); });
  for (size_t i = 0; i < n; ++i) {
    if (n > 1) {
      try {
        threads.emplace_back([&run, i] { run(i); });
        continue;
      } catch (const std::system_error&) {
        // fall through: run it here
      }
    }
    results[i] = task(i);
  }
  for (std::thread& t : threads) t.join();
  for (const Status& st : results) {
    if (!st.ok()) return st;
  }
  return Status::OK();
}

// Bytes of one object and the version they belong to (`known` false: no usable validator,
// so the bytes must not be cached).
struct Versioned {
  Bytes bytes;
  HttpValidator validator;
  bool known = true;
};

// A remote directory: whole objects, fetched once and served from memory.
class RemoteFolder final : public ObjectFolder {
 public:
  RemoteFolder(const std::string& dir, bool use_cache) : use_cache_(use_cache) {
    if (auto url = PlainHttpUrl(dir)) {
      http_ = true;
      base_ = WithoutTrailingSlashes(*url);
    } else {
      base_ = WithoutTrailingSlashes(ToVsiPath(dir));
    }
    if (use_cache_) Revalidate();
  }

  std::string PathOf(const std::string& name) const override { return base_ + "/" + name; }

  Result<RangeReaderPtr> Open(const std::string& name) override {
    auto it = current_.find(name);
    if (it == current_.end()) {
      if (declared_) return Status::NotFound(PathOf(name) + ": not among the files the dataset names");
      TACO_ASSIGN_OR_RETURN(Versioned v, FetchWhole(name));
      it = current_.emplace(name, std::move(v)).first;
      fetched_ = true;
    }
    Remember(name);
    return RangeReaderPtr(std::make_shared<BytesReader>(it->second.bytes, PathOf(name)));
  }

  Status Declare(const std::vector<std::string>& names) override {
    std::vector<std::string> missing;
    for (const std::string& name : names) {
      if (current_.find(name) == current_.end()) missing.push_back(name);
    }
    std::vector<Versioned> got(missing.size());
    TACO_RETURN_IF_ERROR(RunParallel(missing.size(), [&](size_t k) -> Status {
      TACO_ASSIGN_OR_RETURN(got[k], FetchWhole(missing[k]));
      return Status::OK();
    }));
    for (size_t k = 0; k < missing.size(); ++k) current_[missing[k]] = std::move(got[k]);
    fetched_ = fetched_ || !missing.empty();
    for (const std::string& name : names) Remember(name);
    declared_ = true;
    StoreEntry();
    return Status::OK();
  }

 private:
  // Loads the cache entry and keeps the files whose live version is the cached one (ONE
  // small request per file, all in parallel).
  void Revalidate() {
    cached_ = LoadTacocatCache(base_);
    if (!cached_) return;
    std::vector<CachedFile>& files = cached_->files;
    std::vector<std::optional<HttpValidator>> live(files.size());
    (void)RunParallel(files.size(), [&](size_t i) {
      live[i] = LiveVersion(files[i].name);
      return Status::OK();
    });
    for (size_t i = 0; i < files.size(); ++i) {
      CachedFile& f = files[i];
      if (live[i] && f.parts.size() == 1 && f.parts[0].size() == live[i]->size && SameVersion(f.validator, *live[i])) {
        current_[f.name] = Versioned{std::make_shared<const std::string>(std::move(f.parts[0])), *live[i], true};
      }
    }
  }

  // The live version of one object with ONE small request (http: bytes=0-0), or nullopt
  // when it cannot be learnt (the object is then fetched, which reports any error).
  std::optional<HttpValidator> LiveVersion(const std::string& name) const {
    const std::string where = PathOf(name);
    if (!http_) return VsiValidator(where);
    auto reader = OpenHttpFile(where, where, /*prefetch=*/1);
    if (!reader.ok()) return std::nullopt;
    return (*reader)->validator();
  }

  // The whole object: one GET without Range (http), or GDAL's stat and read (VSI; with the
  // cache on, VsiValidator first, whose request replaces the stat's).
  Result<Versioned> FetchWhole(const std::string& name) const {
    const std::string where = PathOf(name);
    Versioned out;
    if (http_) {
      TACO_ASSIGN_OR_RETURN(HttpObject o, FetchHttpObjectVersioned(where, where));
      out.bytes = std::make_shared<const std::string>(std::move(o.body));
      out.validator = std::move(o.validator);
      return out;
    }
    std::optional<HttpValidator> v;
    if (use_cache_) v = VsiValidator(where);
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, OpenVsiFile(where));
    TACO_ASSIGN_OR_RETURN(std::string bytes, reader->ReadAll());
    out.known = v.has_value() && v->size == bytes.size();
    if (out.known) out.validator = std::move(*v);
    out.validator.size = bytes.size();
    out.bytes = std::make_shared<const std::string>(std::move(bytes));
    return out;
  }

  // The order objects were first read in: the order of the cache entry.
  void Remember(const std::string& name) {
    if (seen_.insert(name).second) order_.push_back(name);
  }

  void StoreEntry() const {
    if (!use_cache_) return;
    TacocatCacheEntry entry;
    entry.url = base_;
    for (const std::string& name : order_) {
      const Versioned& v = current_.at(name);
      if (!v.known) return;  // bytes of an unknown version are never cached
      entry.files.push_back(CachedFile{name, v.validator, {*v.bytes}});
    }
    if (!fetched_ && cached_ && cached_->files.size() == entry.files.size()) return;
    (void)StoreTacocatCache(entry);  // a cache that cannot be written only costs requests later
  }

  bool http_ = false;
  std::string base_;  // without trailing slash; names the objects in errors and keys the cache
  bool use_cache_;
  std::optional<TacocatCacheEntry> cached_;
  std::map<std::string, Versioned, std::less<>> current_;  // name → bytes of the live version
  std::vector<std::string> order_;
  std::set<std::string> seen_;
  bool fetched_ = false;
  bool declared_ = false;
};

}  // namespace

Result<std::unique_ptr<ObjectFolder>> OpenObjectFolder(const std::string& dir, const FolderOpenOptions& options) {
  // The one local/remote decision of the folder-shaped opens: a remote directory cannot be
  // listed, so it holds what the open declares (object_folder.h).
  if (IsRemotePath(dir)) return std::unique_ptr<ObjectFolder>(std::make_unique<RemoteFolder>(dir, options.use_cache));
  return std::unique_ptr<ObjectFolder>(std::make_unique<LocalFolder>(dir));
}

}  // namespace taco::io
