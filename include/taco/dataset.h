// Reading TACO datasets (ZIP, FOLDER; TACOCAT later): open, query lazily, filter, navigate.
//
// Dataset::Open reads only metadata: for a ZIP, the 157-byte TACO_HEADER (one read), the
// METADATA/level*.parquet members in place (through DuckDB, no copies) and COLLECTION.json;
// never a DATA member. For a FOLDER, COLLECTION.json and METADATA/level*.parquet.
//
// A Dataset is a lazy *view* over the opened files (FORMAT §6.3):
//  * SQL objects of the opened dataset: `levelN_table` (stored rows, padding included),
//    `levelN` (padding hidden by a literal `__TACOPAD__` prefix test, plus the computed
//    column `internal:gdal_vsi`, FORMAT §6.2), `data_raw` (= level0) and `data` (level0
//    without `internal:*` columns except `internal:gdal_vsi`).
//  * Sql(q), FilterBbox(), FilterDatetime() return a NEW Dataset whose rows are a DuckDB
//    TEMP VIEW (unique name) over the previous one; nothing is materialized until rows are
//    asked for (Data(), DataRaw(), RowCount(), Read()). In Sql(q), the table names `data`
//    and `data_raw` mean the current view (without / with internal columns), `files` its
//    FILE samples (Files()): they are rewritten as SQL identifiers (any case, quoted or
//    not, after FROM/JOIN or in a FROM list), never inside strings, comments or other
//    identifiers. `levelN` stay the stored levels.
//  * Protected columns (`internal:*`): a view returned by Sql() keeps them as the dataset
//    computed them, so that navigation, export, concat and any consumer of its
//    `internal:gdal_vsi` (GDAL, the Python package) only ever follow paths the dataset
//    computed. A query may select or drop them, filter, sort, join; a query that changes
//    one (`SELECT * REPLACE ('/etc/passwd' AS "internal:gdal_vsi")`), computes one, or
//    pairs one with another sample's `id`/`type` is refused: when the query is provably a
//    pass-through (one SELECT of plain columns and `*` over a dataset relation, checked on
//    DuckDB's parse tree) it costs nothing; otherwise every row's protected values (with its
//    id and type) must equal those of one stored row of a level the query reads, checked
//    when they are read (a join with the stored levels), and the first row that does not is
//    reported: "<dataset>: refused: the query changed the protected column(s) ...". Give
//    a changed value another name (`... AS gdal_path`) to keep it as plain data.
//  * Path safety: metadata is untrusted. Every sample path is built only from values that
//    pass the id rule (FORMAT §7.1; padding ids allowed), relative paths and TACOCAT source
//    files that stay inside the dataset (no '..', no absolute paths; over http(s) no '%',
//    '?', '#'), and byte ranges inside the ZIP; a local FOLDER/TACOCAT path must not leave
//    the dataset through a symbolic link. Anything else is refused, in SQL views
//    (`internal:gdal_vsi`) and in navigation (Read, ReadBytes, Frame): InvalidArgument
//    "<dataset>: refused: ...".
//  * Cascading filters (level > 0, FORMAT §6.7) keep the filtered child levels, so that
//    Read() of a surviving FOLDER returns only its surviving children.
//  * All views derived from one Open() share its engine and files (kept alive while any
//    view or Frame lives).
//
// Thread-safety: a Dataset, the views derived from it and their Frames may be used from
// many threads at once (tests/remote/thread_stress_test.cc: 8 threads, ZIP and FOLDER, local
// and over HTTP, under ThreadSanitizer with `make test-tsan`). Everything that reads bytes
// (ReadBytes, StreamBytes, navigation below a FOLDER once its `__meta__` is read, the GDAL
// paths) runs in parallel; SQL statements of one opened dataset (Sql, filters, Data,
// RowCount, the first Read()s, reading a `__meta__`) run one at a time, each on DuckDB's
// own worker threads. For parallel SQL, open the dataset once per thread.
#ifndef TACO_DATASET_H_
#define TACO_DATASET_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/arrow_c.h"
#include "taco/io.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco {

