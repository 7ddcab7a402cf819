/* The stable C ABI of taco-cpp (libtaco.so): read, query, navigate, write and check TACO
 * datasets from any language that can call C (R, Julia, MATLAB, Go, ...).
 *
 * C99, self-contained: this header includes only <stddef.h> and <stdint.h>. No C++ type or
 * exception crosses it; every failure is a status code.
 *
 * Errors. Every fallible function returns a taco_status (TACO_OK = 0) and takes a last
 * parameter `taco_error** error`. On failure, when `error` is not NULL, *error receives a new
 * error object owned by the caller (read it with taco_error_code/taco_error_message, free it
 * with taco_error_free); on success *error is left untouched. Errors are per call, never
 * global: concurrent calls on different threads each get their own. Messages read
 * "<input>: <what is wrong>" (the same text the `taco` CLI prints after "taco: ").
 *
 * Ownership. Objects returned through an out-parameter (taco_dataset, taco_node, taco_frame,
 * taco_error, strings) belong to the caller, who frees each exactly once with its _free
 * function (NULL is accepted by every _free). A derived object (a view made by sql or a
 * filter, a node, a frame) does not need its parent to stay alive: it shares the opened
 * files and frees them with the last object that uses them. Strings returned as `char**`
 * are UTF-8, NUL-terminated, freed with taco_string_free. Inputs (`const char*`) are UTF-8
 * and only read during the call.
 *
 * Thread-safety. Every function may be called from any thread. A taco_dataset and all
 * objects derived from one open may be used from many threads at once: byte reads
 * (taco_node_read_bytes, taco_node_stream_bytes) run in parallel; SQL work of one opened
 * dataset (sql, filters, row counts, Arrow streams, the first navigation) runs one statement
 * at a time. For parallel SQL, open the dataset once per thread. An ArrowArrayStream is
 * used by one thread at a time (Arrow's rule).
 *
 * ABI. The soname is libtaco.so.1 and every exported symbol starts with `taco_`. Symbols
 * are only ever added within one soname; option structs start with `struct_size`, so that a
 * library reads only the fields a caller compiled with (initialize them with their _init).
 */
#ifndef TACO_TACO_H_
#define TACO_TACO_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libtaco is compiled with hidden visibility; the functions declared here are its only
 * exports (TACO_C_BUILDING is defined while building it, never by a consumer). */
#if defined(TACO_C_BUILDING) && defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ---- Arrow C data and stream interface (Apache Arrow's stable ABI) ----------------------
 * The layouts and include guards prescribed by the Arrow specification, so that this header
 * coexists with any other definition (nanoarrow, Arrow C++, DuckDB). Whoever receives a
 * struct with a non-NULL `release` owns it and calls `release` exactly once. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};
struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};
#endif /* ARROW_C_DATA_INTERFACE */
#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE
struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};
#endif /* ARROW_C_STREAM_INTERFACE */

/* ---- status and errors ------------------------------------------------------------------ */
typedef enum taco_status {
  TACO_OK = 0,
  TACO_INVALID_ARGUMENT = 1, /* bad usage, or a value that breaks a rule */
  TACO_NOT_FOUND = 2,        /* a file, member, column, level or sample that does not exist */
  TACO_CORRUPTION = 3,       /* malformed bytes (bad magic, CRC mismatch, bad Parquet/JSON) */
  TACO_IO_ERROR = 4,         /* the operating system or the network failed */
  TACO_NOT_SUPPORTED = 5,    /* a valid input this build cannot handle */
  TACO_ALREADY_EXISTS = 6,   /* an output path that must not exist */
  TACO_INTERNAL = 7          /* a bug in taco-cpp (an invariant, or an unexpected exception) */
} taco_status;

typedef struct taco_error taco_error;

/* "ok", "invalid argument", "not found", ... (static storage; "unknown" for other values). */
const char* taco_status_name(taco_status status);
/* The code and message of an error (the message lives as long as the error). NULL error:
 * TACO_OK and "". */
taco_status taco_error_code(const taco_error* error);
const char* taco_error_message(const taco_error* error);
void taco_error_free(taco_error* error);
/* Frees a string returned by this library. */
void taco_string_free(char* text);

/* ---- versions and logging ---------------------------------------------------------------- */
/* Library version ("0.1.0"), the TACO spec version written ("2.0.0"), and the ABI version
 * (the soname's number, 1). Static storage. */
