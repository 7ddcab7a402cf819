// Dataset::Open for ZIP and FOLDER datasets (metadata only, read in place), the accessors,
// and the State helpers.
#include "taco/dataset.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

#include "format/folder/folder_layout.h"
#include "format/zip/stored_member.h"
#include "format/zip/taco_header.h"
#include "gdal/sample_raster.h"
#include "io/container_reader.h"
#include "io/location.h"
#include "read/dataset_state.h"
#include "read/legacy_open.h"
#include "read/level_files.h"
#include "read/path_safety.h"
#include "read/tacocat_open.h"
#include "read/user_sql.h"
#include "table/engine.h"
#include "table/parquet_crc.h"
#include "table/parquet_footer.h"
#include "table/wkb_functions.h"
#include "taco/io.h"
#include "taco/log.h"
#include "util/exception_guard.h"
#include "util/json_text.h"
#include "util/limits.h"

namespace taco {

// Limits from the spec: at most 6 levels (level0..level5).
static constexpr int kMaxLevels = 6;

std::string Dataset::State::NewName(std::string_view prefix) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "%08llx", static_cast<unsigned long long>(next_name++));
  return std::string(prefix) + "_" + hex;
}

Result<std::vector<Column>> Dataset::State::ColumnsOf(const std::string& relation) {
  auto result = engine->Query("SELECT * FROM " + relation + " LIMIT 0");
  if (!result.ok()) return Prefixed(result.status());
  return std::move(result->columns);
}

bool Dataset::State::RootDecodesUrlEscapes() const {
  // The one question of the opened dataset's location the views, the guards and the
  // engine-free reader share (dataset_state.h).
  return io::Location::Of(vsi_root).decodes_url_escapes();
}

Status Dataset::State::CheckLevel(int level) const {
  if (level >= 0 && level < num_levels) return Status::OK();
  return Status::NotFound(path + ": Level " + std::to_string(level) + " does not exist (levels 0.." +
                          std::to_string(num_levels - 1) + ")");
}

namespace {}  // namespace

namespace {

Status TooManyRows(const Dataset::State& d, int level, const std::string& rows) {
  return Status::Corruption(d.path + ": METADATA/level" + std::to_string(level) + ".parquet claims " + rows +
                            " rows, more than the " + std::to_string(util::kMaxLevelRows) + " allowed");
}

}  // namespace

// util/limits.h: the rows a level's Parquet footer claims (count(*) is answered from the
// footer, no row is read), so that no later query tries to materialize 10^12 rows.
Status CheckLevelRows(Dataset::State& d, int level) {
  auto count = d.engine->Query("SELECT count(*) FROM level" + std::to_string(level) + "_table");
  if (!count.ok()) return d.Prefixed(count.status());
  const Value& v = count->columns.at(0).values.at(0);
  const int64_t rows = v.is<int64_t>() ? v.get<int64_t>() : 0;
  if (rows >= 0 && static_cast<uint64_t>(rows) <= util::kMaxLevelRows) return Status::OK();
  return TooManyRows(d, level, std::to_string(rows));
}