enum class DatasetFormat { kZip, kFolder, kTacocat, kLegacy };
// "zip", "folder", "tacocat", "legacy" (Tortilla 0.5 / TACO v1 BLOB files, taco/legacy.h).
std::string_view DatasetFormatName(DatasetFormat format);

// FORMAT §5.4 detection from the path alone plus existence checks: a local file starting
// with `#y`/`WX`, or a `.taco`/`.tortilla` name (remote) → legacy; `.tacozip`/`.zip` → ZIP;
// a path ending in `.tacocat` → TACOCAT; a directory with `.tacocat/COLLECTION.json` →
// TACOCAT; a directory with `COLLECTION.json` → FOLDER. Otherwise NotFound/InvalidArgument
// naming the path and what was looked for.
Result<DatasetFormat> DetectFormat(const std::string& path);

// ---- TACOLLECTION.json as a dataset (FORMAT §5.3) ------------------------------------------
// A path (local, /vsi…, or URL) whose last component ends in ".json" (any case) is read as a
// TACOLLECTION: Dataset::Open opens the containers its `taco:sources.files` lists (resolved
// against the JSON's directory or URL; absolute paths, '..', '\' and, over http(s), '%', '?',
// '#' are refused) as one dataset (OpenList: concat, internal:source_path per part).
bool IsTacollectionPath(const std::string& path);

struct TacollectionParts {
  std::vector<std::string> paths;  // the parts kept, in taco:sources order
  size_t total = 0;                // parts listed
  size_t skipped = 0;              // parts whose extent misses the box or the time range
};

// The parts of the TACOLLECTION at `path` whose `taco:sources.extents` meet `bbox`
// ([minx, miny, maxx, maxy], lon/lat) and `datetime` (Dataset::FilterDatetime syntax; ""
// = any time). A part extent's spatial [west, south, east, north] with west > east crosses
// the antimeridian; the box meets it when their latitudes overlap and the box's longitudes
// meet either side. Temporal [start, end] meets the range when they overlap (inclusive). A
// part without a spatial (temporal) extent is kept for any box (range). The extents are the
// parts' collection extents, computed from their centroids and times (FORMAT §4.3): routing
// is exact for filters on centroids and instants; a footprint (istac:geometry) that reaches
// into the box from a part whose centroids all lie outside it is not found.
// Errors: not JSON, no `taco:sources.files`, an unsafe file name, a bad bbox or range.
Result<TacollectionParts> RouteTacollection(const std::string& path, const std::optional<std::array<double, 4>>& bbox,
                                            const std::string& datetime = "");

struct OpenOptions {
  // Where TACOCAT finds its ZIPs: `internal:source_file` is relative to it (`taco --base-path`).
  // Empty (the default): the environment variable TACO_BASE_PATH when set, else the directory
  // that holds `.tacocat` / `__TACOCAT__`. Sample paths never leave it (path safety, see Sql()).
  std::string base_path;
  // Instrumentation hook (tests, metrics): wraps the ZIP container reader right after it is
  // opened; every read of the container (header, metadata, `__meta__`, sample bytes) then
  // goes through the returned reader. Unused for FOLDER datasets.
  std::function<RangeReaderPtr(RangeReaderPtr)> wrap_container;
  // Remote ZIP, FOLDER and TACOCAT: use and fill the disk cache of their metadata (taco/io.h
  // RemoteCacheDir()); entries are revalidated before use (`taco --no-cache`: false). Default:
  // RemoteCacheEnabled(), i.e. false when TACO_NO_CACHE is set, read when the options are made;
  // the value set here wins over the environment.
  bool use_cache = RemoteCacheEnabled();
  // ZIP (and TACOCAT parts): ReadBytes/StreamBytes, and every `__meta__` read, check the
  // member's CRC-32 from its local header; a mismatch is a Corruption error naming the
  // sample and the container. Costs one CRC pass over the bytes (README "Reliability").
  bool verify_crc = true;
  // Sample bytes are untrusted: the decoders (SampleDecoder, stats --exact) open them with
  // GDAL's self-contained drivers only (GTiff/COG, PNG, JPEG, GIF, BMP, WEBP), with no
  // side-car files and, for a local dataset, no network, so that a sample whose bytes are a
  // VRT (or another format naming files or URLs) cannot make them read outside the dataset.
  // True (`taco --allow-external-rasters`, also TACO_ALLOW_EXTERNAL_RASTERS=YES) opens any
  // format GDAL knows, references included; the network stays off for a local dataset.
  bool allow_external_rasters = false;
  // SQL sandbox (docs/reliability.md "Untrusted datasets"). Every SQL text a user gives —
  // Sql() (CLI `taco sql`, --sql, --files-sql; Python sql()), QueryRaw() and QueryArrow()
  // (Python query()) — only reads: one SELECT (WITH, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN);
  // COPY, ATTACH, INSTALL/LOAD, CREATE/DROP, SET/PRAGMA, CALL, ... are refused whatever this
  // says, so the dataset's views, macros and guard functions cannot be replaced, no setting
  // loosened, no file written, no extension installed or loaded. By default (false) SQL reads
  // only the dataset, through its own views: read_csv/read_text/read_parquet/glob of any
  // other path, local or remote, fail with an InvalidArgument naming the path and this
  // option. true: SQL may also read local files (to join a user's CSV with the metadata);
  // still no network (no httpfs) and no writes. A concat allows it only when every source
  // was opened with it.
  bool allow_external_sql = false;
};