const char* taco_version(void);
const char* taco_spec_version(void);
int taco_abi_version(void);

/* What the library reports of its work (the CLI's -v / --debug): TACO_LOG_OFF (default),
 * TACO_LOG_VERBOSE (files opened, HTTP requests, cache hits, outputs written), TACO_LOG_DEBUG
 * (also every read and SQL statement). Process-wide; thread-safe. Other values: invalid
 * argument. */
#define TACO_LOG_OFF 0
#define TACO_LOG_VERBOSE 1
#define TACO_LOG_DEBUG 2
taco_status taco_set_log_level(int level, taco_error** error);
int taco_get_log_level(void);
/* Lines go to `callback(user_data, level, line)` (line without newline, valid during the
 * call) instead of stderr; NULL restores stderr. Called from any thread that logs, one line
 * at a time under a lock: the callback must not call taco_set_log_callback. Process-wide. */
typedef void (*taco_log_callback)(void* user_data, int level, const char* line);
void taco_set_log_callback(taco_log_callback callback, void* user_data);

/* ---- opening ----------------------------------------------------------------------------- */
typedef struct taco_dataset taco_dataset;

typedef struct taco_open_options {
  size_t struct_size;         /* sizeof(taco_open_options) */
  const char* base_path;      /* TACOCAT: where its ZIPs are (NULL: TACO_BASE_PATH or its dir) */
  int use_cache;              /* remote metadata disk cache (default 1; 0 when TACO_NO_CACHE is set) */
  int verify_crc;             /* ZIP: check CRC-32 of every sample read (default 1) */
  int allow_external_rasters; /* decoders may open any GDAL format (default 0) */
  int allow_external_sql;     /* SQL may read other local files (default 0) */
} taco_open_options;
/* Sets struct_size and the defaults above. */
void taco_open_options_init(taco_open_options* options);

/* Opens a TACO dataset (ZIP, FOLDER, TACOCAT, TACOLLECTION .json, legacy; local path, /vsi
 * path or http(s)/s3/gs URL). Several paths are one dataset (concat, column intersection).
 * Reads metadata only. `options` NULL: defaults. *out receives a new dataset. */
taco_status taco_open(const char* const* paths, size_t num_paths, const taco_open_options* options, taco_dataset** out,
                      taco_error** error);
void taco_dataset_free(taco_dataset* dataset);

/* ---- lazy views (each returns a NEW dataset; the input is unchanged) --------------------
 * sql: one read-only SELECT where `data` is this view (internal columns hidden), `data_raw`
 * this view with every column, `files` its FILE samples; the protected `internal:*` columns
 * may not be changed. filter_bbox: rows whose geometry meets the closed box (lon/lat);
 * geometry_column NULL = "auto". filter_datetime: STAC range ("2023-01/2023-06", "2023",
 * "../2024-01-01", ...); time_column NULL = "auto". level > 0 cascades to level 0. */
taco_status taco_dataset_sql(const taco_dataset* dataset, const char* query, taco_dataset** out, taco_error** error);
taco_status taco_dataset_filter_bbox(const taco_dataset* dataset, double min_x, double min_y, double max_x,
                                     double max_y, const char* geometry_column, int level, taco_dataset** out,
                                     taco_error** error);
taco_status taco_dataset_filter_datetime(const taco_dataset* dataset, const char* range, const char* time_column,
                                         int level, taco_dataset** out, taco_error** error);

/* ---- rows -------------------------------------------------------------------------------- */
taco_status taco_dataset_row_count(const taco_dataset* dataset, int64_t* out, taco_error** error);
/* The view's rows as an Arrow C stream (the stream the Python package's to_arrow() reads):
 * raw 0 = without internal columns except `internal:gdal_vsi`, 1 = every column. *out is
 * filled and owned by the caller (call out->release); it stays valid after the dataset is
 * freed. Types: utf8, binary (WKB geometry), timestamp[us], int32/int64, float/double, bool,
 * lists and structs as stored. */
taco_status taco_dataset_arrow_stream(const taco_dataset* dataset, int raw, struct ArrowArrayStream* out,
                                      taco_error** error);
/* The view's path as given, its format ("zip", "folder", "tacocat", "legacy"). Static for
 * the dataset's lifetime. */
