// FetchRemoteTacocatFolder() and FetchRemoteTacocatFile(): see remote_tacocat.h.
#include "read/remote_tacocat.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "format/tacocat/tacocat_header.h"
#include "io/cache.h"
#include "io/http_client.h"
#include "io/http_reader.h"
#include "io/thread_config.h"
#include "taco/io.h"
#include "util/json_text.h"

namespace taco {
namespace {

constexpr std::string_view kCollectionName = "COLLECTION.json";

std::string LevelName(int level) {
  std::string name = "level";
  name += std::to_string(level);
  name += ".parquet";
  return name;
}

// Where the metadata files of a folder-shaped dataset are: `.tacocat/` holds COLLECTION.json
// and level{i}.parquet side by side; a FOLDER dataset has its levels under METADATA/.
struct Layout {
  std::string_view level_dir;  // "" or "METADATA/"
  std::string_view what;       // for "not a …" errors
  std::string Level(int level) const { return std::string(level_dir) + LevelName(level); }
};
constexpr Layout kTacocatLayout{"", "TACOCAT"};
constexpr Layout kFolderLayout{"METADATA/", "TACO folder dataset"};

// Where a remote TACOCAT lives: a plain http(s) URL (our client) or a GDAL path (VSI).
struct Location {
  bool http = false;
  std::string base;  // without trailing slash; names the object in errors and keys the cache
  std::string Child(std::string_view name) const { return base + "/" + std::string(name); }
};

Location Locate(const std::string& path) {
  Location loc;
  if (auto url = io::PlainHttpUrl(path)) {
    loc.http = true;
    loc.base = *url;
  } else {
    loc.base = ToVsiPath(path);
  }
  while (loc.base.size() > 1 && loc.base.back() == '/') loc.base.pop_back();
  return loc;
}

// Runs task(0) .. task(n-1), each in a thread of its own (inline when n == 1 or when no
// thread can be started); returns the first failure in index order.
Status RunParallel(size_t n, const std::function<Status(size_t)>& task) {
  std::vector<Status> results(n);
  std::vector<std::thread> threads;
  // The caller's thread-local GDAL options (credentials, headers) hold in the workers too.
  auto run = io::WithCallerGdalConfig([&results, &task](size_t i) { results[i] = task(i); });
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
  std::string bytes;
  io::HttpValidator validator;
  bool known = true;
};

// The whole object: one GET without Range (http), or GDAL's stat and read (VSI; with
// `want_validator`, VsiValidator first, whose request replaces the stat's).
Result<Versioned> FetchWhole(const Location& loc, std::string_view name, bool want_validator) {
  const std::string where = loc.Child(name);
  Versioned out;
  if (loc.http) {
    TACO_ASSIGN_OR_RETURN(io::HttpObject o, io::FetchHttpObjectVersioned(where, where));
    out.bytes = std::move(o.body);
    out.validator = std::move(o.validator);
    return out;
  }
  std::optional<io::HttpValidator> v;
  if (want_validator) v = io::VsiValidator(where);
  TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, OpenVsiFile(where));
  TACO_ASSIGN_OR_RETURN(out.bytes, reader->ReadAll());
  out.known = v.has_value() && v->size == out.bytes.size();
  if (out.known) out.validator = std::move(*v);
  out.validator.size = out.bytes.size();
  return out;
}

// The live version of one object with ONE small request (http: bytes=0-0), or nullopt when
// it cannot be learnt (the caller then fetches the object, which reports any error).
std::optional<io::HttpValidator> LiveVersion(const Location& loc, std::string_view name) {
  const std::string where = loc.Child(name);
  if (!loc.http) return io::VsiValidator(where);
  auto reader = io::OpenHttpFile(where, where, /*prefetch=*/1);
  if (!reader.ok()) return std::nullopt;
  return (*reader)->validator();
}

Status NotA(const Location& loc, std::string_view what, const Status& why) {
  if (why.code() != StatusCode::kNotFound) return why;
  return Status::NotFound(loc.base + ": not a " + std::string(what) + ": " + why.message());
}

}  // namespace