struct ColumnInfo {
  std::string name;
  std::string type;  // PyArrow spelling, as in taco:field_schema
};

struct LevelInfo {
  int level = 0;
  uint64_t rows = 0;
  std::vector<ColumnInfo> columns;
};

struct HeaderPair {
  uint64_t offset = 0;
  uint64_t length = 0;
};

// A navigation key, resolved among the rows of one level (a view's level-0 rows, or a
// FOLDER's children). Never silently another sample:
//  * int64_t: the 0-based position N among the rows (view / __meta__ order).
//  * std::string: exactly the sample with that id. An id held by more than one row (ids
//    shared by the parts of a TACOCAT or the sources of a concat) is refused, naming how
//    many samples have it: use a position.
//  * TextKey: a key typed on a command line (ParseSampleKey): the sample with that id when
//    there is one; else, when the text is a bare number N (all digits), position N — but
//    only when no id at that level is all digits; otherwise NotFound explaining that ids
//    there are numbers and that `@N` is position N.
struct TextKey {
  std::string text;
  bool operator==(const TextKey&) const = default;
};
using SampleKey = std::variant<int64_t, std::string, TextKey>;
// Command-line keys: "@N" (N digits) → position N; a bare number "N" → TextKey (see above);
// anything else → that id (std::string).
SampleKey ParseSampleKey(const std::string& text);
std::vector<SampleKey> ParseSampleKeys(const std::vector<std::string>& texts);
// "@3", "'tile_1'", "'0007'" for messages.
std::string SampleKeyText(const SampleKey& key);

// `rows` without `internal:*` columns except `internal:gdal_vsi` (what Data() shows).
Table HideInternalColumns(const Table& rows);

class Frame;
struct LegacyInfo;

// What a key reaches (FORMAT §6.8).
struct Node {
  std::string id;
  std::string type;                       // "FILE" or "FOLDER" (as stored)
  int level = 0;                          // the level of the sample's row
  std::string gdal_path;                  // FILE: the sample's bytes; FOLDER: its `__meta__` (GDAL path)
  Table row;                              // the sample's own row (one row, all columns)
  std::shared_ptr<const Frame> children;  // FOLDER only: the rows one level deeper

  bool is_file() const { return type == "FILE"; }
};

