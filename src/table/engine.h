// The SQL/Parquet engine of taco-cpp: one in-process DuckDB database and one connection.
//
// Contract:
//  * Thread-safety: every method may be called from many threads at once: statements are
//    serialized by an internal mutex (one DuckDB connection runs one statement at a time;
//    each statement still uses DuckDB's worker threads). Code using raw_connection() holds
//    mutex() meanwhile. Mount()/Unmount() have a lock of their own because DuckDB's worker
//    threads read mounted files concurrently; the RangeReaders must allow concurrent ReadAt()
//    (io.h guarantees it).
//  * Lifetime: a mounted path is valid until Unmount() or the Engine's destruction. A file
//    handle DuckDB already holds keeps its RangeReader alive, so Unmount() during a query is
//    safe. Mount paths are never reused within an Engine, so DuckDB can never serve cached
//    bytes of an earlier mount.
//  * No exception escapes: DuckDB errors become Status values whose message names the
//    mounted file (or the SQL, or the error label) followed by DuckDB's message.
//  * With taco/log.h at kDebug, every statement is logged with its time.
//  * No DuckDB header is included here (pimpl); only src/table/*.cc include duckdb.hpp.
//  * DuckDB type mapping of results: VARCHAR→string, BLOB→binary, BOOLEAN→bool,
//    TINYINT/SMALLINT/INTEGER→int32, UTINYINT/USMALLINT/UINTEGER/BIGINT/UBIGINT/HUGEINT→int64
//    (values outside int64 are an error), FLOAT→float, DOUBLE/DECIMAL→double,
//    TIMESTAMP (any unit), DATE (midnight) and TIMESTAMP WITH TIME ZONE (UTC instant, the
//    zone is dropped)→timestamp[us], LIST/ARRAY→list, STRUCT→struct, SQL NULL→null,
//    anything else (TIME, INTERVAL, UUID, ENUM, MAP, UNION, ...)→its text as string.
#ifndef TACO_TABLE_ENGINE_H_
#define TACO_TABLE_ENGINE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "taco/arrow_c.h"
#include "taco/io.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco::table {

struct ParquetWriteOptions {
  ParquetWriteOptions() = default;
  ParquetWriteOptions(int level, uint64_t rows_per_group, std::vector<std::pair<std::string, std::string>> kv = {})
      : zstd_level(level), row_group_size(rows_per_group), kv_metadata(std::move(kv)) {}
  int zstd_level = 3;
  uint64_t row_group_size = 65536;
  // File-level key/value metadata (e.g. GeoParquet's "geo"), written with DuckDB's KV_METADATA.
  std::vector<std::pair<std::string, std::string>> kv_metadata;
  // Content-defined data pages (parquet_writer.h); honoured by EncodeParquet only (the
  // engine's writer has no such setting).
  bool content_defined_chunking = true;
};

class Engine {
 public:
  static Result<std::unique_ptr<Engine>> Open();
  // An engine without a database whose every statement (Execute, Query, QueryArrow,
  // ParseStatements, CheckReadOnly, Sandbox, CreateTable, ToParquet, ReadParquet) returns
  // `error`: what a lazily started engine (read/lazy_engine.h) hands out when starting failed.
  static std::unique_ptr<Engine> Failed(Status error);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Makes `reader`'s bytes readable by DuckDB under the returned path
  // ("tacofs://<n>/<file_name>"), e.g. in read_parquet('<path>'). Reads go straight to
  // reader->ReadAt(): no temp files, no copies. `file_name` names the file in errors.
  std::string Mount(RangeReaderPtr reader, std::string_view file_name);
  void Unmount(const std::string& path);

