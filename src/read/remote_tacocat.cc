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
#include "format/zip/taco_header.h"
#include "io/cache.h"
#include "io/http_client.h"
#include "io/http_reader.h"
#include "io/thread_config.h"
#include "read/remote_zip.h"
#include "taco/io.h"
#include "util/json_text.h"

namespace taco {
namespace {

constexpr uint64_t kFilePrefetch = 64 * 1024;
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

// ---- `__TACOCAT__` ----------------------------------------------------------------------

// Every level range (0..max_depth) then the COLLECTION.json range, as header entries.
std::vector<zip::HeaderEntry> Ranges(const format::TacocatHeader& header) {
  std::vector<zip::HeaderEntry> ranges;
  for (uint32_t i = 0; i <= header.max_depth; ++i) ranges.push_back({header.levels[i].offset, header.levels[i].size});
  ranges.push_back({header.collection.offset, header.collection.size});
  return ranges;
}

// The bytes of every range: those inside `prefix` from it, the others grouped by the §6.11
// gap rule and read one request per group, all groups in parallel.
Result<std::vector<std::string>> FetchRanges(const RangeReader& reader, const std::vector<zip::HeaderEntry>& ranges,
                                             const std::string& prefix) {
  std::vector<std::string> parts(ranges.size());
  std::vector<zip::HeaderEntry> to_fetch = ranges;
  for (size_t i = 0; i < ranges.size(); ++i) {
    const auto& r = ranges[i];
    if (r.offset + r.length <= prefix.size()) {
      parts[i] = prefix.substr(static_cast<size_t>(r.offset), static_cast<size_t>(r.length));
      to_fetch[i].length = 0;  // GroupHeaderEntries skips it
    }
  }
  const std::vector<std::vector<size_t>> groups = GroupHeaderEntries(to_fetch);
  TACO_RETURN_IF_ERROR(RunParallel(groups.size(), [&](size_t g) -> Status {
    const auto& first = ranges[groups[g].front()];
    const auto& last = ranges[groups[g].back()];
    const uint64_t span = last.offset + last.length - first.offset;
    TACO_ASSIGN_OR_RETURN(std::string bytes, reader.Read(first.offset, static_cast<size_t>(span)));
    for (size_t i : groups[g]) {
      parts[i] =
          bytes.substr(static_cast<size_t>(ranges[i].offset - first.offset), static_cast<size_t>(ranges[i].length));
    }
    return Status::OK();
  }));
  return parts;
}

// Whether a cached `__TACOCAT__` (parts: header, levels, collection) fits `header`.
bool PartsFit(const io::CachedFile& file, const format::TacocatHeader& header) {
  const std::vector<zip::HeaderEntry> ranges = Ranges(header);
  if (file.parts.size() != ranges.size() + 1) return false;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (file.parts[i + 1].size() != ranges[i].length) return false;
  }
  return true;
}

RemoteLevelFiles FromParts(const Location& loc, std::vector<std::string> parts, bool from_cache) {
  // parts: header, level0..levelN, collection
  RemoteLevelFiles out;
  out.from_cache = from_cache;
  out.collection = std::move(parts.back());
  for (size_t i = 1; i + 1 < parts.size(); ++i) {
    out.levels.push_back(std::move(parts[i]));
    out.level_names.push_back(loc.Child(LevelName(static_cast<int>(i - 1))));
  }
  return out;
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

Result<RemoteLevelFiles> FetchRemoteTacocatFile(const std::string& path, bool use_cache) {
  const Location loc = Locate(path);
  const bool caching = use_cache;
  std::optional<io::TacocatCacheEntry> cached;
  if (caching) cached = io::LoadTacocatCache(loc.base);
  io::CachedFile* hit = nullptr;
  if (cached && cached->files.size() == 1 && cached->files[0].name == format::kTacocatFileName &&
      !cached->files[0].parts.empty() && cached->files[0].parts[0].size() == format::kTacocatHeaderSize) {
    hit = &cached->files[0];
  }

  RangeReaderPtr reader;
  std::string prefix;
  std::optional<io::HttpValidator> live;
  if (loc.http) {
    const uint64_t prefetch = hit != nullptr ? format::kTacocatHeaderSize : kFilePrefetch;
    TACO_ASSIGN_OR_RETURN(auto http, io::OpenHttpFile(loc.base, loc.base, prefetch));
    live = http->validator();
    prefix = http->prefix();
    reader = std::move(http);
  } else {
    if (caching) live = io::VsiValidator(loc.base);
    TACO_ASSIGN_OR_RETURN(reader, OpenVsiFile(loc.base));
    if (hit != nullptr && live && io::SameVersion(hit->validator, *live)) {
      // The validator request was the only one: the header comes from the cache.
      auto header = format::ParseTacocatHeader(hit->parts[0], reader->size(), loc.base);
      if (header.ok() && PartsFit(*hit, *header)) return FromParts(loc, std::move(hit->parts), /*from_cache=*/true);
    }
    const size_t n = static_cast<size_t>(std::min<uint64_t>(reader->size(), format::kTacocatHeaderSize));
    TACO_ASSIGN_OR_RETURN(prefix, reader->Read(0, n));
  }
  TACO_ASSIGN_OR_RETURN(format::TacocatHeader header, format::ParseTacocatHeader(prefix, reader->size(), loc.base));
  const std::string header_bytes = prefix.substr(0, format::kTacocatHeaderSize);
  if (loc.http && hit != nullptr && io::SameVersion(hit->validator, *live) && hit->parts[0] == header_bytes &&
      PartsFit(*hit, header)) {
    return FromParts(loc, std::move(hit->parts), /*from_cache=*/true);
  }

  TACO_ASSIGN_OR_RETURN(std::vector<std::string> ranges, FetchRanges(*reader, Ranges(header), prefix));
  std::vector<std::string> parts;
  parts.reserve(ranges.size() + 1);
  parts.push_back(header_bytes);
  for (std::string& r : ranges) parts.push_back(std::move(r));
  if (caching && live && live->size == reader->size()) {
    io::TacocatCacheEntry entry;
    entry.url = loc.base;
    entry.files.push_back(io::CachedFile{std::string(format::kTacocatFileName), *live, parts});
    (void)io::StoreTacocatCache(entry);  // a cache that cannot be written only costs requests later
  }
  return FromParts(loc, std::move(parts), /*from_cache=*/false);
}

}  // namespace taco
