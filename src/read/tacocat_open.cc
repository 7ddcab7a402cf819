// Dataset::Open for TACOCAT: `.tacocat/` folders and `__TACOCAT__` files (FORMAT §5.1, §5.4).
#include "read/tacocat_open.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include "format/tacocat/tacocat_header.h"
#include "io/container_reader.h"
#include "read/level_files.h"
#include "read/path_safety.h"
#include "table/engine.h"
#include "table/parquet_crc.h"
#include "taco/io.h"
#include "util/env_defaults.h"
#include "util/json_text.h"

namespace taco::read {
namespace {

std::string StripTrailingSlashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

// Everything before the last '/' ("" → ".", "/x" → "/").
std::string ParentOf(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

std::string LastComponent(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool EndsWithNoCase(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && EqualsNoCase(s.substr(s.size() - suffix.size()), suffix);
}

// The level's page CRC-32s are checked first (table/parquet_crc.h; TACOCAT files have no
// other checksum), unless the dataset was opened with verify_crc = false.
Status AddLevel(Dataset::State& d, int level, RangeReaderPtr reader) {
  if (d.verify_crc) {
    Result<table::PageCrcSummary> pages = table::VerifyParquetPageCrcs(*reader);
    if (!pages.ok()) return d.Prefixed(pages.status());
  }
  const std::string n = std::to_string(level);
  if (d.level_readers.size() <= static_cast<size_t>(level)) d.level_readers.resize(static_cast<size_t>(level) + 1);
  d.level_readers[static_cast<size_t>(level)] = reader;
  std::string mounted = d.engine->Mount(std::move(reader), "level" + n + ".parquet");
  Status st = d.engine->Execute("CREATE VIEW level" + n + "_table AS SELECT * FROM read_parquet(" +
                                table::QuoteString(mounted) + ")");
  if (!st.ok()) return d.Prefixed(st);
  TACO_RETURN_IF_ERROR(CheckLevelRows(d, level));
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, d.ColumnsOf("level" + n + "_table"));
  for (std::string_view required : {"id", "type", "internal:offset", "internal:size", "internal:source_file"}) {
    if (!HasColumn(columns, required)) {
      return Status::Corruption(d.path + ": TACOCAT level" + n + " has no column '" + std::string(required) + "'");
    }
  }
  d.num_levels = std::max(d.num_levels, level + 1);
  return Status::OK();
}

Status ParseCollectionInto(Dataset::State& d, const std::string& bytes) {
  auto parsed = util::ParseJsonText(bytes, d.path + ": TACOCAT COLLECTION.json");
  if (!parsed.ok() || !parsed->is_object()) {
    d.collection = nlohmann::ordered_json::object();
    if (!parsed.ok()) return parsed.status();
    return Status::Corruption(d.path + ": TACOCAT COLLECTION.json is not a JSON object");
  }
  d.collection = std::move(*parsed);
  return Status::OK();
}

// One path for a local and a remote `__TACOCAT__` file: the reader (io/container_reader.h)
// decides how the bytes come (remote: the first 64 KiB with the opening request, then the
// level and COLLECTION.json ranges grouped by the FORMAT §6.11 gap rule, or the disk cache).
Status OpenSingleFile(Dataset::State& d, const std::string& file, bool use_cache) {
  io::ContainerOpenOptions how;
  how.read_ahead = 64 * 1024;
  how.read_ahead_cached = format::kTacocatHeaderSize;  // a cache entry is checked against the header bytes
  how.use_cache = use_cache;
  TACO_ASSIGN_OR_RETURN(io::ContainerReaderPtr reader, io::OpenContainer(file, how));
  const size_t n = static_cast<size_t>(std::min<uint64_t>(reader->size(), format::kTacocatHeaderSize));
  std::string prefix(n, '\0');
  if (n > 0) TACO_RETURN_IF_ERROR(reader->ReadAt(0, n, prefix.data()));
  TACO_ASSIGN_OR_RETURN(format::TacocatHeader header, format::ParseTacocatHeader(prefix, reader->size(), d.path));
  io::PrefetchPlan plan;
  for (uint32_t i = 0; i <= header.max_depth; ++i)
    plan.ranges.push_back({header.levels[i].offset, header.levels[i].size});
  plan.ranges.push_back({header.collection.offset, header.collection.size});
  plan.validated_prefix = format::kTacocatHeaderSize;
  TACO_RETURN_IF_ERROR(reader->Prefetch(plan));
  TACO_ASSIGN_OR_RETURN(std::string json,
                        reader->Read(header.collection.offset, static_cast<size_t>(header.collection.size)));
  TACO_RETURN_IF_ERROR(ParseCollectionInto(d, json));
  for (uint32_t i = 0; i <= header.max_depth; ++i) {
    const auto& r = header.levels[i];
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr level,
                          SubRange(reader, r.offset, r.size, d.path + "/level" + std::to_string(i) + ".parquet"));
    TACO_RETURN_IF_ERROR(AddLevel(d, static_cast<int>(i), std::move(level)));
  }
  return Status::OK();
}

// One path for a local and a remote `.tacocat/` folder (read/level_files.h; the folder
// reader of io/object_folder.h decides how its files are fetched). Index files that leave the dataset's directory
// through a symbolic link are refused, as a FOLDER dataset's are (read/path_safety.h).
Status OpenFolder(Dataset::State& d, const std::string& dir, bool use_cache) {
  LevelFileSet set;
  set.owner = d.path;
  set.dir = dir;
  set.inside_root = ParentOf(dir);
  set.what = "TACOCAT";
  set.name_dir = true;
  set.parse_collection = [&d](const std::string& bytes) { return ParseCollectionInto(d, bytes); };
  TACO_ASSIGN_OR_RETURN(LevelFiles files, ReadLevelFiles(set, use_cache));
  for (size_t i = 0; i < files.levels.size(); ++i) {
    TACO_RETURN_IF_ERROR(AddLevel(d, static_cast<int>(i), std::move(files.levels[i])));
  }
  return Status::OK();
}

}  // namespace

Status OpenTacocat(Dataset::State& state, const OpenOptions& options) {
  const std::string vsi = StripTrailingSlashes(ToVsiPath(StripTrailingSlashes(state.path)));
  std::string base;
  Status st;
  if (EqualsNoCase(LastComponent(vsi), format::kTacocatFileName)) {
    base = ParentOf(vsi);
    st = OpenSingleFile(state, vsi, options.use_cache);
  } else if (EndsWithNoCase(vsi, format::kTacocatDirName)) {
    base = ParentOf(vsi);
    st = OpenFolder(state, vsi, options.use_cache);
  } else {
    base = vsi;
    st = OpenFolder(state, vsi + "/" + std::string(format::kTacocatDirName), options.use_cache);
  }
  TACO_RETURN_IF_ERROR(st);
  std::string base_path = options.base_path;
  if (base_path.empty()) base_path = util::EnvBasePath();
  if (!base_path.empty()) base = StripTrailingSlashes(ToVsiPath(base_path));
  if (base == "/") base.clear();  // the views append "/" before the file name
  state.vsi_root = base;
  return Status::OK();
}

}  // namespace taco::read