namespace {

// `verify_pages`: check the page CRC-32s the file stores first (table/parquet_crc.h); for
// files no other checksum covers (a local ZIP's members are checked as members instead).
Status AddLevel(Dataset::State& d, int level, RangeReaderPtr reader, bool verify_pages, std::string tail = {}) {
  if (verify_pages && d.verify_crc) {
    Result<table::PageCrcSummary> pages = table::VerifyParquetPageCrcs(*reader);
    if (!pages.ok()) return pages.status();
  }
  const size_t at = static_cast<size_t>(level);
  if (d.level_readers.size() <= at) d.level_readers.resize(at + 1);
  if (d.level_footers.size() <= at) d.level_footers.resize(at + 1);
  // The footer without the engine: the row limit is checked now, the views come later.
  // `tail`: the file's last bytes when the caller already read them (no second read).
  TACO_ASSIGN_OR_RETURN(d.level_footers[at], table::ReadParquetFooter(*reader, "id", std::move(tail)));
  const auto& footer = d.level_footers[at];
  if (footer && footer->rows > util::kMaxLevelRows) return TooManyRows(d, level, std::to_string(footer->rows));
  d.level_readers[at] = std::move(reader);
  d.num_levels = std::max(d.num_levels, level + 1);
  return Status::OK();
}

// The engine setup of a ZIP or FOLDER dataset, deferred to its first statement: the level
// tables over the readers AddLevel kept.
Status MountLevels(Dataset::State& d) {
  for (int level = 0; level < d.num_levels; ++level) {
    const size_t at = static_cast<size_t>(level);
    std::string mounted = d.engine->Mount(d.level_readers.at(at), "level" + std::to_string(level) + ".parquet");
    Status st = d.engine->Execute("CREATE VIEW level" + std::to_string(level) +
                                  "_table AS SELECT * FROM read_parquet(" + table::QuoteString(mounted) + ")");
    if (!st.ok()) return st;
    if (!d.level_footers[at]) TACO_RETURN_IF_ERROR(CheckLevelRows(d, level));
  }
  return Status::OK();
}

// True when the engine may start later: every level footer was understood and names the
// columns the level views select (`id`, `type`). Else the engine starts while opening, so
// that a file only DuckDB can judge fails the open as it always did.
bool CanDeferEngine(const Dataset::State& d) {
  if (d.num_levels == 0 || d.level_footers.size() != static_cast<size_t>(d.num_levels)) return false;
  for (const auto& footer : d.level_footers) {
    if (!footer || !footer->has_column("id") || !footer->has_column("type")) return false;
  }
  return true;
}

Result<nlohmann::ordered_json> ParseCollection(const std::string& bytes, const std::string& where) {
  TACO_ASSIGN_OR_RETURN(nlohmann::ordered_json j, util::ParseJsonText(bytes, where + ": COLLECTION.json"));
  if (!j.is_object()) return Status::Corruption(where + ": COLLECTION.json is not a JSON object");
  return j;
}

// Checks that the header lists level0..levelN plus COLLECTION.json (1..7 entries) and keeps
// its pairs in d.header.
Status AdoptHeader(Dataset::State& d, const zip::TacoHeader& header) {
  if (header.entries.empty()) return Status::Corruption(d.path + ": TACO_HEADER lists no metadata (count is 0)");
  if (header.entries.size() - 1 > static_cast<size_t>(kMaxLevels)) {
    return Status::Corruption(d.path + ": TACO_HEADER lists more than 6 levels");
  }
  for (const auto& e : header.entries) d.header.push_back({e.offset, e.length});
  return Status::OK();
}

// One path for local and remote ZIPs: the reader (io/container_reader.h) decides how the
// bytes come (local: pread; remote: the first 16 KiB with the opening request, then the
// metadata members grouped by the FORMAT §6.11 gap rule, one request per group, or the disk
// cache). A member is checked against its local header and CRC-32 where the reader holds
// those bytes (a local file always; a remote one when they came with the open's requests);
// a level whose header would cost a request has its Parquet page CRCs checked instead.
Status OpenZip(Dataset::State& d, const OpenOptions& options) {
  io::ContainerOpenOptions how;
  how.read_ahead = 16 * 1024;
  how.read_ahead_cached = zip::kTacoHeaderSize;  // a cache entry is checked against the header bytes
  how.use_cache = options.use_cache;
  TACO_ASSIGN_OR_RETURN(io::ContainerReaderPtr container, io::OpenContainer(d.path, how));
  d.container = options.wrap_container ? options.wrap_container(container) : container;
  // Exactly the header's bytes: a longer prefix would touch the first DATA member.
  const size_t n = static_cast<size_t>(std::min<uint64_t>(d.container->size(), zip::kTacoHeaderSize));
  std::string prefix(n, '\0');
  if (n > 0) TACO_RETURN_IF_ERROR(d.container->ReadAt(0, n, prefix.data()));
  TACO_ASSIGN_OR_RETURN(zip::TacoHeader header, zip::ParseTacoHeader(prefix, d.container->size(), d.path));
  if (header.variant == zip::HeaderVariant::kTacoHeader && d.verify_crc) {  // TACO_GHOST files may store CRC 0
    const size_t data = zip::kTacoHeaderSize - zip::kTacoHeaderPayloadSize;
    const std::string what = d.path + ": TACO_HEADER";
    TACO_ASSIGN_OR_RETURN(zip::LocalHeaderInfo info, zip::FindLocalHeader(std::string_view(prefix).substr(0, data),
                                                                          zip::kTacoHeaderPayloadSize, {}, what));
    zip::MemberCheck check(info, what);
    check.Update(std::string_view(prefix).substr(data));
    TACO_RETURN_IF_ERROR(check.Finish());
  }
  TACO_RETURN_IF_ERROR(AdoptHeader(d, header));
  io::PrefetchPlan plan;  // every metadata member
  for (const auto& e : header.entries) plan.ranges.push_back({e.offset, e.length});
  plan.validated_prefix = zip::kTacoHeaderSize;
  plan.max_bytes = util::kMaxRemoteMetadataBytes;
  plan.what = "the TACO_HEADER lists";
  TACO_RETURN_IF_ERROR(container->Prefetch(plan));

  // Each metadata member must be the one the header names, with its CRC-32 (issue 29.5).
  // The bytes ReadVerifiedMember / VerifyMember read around a member, free or not.
  auto checkable = [&](const zip::HeaderEntry& e) {
    const uint64_t from = e.offset - std::min<uint64_t>(e.offset, zip::kLocalHeaderWindow);
    return container->Holds(from, e.offset + e.length + zip::kDataDescriptorMax - from);
  };
  const auto& last = header.entries.back();
  std::string json_bytes;
  if (checkable(last)) {
    TACO_ASSIGN_OR_RETURN(json_bytes, zip::ReadVerifiedMember(
                                          *d.container, last.offset, last.length, d.path + ": COLLECTION.json",
                                          zip::MemberName::Exact(std::string(format::kCollectionFile)), d.verify_crc));
  } else {
    TACO_ASSIGN_OR_RETURN(json_bytes, d.container->Read(last.offset, static_cast<size_t>(last.length)));
  }
  TACO_ASSIGN_OR_RETURN(d.collection, ParseCollection(json_bytes, d.path));

  for (size_t i = 0; i + 1 < header.entries.size(); ++i) {
    const auto& e = header.entries[i];
    const std::string member = format::LevelFile(static_cast<int>(i));
    std::string name = d.path + "/" + member;
    const bool member_checked = checkable(e);
    // The CRC pass keeps the member's end: its Parquet footer costs no read of its own.
    std::string tail;
    if (member_checked) {
      TACO_RETURN_IF_ERROR(zip::VerifyMember(*d.container, e.offset, e.length, d.path + ": " + member,
                                             zip::MemberName::Exact(member), d.verify_crc,
                                             table::kParquetFooterTailBytes, &tail));
    }
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr member_reader, SubRange(d.container, e.offset, e.length, name));
    TACO_RETURN_IF_ERROR(AddLevel(d, static_cast<int>(i), std::move(member_reader), !member_checked, std::move(tail)));
  }
  return Status::OK();
}