// Rows one level below a FOLDER sample, from its `__meta__` (ZIP: one byte-range read; FOLDER:
// the `DATA/<path>/__meta__` file; TACOCAT: its consolidated level, no read, the same rows and
// ranges, the `__meta__` only where the level cannot answer: src/read/navigation.cc). When a
// cascading filter covers this level, only surviving children are kept (and current_id/parent_id
// come from the filtered level). Each row has `internal:gdal_vsi`: ZIP `/vsisubfile/<off>_<size>,
// <root>` from the `__meta__` offsets (never a ZIP's consolidated levels'), FOLDER `<folder>/<id>`
// for a FILE, `<folder>/<id>/__meta__` for a FOLDER. Padding rows are kept (the pit's positions).
class Frame {
 public:
  struct Context;
  Frame(std::shared_ptr<Context> context, int level, Table rows);
  ~Frame();

  int level() const { return level_; }
  size_t num_rows() const { return rows_.num_rows(); }
  // All columns, including `internal:*`.
  const Table& rows() const { return rows_; }
  // Without `internal:*` columns except `internal:gdal_vsi`.
  Table Data() const;
  Result<Node> Read(const SampleKey& key) const;
  // The bytes of a FILE child.
  Result<std::string> ReadBytes(const SampleKey& key) const;
  // rows() (raw) or Data() as an Arrow C stream with the types Dataset::ExportArrow gives
  // (src/read/arrow_export.cc). Uses the shared engine: not thread-safe, like Dataset.
  Status ExportArrow(bool raw, ArrowArrayStream* out) const;

 private:
  std::shared_ptr<Context> context_;
  int level_;
  Table rows_;
};

class Dataset {
 public:
  static Result<std::unique_ptr<Dataset>> Open(const std::string& path, const OpenOptions& options = {});
  // FORMAT §6.1 load(list) (src/read/concat.cc): empty → InvalidArgument; one path → Open;
  // several → each opened, then Concat(…, "intersection").
  static Result<std::unique_ptr<Dataset>> OpenList(const std::vector<std::string>& paths,
                                                   const OpenOptions& options = {});
  // FORMAT §6.10 concat (src/read/concat.cc). column_mode "intersection" | "fill_missing" |
  // "strict". Level 0 comes from each dataset's current view, levels >= 1 from the stored
  // levels (children of kept rows only). The result has its own engine (the inputs may be
  // destroyed), `internal:source_path` (each source's vsi_root), `internal:source_part` (its
  // index: one source given twice is two parts) and gdal_vsi paths; ids are not renumbered.
  static Result<std::unique_ptr<Dataset>> Concat(const std::vector<const Dataset*>& datasets,
                                                 const std::string& column_mode = "intersection");
  ~Dataset();
  Dataset(const Dataset&) = delete;
  Dataset& operator=(const Dataset&) = delete;

  DatasetFormat format() const;
  // The path as given, and its GDAL form (FORMAT §6.2: absolute local path or /vsi… path).
  const std::string& path() const;
  const std::string& vsi_root() const;
  // COLLECTION.json as stored; for a derived view, `taco:pit_schema.root.n` is this view's
  // row count (counted on first use; -1 if counting failed).
  const nlohmann::ordered_json& collection() const;
  // Legacy BLOB datasets: layout, parts and notes (taco/legacy.h); null for other formats.
  const LegacyInfo* legacy() const;
  // OpenOptions::allow_external_rasters (or TACO_ALLOW_EXTERNAL_RASTERS) when opened.
  bool allows_external_rasters() const;
  // OpenOptions::verify_crc when opened (legacy BLOB files have no CRCs: false).
  bool verifies_crc() const;
  // ZIP only: the TACO_HEADER pairs in header order (empty for other formats).
  const std::vector<HeaderPair>& header() const;
  // Number of consolidated levels stored (level0..levelN-1).
  int num_levels() const;
  // Row count and columns of a stored level (padding rows included, as stored).
  Result<LevelInfo> DescribeLevel(int level);
  // Runs SQL as is over every object of the opened dataset (`levelN_table`, `levelN`,
  // `data`, `data_raw`, and the views of derived datasets). Read statements only, in the
  // sandbox of OpenOptions::allow_external_sql (a refused statement: InvalidArgument).
  Result<Table> QueryRaw(const std::string& sql);