Result<int> TacocatMaxDepth(const std::string& collection_json, const std::string& name) {
  TACO_ASSIGN_OR_RETURN(const nlohmann::ordered_json j, util::ParseJsonText(collection_json, name));
  if (!j.is_object()) return Status::Corruption(name + ": not a JSON object");
  const auto pit = j.find("taco:pit_schema");
  if (pit == j.end() || !pit->is_object()) return 0;
  const auto hierarchy = pit->find("hierarchy");
  if (hierarchy == pit->end() || !hierarchy->is_object()) return 0;
  int max_depth = 0;
  for (auto it = hierarchy->begin(); it != hierarchy->end(); ++it) {
    const std::string& key = it.key();
    const bool numeric = !key.empty() && key.size() <= 2 && std::all_of(key.begin(), key.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    if (!numeric) {
      return Status::Corruption(name + ": taco:pit_schema hierarchy key '" + key + "' is not a level number");
    }
    const int depth = std::stoi(key);
    if (depth > format::kTacocatMaxLevels - 1) {
      return Status::Corruption(name + ": taco:pit_schema names level " + key + " (at most 5)");
    }
    max_depth = std::max(max_depth, depth);
  }
  return max_depth;
}

namespace {

Result<RemoteLevelFiles> FetchLevelFolder(const std::string& path, bool use_cache, const Layout& layout) {
  const Location loc = Locate(path);
  const bool caching = use_cache;
  std::optional<io::TacocatCacheEntry> cached;
  if (caching) cached = io::LoadTacocatCache(loc.base);

  // name → bytes known to be the live version.
  std::map<std::string, Versioned, std::less<>> current;
  if (cached) {
    std::vector<io::CachedFile>& files = cached->files;
    std::vector<std::optional<io::HttpValidator>> live(files.size());
    (void)RunParallel(files.size(), [&](size_t i) {
      live[i] = LiveVersion(loc, files[i].name);
      return Status::OK();
    });
    for (size_t i = 0; i < files.size(); ++i) {
      io::CachedFile& f = files[i];
      if (live[i] && f.parts.size() == 1 && f.parts[0].size() == live[i]->size &&
          io::SameVersion(f.validator, *live[i])) {
        current[f.name] = Versioned{std::move(f.parts[0]), *live[i], true};
      }
    }
  }

  bool fetched = false;
  if (current.find(kCollectionName) == current.end()) {
    auto got = FetchWhole(loc, kCollectionName, caching);
    if (!got.ok()) return NotA(loc, layout.what, got.status());
    current[std::string(kCollectionName)] = std::move(*got);
    fetched = true;
  }
  const std::string collection_url = loc.Child(kCollectionName);
  TACO_ASSIGN_OR_RETURN(const int max_depth,
                        TacocatMaxDepth(current[std::string(kCollectionName)].bytes, collection_url));

  std::vector<int> missing;
  for (int i = 0; i <= max_depth; ++i) {
    if (current.find(layout.Level(i)) == current.end()) missing.push_back(i);
  }
  std::vector<Versioned> got(missing.size());
  TACO_RETURN_IF_ERROR(RunParallel(missing.size(), [&](size_t k) -> Status {
    auto level = FetchWhole(loc, layout.Level(missing[k]), caching);
    if (!level.ok()) {
      if (level.status().code() != StatusCode::kNotFound) return level.status();
      std::string msg = level.status().message();
      msg += " (taco:pit_schema in " + collection_url + " names levels 0.." + std::to_string(max_depth) + ")";
      return Status::NotFound(std::move(msg));
    }
    got[k] = std::move(*level);
    return Status::OK();
  }));
  for (size_t k = 0; k < missing.size(); ++k) current[layout.Level(missing[k])] = std::move(got[k]);
  fetched = fetched || !missing.empty();

  // The entry: COLLECTION.json, then the levels.
  io::TacocatCacheEntry entry;
  entry.url = loc.base;
  bool cacheable = true;
  auto take = [&](const std::string& name) {
    Versioned& v = current[name];
    cacheable = cacheable && v.known;
    entry.files.push_back(io::CachedFile{name, v.validator, {std::move(v.bytes)}});
  };
  take(std::string(kCollectionName));
  for (int i = 0; i <= max_depth; ++i) take(layout.Level(i));
  if (caching && cacheable && (fetched || cached->files.size() != entry.files.size())) {
    (void)io::StoreTacocatCache(entry);  // a cache that cannot be written only costs requests later
  }

  RemoteLevelFiles out;
  out.from_cache = !fetched;
  out.collection = std::move(entry.files[0].parts[0]);
  for (int i = 0; i <= max_depth; ++i) {
    out.levels.push_back(std::move(entry.files[static_cast<size_t>(i) + 1].parts[0]));
    out.level_names.push_back(loc.Child(layout.Level(i)));
  }
  return out;
}

}  // namespace

Result<RemoteLevelFiles> FetchRemoteTacocatFolder(const std::string& path, bool use_cache) {
  return FetchLevelFolder(path, use_cache, kTacocatLayout);
}

Result<RemoteLevelFiles> FetchRemoteFolderDataset(const std::string& path, bool use_cache) {
  return FetchLevelFolder(path, use_cache, kFolderLayout);
}

}  // namespace taco