// One path for local and remote FOLDER datasets (read/level_files.h; io/object_folder.h
// decides how the files are fetched): symbolic links out of the dataset are refused, as for
// the sample files.
Status OpenFolder(Dataset::State& d, const OpenOptions& options) {
  read::LevelFileSet set;
  set.owner = d.path;
  set.dir = d.vsi_root;
  set.level_dir = "METADATA/";
  set.inside_root = d.vsi_root;
  set.what = "TACO folder dataset";
  set.check_collection_size = true;
  set.parse_collection = [&d](const std::string& bytes) -> Status {
    TACO_ASSIGN_OR_RETURN(d.collection, ParseCollection(bytes, d.path));
    return Status::OK();
  };
  TACO_ASSIGN_OR_RETURN(read::LevelFiles files, read::ReadLevelFiles(set, options.use_cache));
  for (size_t i = 0; i < files.levels.size(); ++i) {
    TACO_RETURN_IF_ERROR(AddLevel(d, static_cast<int>(i), std::move(files.levels[i]), true));
  }
  return Status::OK();
}

}  // namespace

Dataset::Dataset(std::shared_ptr<State> state, std::string view, std::string data_view,
                 std::shared_ptr<Frame::Context> context)
    : state_(std::move(state)),
      view_(std::move(view)),
      data_view_(std::move(data_view)),
      context_(std::move(context)) {}