  // ---- lazy views ----------------------------------------------------------------------
  // The DuckDB view holding this dataset's rows (all columns).
  const std::string& view_name() const;
  // A new view: `query` with `data`/`data_raw` standing for this view (see above).
  // `data_is_raw`: `data` also means the view with every column, as in tacoreader's sql()
  // (the tacoreader-compatible Python layer uses it). One read statement, in the sandbox of
  // OpenOptions::allow_external_sql.
  Result<std::unique_ptr<Dataset>> Sql(const std::string& query, bool data_is_raw = false) const;
  // FORMAT §6.5: rows whose WKB geometry meets the closed box (exact test). geometry_col
  // "auto" = first of istac:geometry, stac:centroid, istac:centroid present at `level`.
  // level > 0 cascades to level 0 (FORMAT §6.7).
  Result<std::unique_ptr<Dataset>> FilterBbox(double min_x, double min_y, double max_x, double max_y,
                                              const std::string& geometry_col = "auto", int level = 0) const;
  // FORMAT §6.6 with the STAC API syntax: "A/B", "A", "../B" or "/B" (open start), "A/.." or
  // "A/" (open end). Each end is YYYY, YYYY-MM, YYYY-MM-DD (a whole period, UTC) or
  // YYYY-MM-DDTHH:MM[:SS[.f]][Z|±HH:MM] (an instant; naive = UTC). Rows whose time lies from
  // the start of A's period to the end of B's, inclusive (a single A: within A's period;
  // an instant: exactly it), compared as instants (times of day count). time_col "auto" =
  // istac:time_start, then stac:time_start (timestamps, dates or ISO-8601 strings).
  Result<std::unique_ptr<Dataset>> FilterDatetime(const std::string& range, const std::string& time_col = "auto",
                                                  int level = 0) const;
  // The FILE samples below this view's level-0 rows, one row each, whatever their depth
  // (one query over the stored levels, joined child→parent by internal:parent_id =
  // internal:current_id within one TACOCAT part / concat source, so ids restarting per part
  // are never mixed up; a cascading filter's surviving children only). Columns:
  //   path    the ids from level 0 down to the FILE, joined by '/' ("tile_1/mask.tif")
  //   level   the FILE's level
  //   the FILE row's own columns (id, type, extensions, internal:*), with
  //   internal:gdal_vsi its GDAL path (as the level views compute it: consolidated offsets)
  //   level0, level1, ...  STRUCTs: the ancestors' rows without internal:* (level0.split)
  // (own columns named path, level or level<k> are left out). Rows follow the level-0
  // view's order, then each FOLDER's stored child order. The result is a view like any
  // other: Sql() over it (as `data`), Data(), ... In Sql(), the table name `files` is this
  // view of the current dataset (rewritten like `data`).
  Result<std::unique_ptr<Dataset>> Files() const;
  // The rows without `internal:*` columns except `internal:gdal_vsi` (FORMAT §6.4).
  Result<Table> Data() const;
  // The rows with every column.
  Result<Table> DataRaw() const;
  Result<int64_t> RowCount() const;
  // Column names of this view.
  Result<std::vector<std::string>> Columns() const;
  // Data() (raw=false) or DataRaw() (raw=true) as an Arrow C stream (taco/arrow_c.h),
  // converted column by column by DuckDB, never row by row (src/read/arrow_export.cc). The
  // stream owns its memory: it stays valid after this Dataset and its engine are gone.
  // Types are DuckDB's Arrow types (string → utf8, binary → binary, timestamp[us], lists,
  // structs, int32/int64/float/double/bool as stored).
  Status ExportArrow(bool raw, ArrowArrayStream* out) const;
  // QueryRaw() with the result as an Arrow C stream (same types and ownership as above),
  // the same sandbox.
  Status QueryArrow(const std::string& sql, ArrowArrayStream* out);

