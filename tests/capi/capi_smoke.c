/* Exercises every function of the C ABI (include/taco/taco.h), success and error paths, on
 * the dataset `taco demo` writes. Built with -std=c99 -Wall -Werror -pedantic against the
 * header alone; run by ctest (capi_smoke) and, in `make test-asan`, under ASan.
 *
 * Usage: capi_smoke DEMO_DIR WORK_DIR
 *   DEMO_DIR: what `taco demo DEMO_DIR` wrote (demo.tacozip, demo/, tiles/)
 *   WORK_DIR: an empty directory for the outputs of create/convert/export/tacocat
 * Prints one line per failed check and "N passed, N failed"; exits 1 on any failure. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "taco/taco.h"

static int passed = 0, failed = 0;

#define CHECK(cond)                                                  \
  do {                                                               \
    if (cond) {                                                      \
      ++passed;                                                      \
    } else {                                                         \
      ++failed;                                                      \
      fprintf(stderr, "FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                \
  } while (0)

/* A call that must succeed; prints the error otherwise. */
#define OK(call)                                                                               \
  do {                                                                                         \
    taco_error* ok_err_ = NULL;                                                                \
    taco_status ok_st_ = (call);                                                               \
    if (ok_st_ == TACO_OK) {                                                                   \
      ++passed;                                                                                \
    } else {                                                                                   \
      ++failed;                                                                                \
      fprintf(stderr, "FAILED %s:%d: %s: %s\n", __FILE__, __LINE__, #call, taco_error_message(ok_err_)); \
    }                                                                                          \
    taco_error_free(ok_err_);                                                                  \
  } while (0)

/* A call that must fail with `code` and a message holding `needle`. */
static void expect_error(taco_status got, taco_error* err, taco_status code, const char* needle, int line) {
  if (got == code && err != NULL && taco_error_code(err) == code && strstr(taco_error_message(err), needle) != NULL) {
    ++passed;
  } else {
    ++failed;
    fprintf(stderr, "FAILED line %d: expected %s containing '%s', got %s: %s\n", line, taco_status_name(code), needle,
            taco_status_name(got), taco_error_message(err));
  }
  taco_error_free(err);
}
#define EXPECT_ERROR(call, code, needle) \
  do {                                   \
    taco_error* e_ = NULL;               \
    taco_status s_ = (call);             \
    expect_error(s_, e_, code, needle, __LINE__); \
  } while (0)
/* The calls inside EXPECT_ERROR use `&e_` as their error parameter. */

static int log_lines = 0;
static void on_log(void* user, int level, const char* line) {
  (void)level;
  if (line != NULL && line[0] != '\0') ++*(int*)user;
}

static size_t streamed = 0;
static int count_sink(void* user, const void* data, size_t n) {
  (void)user;
  (void)data;
  streamed += n;
  return 0;
}
static int stop_sink(void* user, const void* data, size_t n) {
  (void)user;
  (void)data;
  (void)n;
  return 1;
}

static char* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  char* data;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = (char*)malloc((size_t)n + 1);
  if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

/* The bytes this process has read so far (Linux /proc/self/io "rchar"); 0 when unknown. */
static unsigned long long bytes_read(void) {
  char line[256];
  unsigned long long n = 0;
  FILE* f = fopen("/proc/self/io", "r");
  if (f == NULL) return 0;
  while (fgets(line, sizeof line, f) != NULL) {
    if (sscanf(line, "rchar: %llu", &n) == 1) break;
  }
  fclose(f);
  return n;
}

static int exists(const char* path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static void write_file(const char* path, const char* text) {
  FILE* f = fopen(path, "wb");
  if (f == NULL) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(2);
  }
  fputs(text, f);
  fclose(f);
}

/* Rows of a stream, and whether it has a top-level column named `column`. */
static int64_t stream_rows(struct ArrowArrayStream* stream, const char* column, int* has_column) {
  struct ArrowSchema schema;
  struct ArrowArray batch;
  int64_t rows = 0, i;
  *has_column = 0;
  if (stream->get_schema(stream, &schema) != 0) return -1;
  for (i = 0; i < schema.n_children; ++i) {
    if (strcmp(schema.children[i]->name, column) == 0) *has_column = 1;
  }
  schema.release(&schema);
  for (;;) {
    if (stream->get_next(stream, &batch) != 0) return -1;
    if (batch.release == NULL) break;
    rows += batch.length;
    batch.release(&batch);
  }
  stream->release(stream);
  return rows;
}

static int64_t count(const taco_dataset* ds) {
  int64_t n = -1;
  taco_error* err = NULL;
  if (taco_dataset_row_count(ds, &n, &err) != TACO_OK) {
    fprintf(stderr, "row_count: %s\n", taco_error_message(err));
    taco_error_free(err);
  }
  return n;
}

int main(int argc, char** argv) {
  char zip[4096], folder[4096], loose[4096], path[4096], out[4096], cat_dir[2048], collection[4096];
  const char* paths[2];
  taco_open_options options;
  taco_dataset *ds = NULL, *fds = NULL, *view = NULL, *bbox = NULL, *when = NULL, *two = NULL;
  taco_node *node = NULL, *folder_node = NULL, *child = NULL;
  taco_frame* frame = NULL;
  struct ArrowArrayStream stream;
  taco_stats_query query;
  taco_validate_options vopts;
  taco_create_options copts;
  taco_tacocat_options topts;
  taco_key keys[2];
  char* json = NULL;
  int has = 0, valid = -1, band = 0, bad_band = 99;
  int64_t n = 0;
  uint64_t size64 = 0;
  size_t size = 0, loose_size = 0;
  char *bytes = NULL, *expected = NULL;
  const char* ext_list[1];
  const char* inputs[2];

  if (argc != 3) {
    fprintf(stderr, "usage: capi_smoke DEMO_DIR WORK_DIR\n");
    return 2;
  }
  snprintf(zip, sizeof zip, "%s/demo.tacozip", argv[1]);
  snprintf(folder, sizeof folder, "%s/demo", argv[1]);
  snprintf(loose, sizeof loose, "%s/tiles/tile_00/label.tif", argv[1]);

  /* versions */
  CHECK(strlen(taco_version()) > 0);
  CHECK(strcmp(taco_spec_version(), "2.0.0") == 0);
  CHECK(taco_abi_version() == 1);
  CHECK(strcmp(taco_status_name(TACO_NOT_FOUND), "not found") == 0);
  CHECK(strcmp(taco_status_name((taco_status)42), "unknown") == 0);
  CHECK(taco_error_code(NULL) == TACO_OK && strcmp(taco_error_message(NULL), "") == 0);

  /* logging: a callback receives the lines of an open at verbose level */
  EXPECT_ERROR(taco_set_log_level(7, &e_), TACO_INVALID_ARGUMENT, "log level 7");
  taco_set_log_callback(on_log, &log_lines);
  OK(taco_set_log_level(TACO_LOG_VERBOSE, &ok_err_));
  CHECK(taco_get_log_level() == TACO_LOG_VERBOSE);
  paths[0] = zip;
  OK(taco_open(paths, 1, NULL, &ds, &ok_err_));
  CHECK(log_lines > 0);
  OK(taco_set_log_level(TACO_LOG_OFF, &ok_err_));
  taco_set_log_callback(NULL, NULL);

  /* open: errors */
  paths[1] = "/nonexistent/x.tacozip";
  EXPECT_ERROR(taco_open(paths + 1, 1, NULL, &view, &e_), TACO_NOT_FOUND, "/nonexistent/x.tacozip");
  EXPECT_ERROR(taco_open(NULL, 0, NULL, &view, &e_), TACO_INVALID_ARGUMENT, "no path");
  memset(&options, 0, sizeof options);
  EXPECT_ERROR(taco_open(paths, 1, &options, &view, &e_), TACO_INVALID_ARGUMENT, "struct_size");
  EXPECT_ERROR(taco_open(paths, 1, NULL, NULL, &e_), TACO_INVALID_ARGUMENT, "out");
  CHECK(taco_open(paths + 1, 1, NULL, &view, NULL) == TACO_NOT_FOUND); /* no error object asked for */

  /* open with options; a FOLDER; a list (concat) */
  taco_open_options_init(&options);
  options.verify_crc = 1;
  paths[0] = folder;
  OK(taco_open(paths, 1, &options, &fds, &ok_err_));
  CHECK(strcmp(taco_dataset_format(fds), "folder") == 0);
  CHECK(strcmp(taco_dataset_format(ds), "zip") == 0);
  CHECK(strcmp(taco_dataset_path(ds), zip) == 0);
  CHECK(count(ds) == 48 && count(fds) == 48);

  /* views */
  OK(taco_dataset_sql(ds, "SELECT * FROM data WHERE split = 'train'", &view, &ok_err_));
  n = count(view);
  CHECK(n > 0 && n < 48);
  EXPECT_ERROR(taco_dataset_sql(ds, "SELECT nope FROM data", &bbox, &e_), TACO_INVALID_ARGUMENT,
               "nope");
  EXPECT_ERROR(taco_dataset_sql(ds, "DROP TABLE data", &bbox, &e_), TACO_INVALID_ARGUMENT, "");
  OK(taco_dataset_filter_bbox(ds, -10, 35, 5, 44, NULL, 0, &bbox, &ok_err_));
  n = count(bbox);
  CHECK(n > 0 && n < 48);
  EXPECT_ERROR(taco_dataset_filter_bbox(ds, 0, 0, 1, 1, "no_such_column", 0, &when, &e_),
               TACO_INVALID_ARGUMENT, "no_such_column");
  OK(taco_dataset_filter_datetime(ds, "2021-01", NULL, 0, &when, &ok_err_));
  CHECK(count(when) == 11);
  EXPECT_ERROR(taco_dataset_filter_datetime(ds, "yesterday", NULL, 0, &two, &e_), TACO_INVALID_ARGUMENT, "yesterday");

  /* rows as Arrow */
  OK(taco_dataset_arrow_stream(view, 0, &stream, &ok_err_));
  CHECK(stream_rows(&stream, "internal:gdal_vsi", &has) == count(view) && has == 1);
  OK(taco_dataset_arrow_stream(ds, 0, &stream, &ok_err_));
  CHECK(stream_rows(&stream, "internal:offset", &has) == 48 && has == 0);
  OK(taco_dataset_arrow_stream(ds, 1, &stream, &ok_err_));
  CHECK(stream_rows(&stream, "internal:offset", &has) == 48 && has == 1);
  EXPECT_ERROR(taco_dataset_arrow_stream(NULL, 0, &stream, &e_), TACO_INVALID_ARGUMENT, "dataset");

  /* info, collection */
  OK(taco_dataset_info_json(ds, &json, &ok_err_));
  CHECK(json != NULL && strstr(json, "\"format\":\"zip\"") != NULL);
  taco_string_free(json);
  OK(taco_dataset_collection_json(ds, &json, &ok_err_));
  CHECK(json != NULL && strstr(json, "\"taco:pit_schema\"") != NULL);
  taco_string_free(json);

  /* navigation: position 0, then the FILE label.tif; its bytes equal the loose file's */
  keys[0].id = NULL;
  keys[0].position = 0;
  keys[1].id = "label.tif";
  keys[1].position = 0;
  OK(taco_dataset_read(ds, keys, 2, &node, &ok_err_));
  CHECK(taco_node_is_file(node) && strcmp(taco_node_type(node), "FILE") == 0);
  CHECK(strcmp(taco_node_id(node), "label.tif") == 0 && taco_node_level(node) == 1);
  CHECK(strncmp(taco_node_gdal_path(node), "/vsisubfile/", 12) == 0);
  expected = read_file(loose, &loose_size);
  CHECK(expected != NULL);
  OK(taco_node_size(node, &size64, &ok_err_));
  CHECK(size64 == loose_size);
  OK(taco_node_read_bytes(node, NULL, 0, &size, &ok_err_));
  CHECK(size == loose_size);
  bytes = (char*)malloc(size);
  EXPECT_ERROR(taco_node_read_bytes(node, bytes, size - 1, &size, &e_), TACO_INVALID_ARGUMENT, "the buffer holds");
  OK(taco_node_read_bytes(node, bytes, size, &size, &ok_err_));
  CHECK(expected != NULL && size == loose_size && memcmp(bytes, expected, size) == 0);
  OK(taco_node_stream_bytes(node, count_sink, NULL, &ok_err_));
  CHECK(streamed == loose_size);
  EXPECT_ERROR(taco_node_stream_bytes(node, stop_sink, NULL, &e_), TACO_IO_ERROR, "stopped");
  EXPECT_ERROR(taco_node_children(node, &frame, &e_), TACO_INVALID_ARGUMENT, "FILE");
  free(bytes);
  taco_node_free(node);

  /* the same through a FOLDER node and its children frame, in the FOLDER dataset */
  keys[0].id = "tile_00";
  OK(taco_dataset_read(fds, keys, 1, &folder_node, &ok_err_));
  CHECK(!taco_node_is_file(folder_node) && strcmp(taco_node_type(folder_node), "FOLDER") == 0);
  EXPECT_ERROR(taco_node_read_bytes(folder_node, NULL, 0, &size, &e_), TACO_INVALID_ARGUMENT, "not a FILE");
  OK(taco_node_children(folder_node, &frame, &ok_err_));
  CHECK(taco_frame_row_count(frame) == 3 && taco_frame_level(frame) == 1);
  OK(taco_frame_arrow_stream(frame, 1, &stream, &ok_err_));
  CHECK(stream_rows(&stream, "id", &has) == 3 && has == 1);
  keys[1].id = "label.tif";
  OK(taco_frame_read(frame, keys[1], &child, &ok_err_));
  size = 0;
  OK(taco_node_read_bytes(child, NULL, 0, &size, &ok_err_));
  bytes = (char*)malloc(size + 1);
  OK(taco_node_read_bytes(child, bytes, size, &size, &ok_err_));
  CHECK(expected != NULL && size == loose_size && memcmp(bytes, expected, size) == 0);
  free(bytes);
  free(expected);
  taco_node_free(child);
  /* a FOLDER dataset stores no size: taco_node_size asks the file system and reads none of the
   * sample's bytes (this process reads fewer bytes than the file holds meanwhile) */
  keys[1].id = "before.tif";
  OK(taco_frame_read(frame, keys[1], &child, &ok_err_));
  {
    struct stat st;
    unsigned long long before_size = bytes_read(), after_size;
    snprintf(path, sizeof path, "%s/tiles/tile_00/before.tif", argv[1]);
    CHECK(stat(path, &st) == 0 && st.st_size > 4096);
    OK(taco_node_size(child, &size64, &ok_err_));
    after_size = bytes_read();
    CHECK(size64 == (uint64_t)st.st_size);
    if (before_size > 0) CHECK(after_size - before_size < (unsigned long long)st.st_size);
  }
  taco_node_free(child);
  keys[1].id = "nope.tif";
  EXPECT_ERROR(taco_frame_read(frame, keys[1], &child, &e_), TACO_NOT_FOUND, "nope.tif");
  keys[1].id = NULL;
  keys[1].position = 3;
  EXPECT_ERROR(taco_frame_read(frame, keys[1], &child, &e_), TACO_INVALID_ARGUMENT, "out of range");
  taco_frame_free(frame);
  taco_node_free(folder_node);
  keys[0].id = "no_such_tile";
  EXPECT_ERROR(taco_dataset_read(ds, keys, 1, &node, &e_), TACO_NOT_FOUND, "no_such_tile");
  EXPECT_ERROR(taco_dataset_read(ds, keys, 0, &node, &e_), TACO_INVALID_ARGUMENT, "no key");

  /* stats: band 0 of every before.tif under the filtered view */
  taco_stats_query_init(&query);
  query.bands = &band;
  query.num_bands = 1;
  query.level = 1;
  query.file = "before.tif";
  OK(taco_dataset_stats(bbox, &query, &json, &ok_err_));
  CHECK(json != NULL && strstr(json, "\"mean\":[") != NULL && strstr(json, "\"method\":\"pooled\"") != NULL);
  taco_string_free(json);
  query.bands = &bad_band;
  EXPECT_ERROR(taco_dataset_stats(ds, &query, &json, &e_), TACO_INVALID_ARGUMENT, "Band 99 out of range");
  query.bands = &band;
  query.file = NULL;
  EXPECT_ERROR(taco_dataset_stats(ds, &query, &json, &e_), TACO_INVALID_ARGUMENT, "id is required");
  query.level = 0;
  query.method = "median";
  EXPECT_ERROR(taco_dataset_stats(ds, &query, &json, &e_), TACO_INVALID_ARGUMENT, "median");

  /* validate */
  taco_validate_options_init(&vopts);
  OK(taco_validate(zip, &vopts, &json, &valid, &ok_err_));
  CHECK(valid == 1 && json != NULL && strstr(json, "\"valid\":true") != NULL);
  taco_string_free(json);
  OK(taco_validate(folder, NULL, &json, NULL, &ok_err_));
  taco_string_free(json);
  EXPECT_ERROR(taco_validate("/nonexistent/y.tacozip", NULL, &json, &valid, &e_), TACO_NOT_FOUND, "y.tacozip");

  /* create from a directory, twice into one folder, then tacocat and convert */
  snprintf(path, sizeof path, "%s/src", argv[2]);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/src/a", argv[2]);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/src/a/x.bin", argv[2]);
  write_file(path, "hello");
  snprintf(path, sizeof path, "%s/src/b", argv[2]);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/src/b/x.bin", argv[2]);
  write_file(path, "world!");
  snprintf(collection, sizeof collection, "%s/collection.json", argv[2]);
  write_file(collection,
             "{\"id\": \"capi\", \"dataset_version\": \"1.0.0\", \"description\": \"C ABI test\", "
             "\"licenses\": [\"CC-BY-4.0\"], \"providers\": [{\"name\": \"taco-cpp\"}], \"tasks\": [\"other\"]}");
  snprintf(cat_dir, sizeof cat_dir, "%s/cat", argv[2]);
  mkdir(cat_dir, 0755);
  snprintf(path, sizeof path, "%s/src", argv[2]);
  taco_create_options_init(&copts);
  copts.collection = collection;
  snprintf(out, sizeof out, "%s/a.tacozip", cat_dir);
  OK(taco_create(path, out, &copts, &json, &ok_err_));
  CHECK(json != NULL && strstr(json, "a.tacozip\"]") != NULL);
  taco_string_free(json);
  EXPECT_ERROR(taco_create(path, out, &copts, &json, &e_), TACO_ALREADY_EXISTS, "a.tacozip");
  ext_list[0] = "nonsense";
  copts.extensions = ext_list;
  copts.num_extensions = 1;
  snprintf(out, sizeof out, "%s/bad.tacozip", cat_dir);
  EXPECT_ERROR(taco_create(path, out, &copts, &json, &e_), TACO_INVALID_ARGUMENT, "nonsense");
  CHECK(!exists(out));
  copts.num_extensions = 0;
  copts.collection = NULL;
  EXPECT_ERROR(taco_create(path, out, &copts, &json, &e_), TACO_INVALID_ARGUMENT, "collection");
  copts.collection = collection;
  snprintf(out, sizeof out, "%s/b.tacozip", cat_dir);
  OK(taco_create(path, out, &copts, NULL, &ok_err_));

  snprintf(path, sizeof path, "%s/a.tacozip", cat_dir);
  inputs[0] = path;
  inputs[1] = out;
  taco_tacocat_options_init(&topts);
  OK(taco_tacocat(inputs, 2, &topts, &json, &ok_err_));
  CHECK(json != NULL && strstr(json, ".tacocat") != NULL);
  paths[0] = json;
  OK(taco_open(paths, 1, NULL, &two, &ok_err_));
  CHECK(count(two) == 4);
  taco_dataset_free(two);
  taco_string_free(json);
  EXPECT_ERROR(taco_tacocat(inputs, 0, &topts, &json, &e_), TACO_INVALID_ARGUMENT, "no input");

  snprintf(out, sizeof out, "%s/a_folder", argv[2]);
  OK(taco_convert(path, out, NULL, &json, &ok_err_));
  taco_string_free(json);
  paths[0] = out;
  OK(taco_open(paths, 1, NULL, &two, &ok_err_));
  CHECK(two != NULL && strcmp(taco_dataset_format(two), "folder") == 0 && count(two) == 2);
  taco_dataset_free(two);
  EXPECT_ERROR(taco_convert(path, out, "tarball", &json, &e_), TACO_INVALID_ARGUMENT, "tarball");

  /* export the datetime view */
  snprintf(out, sizeof out, "%s/january.tacozip", argv[2]);
  OK(taco_export(when, out, "zip", &json, &ok_err_));
  taco_string_free(json);
  paths[0] = out;
  OK(taco_open(paths, 1, NULL, &two, &ok_err_));
  CHECK(count(two) == 11);
  taco_dataset_free(two);
  paths[0] = zip; /* a list is one dataset (concat) */
  paths[1] = out;
  OK(taco_open(paths, 2, NULL, &two, &ok_err_));
  CHECK(count(two) == 59);
  taco_dataset_free(two);
  EXPECT_ERROR(taco_export(when, out, NULL, &json, &e_), TACO_ALREADY_EXISTS, "january.tacozip");

  /* a view outlives its parent */
  taco_dataset_free(ds);
  CHECK(count(view) > 0);
  taco_dataset_free(view);
  taco_dataset_free(bbox);
  taco_dataset_free(when);
  taco_dataset_free(fds);
  taco_dataset_free(NULL);
  taco_node_free(NULL);
  taco_frame_free(NULL);
  taco_error_free(NULL);
  taco_string_free(NULL);

  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