const char* taco_dataset_path(const taco_dataset* dataset);
const char* taco_dataset_format(const taco_dataset* dataset);
/* `taco info --json` of this dataset (format, path, id, collection, levels, ...) and
 * COLLECTION.json, as JSON text. */
taco_status taco_dataset_info_json(const taco_dataset* dataset, char** json, taco_error** error);
taco_status taco_dataset_collection_json(const taco_dataset* dataset, char** json, taco_error** error);

/* ---- navigation -------------------------------------------------------------------------
 * A key names a sample among the rows of one level: `id` non-NULL = exactly the sample with
 * that id (an id shared by several rows is refused: use a position); `id` NULL = the 0-based
 * `position`. */
typedef struct taco_key {
  const char* id;
  int64_t position;
} taco_key;

typedef struct taco_node taco_node;   /* one sample reached by keys */
typedef struct taco_frame taco_frame; /* the rows one level below a FOLDER sample */

/* Follows keys[0] among the view's rows, keys[1] among that FOLDER's children, ...
 * (num_keys >= 1). */
taco_status taco_dataset_read(const taco_dataset* dataset, const taco_key* keys, size_t num_keys, taco_node** out,
                              taco_error** error);
void taco_node_free(taco_node* node);
/* Static for the node's lifetime. type: "FILE" or "FOLDER". gdal_path: FILE = the sample's
 * bytes, FOLDER = its __meta__; a path GDAL opens (GDALOpen, terra::rast, rasterio). */
const char* taco_node_id(const taco_node* node);
const char* taco_node_type(const taco_node* node);
int taco_node_is_file(const taco_node* node);
int taco_node_level(const taco_node* node);
const char* taco_node_gdal_path(const taco_node* node);
/* FOLDER: *out receives its children. FILE: invalid argument. */
taco_status taco_node_children(const taco_node* node, taco_frame** out, taco_error** error);
/* FILE: its size in bytes, no sample byte read: ZIP (and TACOCAT) from the metadata; FOLDER
 * (no size stored) from the file system (a stat; remotely one 1-byte ranged request). */
taco_status taco_node_size(const taco_node* node, uint64_t* out, taco_error** error);
/* FILE: its bytes into `buffer` (capacity bytes; CRC-checked for a ZIP when the dataset was
 * opened with verify_crc). *size receives the sample's size (taco_node_size). buffer NULL or capacity smaller
 * than the size: nothing is read, TACO_INVALID_ARGUMENT unless buffer is NULL (a size query,
 * returns TACO_OK). */
taco_status taco_node_read_bytes(const taco_node* node, void* buffer, size_t capacity, size_t* size,
                                 taco_error** error);
/* FILE: its bytes handed to `sink(user_data, data, length)` in chunks of at most 4 MiB
 * (bounded memory). A sink returning non-zero stops the stream: TACO_IO_ERROR. */
typedef int (*taco_bytes_sink)(void* user_data, const void* data, size_t length);
taco_status taco_node_stream_bytes(const taco_node* node, taco_bytes_sink sink, void* user_data, taco_error** error);

void taco_frame_free(taco_frame* frame);
int64_t taco_frame_row_count(const taco_frame* frame);
int taco_frame_level(const taco_frame* frame);
/* As taco_dataset_arrow_stream, for the children's rows. */
taco_status taco_frame_arrow_stream(const taco_frame* frame, int raw, struct ArrowArrayStream* out, taco_error** error);
/* One key among the children. */
taco_status taco_frame_read(const taco_frame* frame, taco_key key, taco_node** out, taco_error** error);

/* ---- statistics -------------------------------------------------------------------------- */
typedef struct taco_stats_query {
  size_t struct_size; /* sizeof(taco_stats_query) */
  const int* bands;   /* 0-based band indexes, num_bands >= 1 */
  size_t num_bands;
  int level;          /* default 0; > 0 needs id or file */
  const char* id;     /* level > 0: the parent at level-1 (NULL: none) */
  const char* file;   /* level > 0: the child with this id under every view row (NULL: none) */
  const char* method; /* "pooled" (default, NULL), "exact" or "upstream" */
} taco_stats_query;
void taco_stats_query_init(taco_stats_query* query);
/* Band statistics of the view (taco/stats.h), as JSON text:
 * {"method", "samples", "categorical": false, "bands": [..], "mean": [per band], "std", "min",
 *  "max", "p25", "p50", "p75", "p95", "approximate": [names], "low"/"high": {p25: [..], ...}
 *  (pooled only)} or, categorical, {"method", "samples", "categorical": true, "bands",
 * "probabilities": [[per class] per band], "class_values": [..] or null, "class_names"}.
 * Values are the float32 results written as doubles (null for NaN). */