  // ---- navigation (FORMAT §6.8) ----------------------------------------------------------
  // The level-0 sample a key names (SampleKey: position, exact id, or command-line text).
  // The first call is one query; from the second call on, a view of at most 1,000,000 rows
  // is kept in memory (one query, then about the size of its table) and lookups cost no
  // query. Safe to call from many threads.
  Result<Node> Read(const SampleKey& key) const;
  // Follows `keys` level by level (empty → InvalidArgument).
  Result<Node> ReadPath(const std::vector<SampleKey>& keys) const;
  // The bytes of a FILE sample (ZIP: one ranged read of the container; FOLDER: the file).
  Result<std::string> ReadBytes(const Node& node) const;
  // The same bytes handed to `sink` in chunks of at most 4 MiB, so that memory stays bounded
  // for samples of any size (src/read/sample_bytes.cc). The CRC-32 (ZIP) is compared after
  // the last chunk; a sink error stops the stream and is returned.
  Status StreamBytes(const Node& node, const std::function<Status(std::string_view)>& sink) const;

  // Reads ahead, in few ranged reads, the ZIP members behind `gdal_paths` (/vsisubfile/
  // ranges of this dataset's containers; other paths are ignored): members of one container
  // at most 64 KiB apart are read together, up to `max_run_bytes` per read (remote: one GET
  // per run instead of one per member). Later reads of those members — ReadBytes,
  // StreamBytes, and the `__meta__` a navigation into a FOLDER reads — are served from
  // memory, CRC-checked as usual. At most 64 MiB of read-ahead is kept (the oldest runs go
  // first). A failed read-ahead is not reported: the reads then go to the container as
  // without it. Safe to call from many threads.
  void Prefetch(const std::vector<std::string>& gdal_paths, uint64_t max_run_bytes = uint64_t{8} << 20) const;

  struct State;

 private:
  Dataset(std::shared_ptr<State> state, std::string view, std::string data_view,
          std::shared_ptr<Frame::Context> context);
  Result<std::unique_ptr<Dataset>> Derive(const std::string& select_sql, std::shared_ptr<Frame::Context> context) const;
  Result<std::unique_ptr<Dataset>> CascadeFilter(const std::string& what, const std::string& column,
                                                 const std::string& predicate_template, int level) const;
  // The SELECT behind Files() (files_view.cc).
  Result<std::string> FilesQuery() const;

  std::shared_ptr<State> state_;
  std::string view_;       // all columns
  std::string data_view_;  // internal:* hidden
  std::shared_ptr<Frame::Context> context_;
  mutable std::mutex mu_;  // guards derived_collection_ and the row cache
  mutable std::optional<nlohmann::ordered_json> derived_collection_;
  // Level-0 rows of this view kept in memory for Read() (navigation.cc): built on the second
  // Read() when the view has at most kMaxCachedRows rows, so that a lookup costs no query.
  struct RowCache;
  mutable std::shared_ptr<const RowCache> row_cache_;
  mutable int reads_before_cache_ = 0;
};

// A dataset opened for a row selection by a box and/or a time range (the one operation behind
// `taco sql/filter/export` and Python `load(path, bbox=, datetime=)`).
struct RoutedOpen {
  std::unique_ptr<Dataset> dataset;
  // Set when a TACOLLECTION was routed by `bbox` or `datetime`: the parts kept, listed and
  // skipped (RouteTacollection). Unset otherwise.
  std::optional<TacollectionParts> routing;
  // The paths given to OpenList: `paths`, or the TACOLLECTION's parts opened (bindings
  // record them to open the same dataset again in another process).
  std::vector<std::string> opened;
};

// Dataset::OpenList(paths, options), except that a single TACOLLECTION path
// (IsTacollectionPath) opens only the parts whose `taco:sources` extents meet `bbox` and
// `datetime` (RouteTacollection; both unset/empty: every part). When every part is skipped,
// the first part is opened, so that the (empty) selection the caller applies next has the
// columns of the collection. The returned dataset is NOT filtered: the caller applies the
// box and range to its rows (routing only skips parts that cannot hold a match; it is exact
// for filters on centroids and instants, see RouteTacollection).
// Errors: those of RouteTacollection and Dataset::Open/OpenList.
Result<RoutedOpen> OpenRouted(const std::vector<std::string>& paths, const std::optional<std::array<double, 4>>& bbox,
                              const std::string& datetime, const OpenOptions& options = {});

}  // namespace taco

#endif  // TACO_DATASET_H_