  // Statements without results (CREATE VIEW ..., SET ...).
  Status Execute(const std::string& sql);
  // While set (non-empty), errors name this text instead of the SQL that failed: the
  // user's query rather than the CREATE TEMP VIEW that wraps it. See ScopedErrorLabel.
  void set_error_label(std::string label);
  std::string error_label() const;
  // The statements DuckDB's parser finds in `sql`, each as DuckDB prints it back (e.g.
  // "SELECT 2 AS b"). InvalidArgument "SQL \"<sql>\": <DuckDB's message>" when it does not
  // parse.
  Result<std::vector<std::string>> ParseStatements(const std::string& sql);
  // What SQL run on this engine may reach (issue 29, item 8). Call once, after the engine's
  // own setup (SET statements, ...): it locks DuckDB's configuration, so that no later
  // statement can SET, RESET or PRAGMA anything (a loosening or not).
  //  * allow_external_files false: DuckDB opens only mounted paths (tacofs://, Mount());
  //    any other file, directory, glob, database or extension (read_csv('/x'), read_text,
  //    glob, FROM '/x.parquet', COPY TO, ATTACH, EXPORT, INSTALL, LOAD) fails with DuckDB's
  //    Permission Error, reported with `permission_hint` appended.
  //  * true: local files may be read as DuckDB allows by default (no extension autoload or
  //    install either way: set in Open()).
  // Statement types are not restricted here: see CheckReadOnly().
  struct SandboxOptions {
    bool allow_external_files = false;
    std::string permission_hint;  // what to do instead, e.g. the opt-in that allows files
  };
  Status Sandbox(const SandboxOptions& options);
  // OK when every statement of `sql` only reads: SELECT in any form (WITH, FROM x, VALUES,
  // TABLE x, set operations, DESCRIBE, SHOW, SUMMARIZE), or EXPLAIN [ANALYZE] of one.
  // Anything else (COPY, ATTACH, DETACH, INSTALL, LOAD, CREATE, DROP, ALTER, INSERT, UPDATE,
  // DELETE, SET, RESET, PRAGMA, CALL, EXPORT, IMPORT, PIVOT statements, transactions, ...) is
  // an InvalidArgument "SQL \"<sql or error label>\": refused: <KEYWORD> statement ...",
  // without running anything. Parse errors as ParseStatements().
  Status CheckReadOnly(const std::string& sql);
  // All rows of a query, typed (mapping above); over util/memory_budget.h: NotSupported.
  Result<Table> Query(const std::string& sql);
  // All rows of a query as a self-contained Arrow C stream (table/arrow_stream.h): DuckDB's
  // own Arrow types (VARCHAR→utf8, BLOB→binary, TIMESTAMP→timestamp[us], LIST→list, ...),
  // converted now, so the stream outlives the engine. Errors as Query().
  Status QueryArrow(const std::string& sql, ArrowArrayStream* out);

  // A temporary table `name` filled from `table` with the DuckDB Appender. kNull columns
  // become INTEGER columns of nulls.
  Status CreateTable(const std::string& name, const Table& table);

  // Parquet bytes of `table` / of a query: ZSTD, all columns OPTIONAL, string → UTF8,
  // binary → BYTE_ARRAY, timestamp[us] → TIMESTAMP(isAdjustedToUTC=false, MICROS),
  // 3-level LISTs, structs as groups. Written through an in-memory file (no temp files).
  Result<std::string> ToParquet(const Table& table, const ParquetWriteOptions& opts = {});
  Result<std::string> QueryToParquet(const std::string& sql, const ParquetWriteOptions& opts = {});

  // Convenience: a whole Parquet file from `reader` (errors name reader->name()); more than
  // `max_rows` rows is a Corruption error, found without decoding more than max_rows + 1.
  Result<Table> ReadParquet(RangeReaderPtr reader, uint64_t max_rows = 1'000'000'000);

  // Escape hatch for other files of src/table (scalar functions, ...): a duckdb::DuckDB*
  // and a duckdb::Connection*. Never use outside src/table.
  void* raw_database();
  void* raw_connection();
  // Held by the engine during every statement; hold it while using raw_connection().
  std::recursive_mutex& mutex();

  struct Impl;

 private:
  explicit Engine(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Sets an Engine's error label for its lifetime (restores the previous one).
class ScopedErrorLabel {
 public:
  ScopedErrorLabel(Engine& engine, std::string label) : engine_(engine), previous_(engine.error_label()) {
    engine_.set_error_label(std::move(label));
  }
  ~ScopedErrorLabel() { engine_.set_error_label(std::move(previous_)); }
  ScopedErrorLabel(const ScopedErrorLabel&) = delete;
  ScopedErrorLabel& operator=(const ScopedErrorLabel&) = delete;

 private:
  Engine& engine_;
  std::string previous_;
};
// A DuckDB error whose message contains this marker (thrown by the guard functions of
// guard_functions.h, or error('taco-refused: ...') in SQL) becomes the InvalidArgument Status
// holding the text after the marker alone: a refusal explains itself, without the SQL.
inline constexpr std::string_view kRefusalMarker = "taco-refused: ";

// How many engines Engine::Open() has opened in this process (tests of laziness read it
// through taco/diagnostics.h EnginesStarted()).
uint64_t EnginesOpened();

// SQL identifier in double quotes, inner quotes doubled: a"b → "a""b".
std::string QuoteIdentifier(std::string_view name);
// SQL string literal in single quotes, inner quotes doubled: it's → 'it''s'.
std::string QuoteString(std::string_view text);

}  // namespace taco::table

#endif  // TACO_TABLE_ENGINE_H_