taco_status taco_dataset_stats(const taco_dataset* dataset, const taco_stats_query* query, char** json,
                               taco_error** error);

/* ---- checking ---------------------------------------------------------------------------- */
typedef struct taco_validate_options {
  size_t struct_size;  /* sizeof(taco_validate_options) */
  size_t max_per_rule; /* default 1000 */
  int tiff_profile;    /* also check the TACO GeoTIFF profile (default 0) */
  int check_data;      /* ZIP: check every member's CRC-32 (default 1; 0 = `--fast`) */
} taco_validate_options;
void taco_validate_options_init(taco_validate_options* options);
/* `taco validate --json` of `path`: {"path", "format", "valid", "violations": [{rule, where,
 * found, expected}], "omitted": {rule: count}, "notes": [..]}. *valid (when not NULL) is 1
 * when no rule is broken. A dataset with violations is TACO_OK; an error means the input
 * could not be read at all. */
taco_status taco_validate(const char* path, const taco_validate_options* options, char** json, int* valid,
                          taco_error** error);

/* ---- writing (outputs are atomic: written under a temporary name and renamed; an existing
 * output is TACO_ALREADY_EXISTS). Paths written come back as a JSON array of strings. ---- */
typedef struct taco_create_options {
  size_t struct_size;          /* sizeof(taco_create_options) */
  const char* collection;      /* JSON file of the collection fields (required) */
  const char* order;           /* --order file (NULL: none) */
  const char* const* metadata; /* --metadata files (CSV, JSON Lines, Parquet) */
  size_t num_metadata;
  const char* const* extensions; /* --ext: "stac", "istac", "stats", "stats:image.tif", ... */
  size_t num_extensions;
  const char* time_column; /* --time-column (NULL: none) */
  const double* classes;   /* --classes of stats-categorical */
  size_t num_classes;
  size_t pad_to;               /* --pad-to (0: none) */
  int non_strict;              /* --non-strict (default 0) */
  int require_metadata;        /* --require-metadata (default 0) */
  const char* split_size;      /* --split-size ("4GB" when NULL; "0" never splits) */
  const char* const* group_by; /* --group-by columns */
  size_t num_group_by;
  int consolidate;    /* write .tacocat when split (default 1; 0 = --no-consolidate) */
  const char* format; /* "auto" (NULL), "zip" or "folder" */
} taco_create_options;
void taco_create_options_init(taco_create_options* options);
/* `taco create SRC OUT`: a dataset from a directory tree (directories are FOLDERs, files are
 * FILEs). Warnings go to the log callback / stderr at TACO_LOG_VERBOSE. */
taco_status taco_create(const char* source_dir, const char* output, const taco_create_options* options,
                        char** written_json, taco_error** error);
/* `taco convert`: ZIP ⇄ FOLDER (format "auto" = the other one, "zip", "folder"; NULL = auto). */
taco_status taco_convert(const char* input, const char* output, const char* format, char** written_json,
                         taco_error** error);
/* `taco export`: the view's rows (with their whole subtrees) as a new dataset. */
taco_status taco_export(const taco_dataset* view, const char* output, const char* format, char** written_json,
                        taco_error** error);

typedef struct taco_tacocat_options {
  size_t struct_size;     /* sizeof(taco_tacocat_options) */
  const char* output_dir; /* NULL: the inputs' directory */
  int single_file;        /* write __TACOCAT__ instead of .tacocat/ (default 0) */
  int align_schemas;      /* union of columns instead of identical schemas (default 0) */
} taco_tacocat_options;
void taco_tacocat_options_init(taco_tacocat_options* options);
/* `taco tacocat`: consolidates TACO ZIPs; *written receives the path written. */
taco_status taco_tacocat(const char* const* inputs, size_t num_inputs, const taco_tacocat_options* options,
                         char** written, taco_error** error);

#if defined(TACO_C_BUILDING) && defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* TACO_TACO_H_ */