Dataset::~Dataset() = default;

Result<std::unique_ptr<Dataset>> Dataset::Open(const std::string& given, const OpenOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  // A directory given with trailing '/' ("http://host/ds/", "cat/.tacocat/") is the same
  // dataset without them: every path below is built as "<root>/<name>", never with "//".
  std::string path = given;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  // The library boundary: nothing a dependency throws escapes (util/exception_guard.h).
  return util::GuardExceptions(path, [&]() -> Result<std::unique_ptr<Dataset>> {
    if (IsTacollectionPath(path)) {
      TACO_ASSIGN_OR_RETURN(TacollectionParts parts, RouteTacollection(path, std::nullopt));
      Log(LogLevel::kVerbose, "opening " + path + " as a TACOLLECTION of " + std::to_string(parts.total) + " parts");
      return OpenList(parts.paths, options);
    }
    TACO_ASSIGN_OR_RETURN(DatasetFormat format, DetectFormat(path));
    Log(LogLevel::kVerbose, "opening " + path + " as " + std::string(DatasetFormatName(format)));
    auto state = std::make_shared<State>();
    state->format = format;
    state->layout = &format::Container::For(format);
    state->path = path;
    state->vsi_root = ToVsiPath(path);
    // Legacy BLOB files store their samples without ZIP local headers: no CRC to check.
    state->verify_crc = options.verify_crc && state->layout->samples_have_crc();
    state->allow_external_rasters = options.allow_external_rasters || ext::internal::ExternalRastersAllowedByConfig();
    state->allow_external_sql = options.allow_external_sql;
    // What starting the engine does first. Date filters reduce instants to UTC calendar dates
    // (FORMAT §6.6), whatever the local zone; the sandbox comes before any view exists, so
    // the dataset's own files are read through it too.
    auto prepare = [allow = options.allow_external_sql](table::Engine& engine) -> Status {
      TACO_RETURN_IF_ERROR(engine.Execute("SET TimeZone = 'UTC'"));
      return read::SandboxUserSql(engine, allow);
    };
    // Then the functions and views over the levels the format's Open found.
    Dataset::State* raw = state.get();  // the engine is a member of *raw: it never outlives it
    auto finish = [raw]() -> Status {
      TACO_RETURN_IF_ERROR(table::RegisterWkbFunctions(*raw->engine));
      TACO_RETURN_IF_ERROR(read::RegisterPathGuards(*raw->engine, raw->path));
      return CreateLevelViews(*raw);
    };
    const bool deferrable = format::Container::For(format).levels_are_stored_parquets();
    if (deferrable) {
      state->engine.set_setup([prepare, finish, raw](table::Engine& engine) -> Status {
        TACO_RETURN_IF_ERROR(prepare(engine));
        TACO_RETURN_IF_ERROR(MountLevels(*raw));
        return finish();
      });
    } else {  // TACOCAT and legacy datasets build their levels with the engine
      state->engine.set_setup(prepare);
      TACO_RETURN_IF_ERROR(state->engine.Start());
    }
    // The one place that picks a container's open code (local and remote alike: io/container_reader.h).
    switch (format) {
      case DatasetFormat::kZip:
        TACO_RETURN_IF_ERROR(OpenZip(*state, options));
        state->containers[state->vsi_root] = state->container;
        break;
      case DatasetFormat::kFolder: TACO_RETURN_IF_ERROR(OpenFolder(*state, options)); break;
      case DatasetFormat::kTacocat: TACO_RETURN_IF_ERROR(read::OpenTacocat(*state, options)); break;
      case DatasetFormat::kLegacy: TACO_RETURN_IF_ERROR(read::OpenLegacy(*state, options)); break;
    }
    state->roots = {state->vsi_root};  // TACOCAT: the base directory set by OpenTacocat
    if (!deferrable) {
      TACO_RETURN_IF_ERROR(finish());
    } else if (!CanDeferEngine(*state)) {
      TACO_RETURN_IF_ERROR(state->engine.Start());
    }
    auto context = std::make_shared<Frame::Context>();
    context->state = state;
    Log(LogLevel::kVerbose, "opened " + path + ": " + std::string(DatasetFormatName(format)) + ", " +
                                std::to_string(state->num_levels) + (state->num_levels == 1 ? " level" : " levels") +
                                ", " + ElapsedText(start));
    return std::unique_ptr<Dataset>(new Dataset(state, "data_raw", "data", std::move(context)));
  });
}

DatasetFormat Dataset::format() const { return state_->format; }
const std::string& Dataset::path() const { return state_->path; }
const std::string& Dataset::vsi_root() const { return state_->vsi_root; }
const std::vector<HeaderPair>& Dataset::header() const { return state_->header; }
const LegacyInfo* Dataset::legacy() const { return state_->legacy.get(); }
int Dataset::num_levels() const { return state_->num_levels; }
bool Dataset::allows_external_rasters() const { return state_->allow_external_rasters; }
bool Dataset::verifies_crc() const { return state_->verify_crc; }
const std::string& Dataset::view_name() const { return view_; }

const nlohmann::ordered_json& Dataset::collection() const {
  if (view_ == "data_raw") return state_->collection;
  std::lock_guard<std::mutex> lock(mu_);  // computed once, whichever thread asks first
  if (!derived_collection_) {
    nlohmann::ordered_json c = state_->collection;
    auto count = RowCount();
    if (c.contains("taco:pit_schema") && c["taco:pit_schema"].is_object() && c["taco:pit_schema"].contains("root") &&
        c["taco:pit_schema"]["root"].is_object()) {
      c["taco:pit_schema"]["root"]["n"] = count.ok() ? *count : -1;
    }
    derived_collection_ = std::move(c);
  }
  return *derived_collection_;
}

Result<LevelInfo> Dataset::DescribeLevel(int level) {
  if (level < 0 || level >= state_->num_levels) {
    return Status::NotFound(state_->path + ": level " + std::to_string(level) + " does not exist (levels 0.." +
                            std::to_string(state_->num_levels - 1) + ")");
  }
  LevelInfo info;
  info.level = level;
  // The footer read while opening, when it names every column's type as the engine would:
  // `taco info` without the engine (issue 28).
  const size_t at = static_cast<size_t>(level);
  if (at < state_->level_footers.size() && state_->level_footers[at] && state_->level_footers[at]->schema) {
    const table::ParquetFooterFacts& footer = *state_->level_footers[at];
    info.rows = footer.rows;
    for (const auto& col : *footer.schema) info.columns.push_back({col.name, col.type.ToString()});
    return info;
  }
  const std::string table = "level" + std::to_string(level) + "_table";
  TACO_ASSIGN_OR_RETURN(Table schema, state_->engine->Query("SELECT * FROM " + table + " LIMIT 0"));
  TACO_ASSIGN_OR_RETURN(Table count, state_->engine->Query("SELECT count(*) FROM " + table));
  info.rows = static_cast<uint64_t>(count.columns.at(0).values.at(0).get<int64_t>());
  for (const auto& col : schema.columns) info.columns.push_back({col.name, col.type.ToString()});
  return info;
}

Result<Table> Dataset::QueryRaw(const std::string& sql) {
  TACO_RETURN_IF_ERROR(state_->engine->CheckReadOnly(sql));
  return state_->engine->Query(sql);
}

}  // namespace taco
