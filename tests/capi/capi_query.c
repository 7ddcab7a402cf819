/* The C side of tests/capi/test_four_fronts.py: runs the five queries of that test on one
 * dataset through the C ABI and prints the answers as one JSON object:
 *   {"sql": [ids], "bbox": [ids], "datetime": [ids], "read": "<gdal path>", "read_size": N,
 *    "stats": <taco_dataset_stats JSON>}
 * Usage: capi_query DATASET SQL MINX MINY MAXX MAXY DATETIME POSITION FILE FILE_FOR_STATS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taco/taco.h"

static void die(taco_error* err) {
  fprintf(stderr, "capi_query: %s\n", taco_error_message(err));
  taco_error_free(err);
  exit(1);
}

/* Prints the `id` column of a view as a JSON array (ids hold no quotes or backslashes). */
static void print_ids(const taco_dataset* view) {
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  taco_error* err = NULL;
  int64_t col = -1, i, j;
  int first = 1;
  if (taco_dataset_arrow_stream(view, 0, &stream, &err) != TACO_OK) die(err);
  if (stream.get_schema(&stream, &schema) != 0) exit(1);
  for (i = 0; i < schema.n_children; ++i) {
    if (strcmp(schema.children[i]->name, "id") == 0 && strcmp(schema.children[i]->format, "u") == 0) col = i;
  }
  schema.release(&schema);
  if (col < 0) exit(1);
  printf("[");
  for (;;) {
    const struct ArrowArray* ids;
    const int32_t* offsets;
    const char* data;
    if (stream.get_next(&stream, &batch) != 0) exit(1);
    if (batch.release == NULL) break;
    ids = batch.children[col];
    offsets = (const int32_t*)ids->buffers[1];
    data = (const char*)ids->buffers[2];
    for (j = 0; j < ids->length; ++j) {
      int32_t b = offsets[ids->offset + j], e = offsets[ids->offset + j + 1];
      printf("%s\"%.*s\"", first ? "" : ", ", (int)(e - b), data + b);
      first = 0;
    }
    batch.release(&batch);
  }
  stream.release(&stream);
  printf("]");
}

int main(int argc, char** argv) {
  taco_dataset *ds = NULL, *view = NULL;
  taco_node* node = NULL;
  taco_error* err = NULL;
  taco_key keys[2];
  taco_stats_query query;
  int bands[4] = {0, 1, 2, 3};
  uint64_t size = 0;
  char* json = NULL;
  if (argc != 11) {
    fprintf(stderr, "usage: capi_query DATASET SQL MINX MINY MAXX MAXY DATETIME POSITION FILE STATS_FILE\n");
    return 2;
  }
  if (taco_open((const char* const*)&argv[1], 1, NULL, &ds, &err) != TACO_OK) die(err);
  printf("{\"sql\": ");
  if (taco_dataset_sql(ds, argv[2], &view, &err) != TACO_OK) die(err);
  print_ids(view);
  taco_dataset_free(view);
  printf(", \"bbox\": ");
  if (taco_dataset_filter_bbox(ds, atof(argv[3]), atof(argv[4]), atof(argv[5]), atof(argv[6]), NULL, 0, &view,
                               &err) != TACO_OK) {
    die(err);
  }
  print_ids(view);
  taco_dataset_free(view);
  printf(", \"datetime\": ");
  if (taco_dataset_filter_datetime(ds, argv[7], NULL, 0, &view, &err) != TACO_OK) die(err);
  print_ids(view);
  taco_dataset_free(view);
  keys[0].id = NULL;
  keys[0].position = atoll(argv[8]);
  keys[1].id = argv[9];
  keys[1].position = 0;
  if (taco_dataset_read(ds, keys, 2, &node, &err) != TACO_OK) die(err);
  if (taco_node_size(node, &size, &err) != TACO_OK) die(err);
  printf(", \"read\": \"%s\", \"read_size\": %llu", taco_node_gdal_path(node), (unsigned long long)size);
  taco_node_free(node);
  taco_stats_query_init(&query);
  query.bands = bands;
  query.num_bands = 4;
  query.level = 1;
  query.file = argv[10];
  if (taco_dataset_stats(ds, &query, &json, &err) != TACO_OK) die(err);
  printf(", \"stats\": %s}\n", json);
  taco_string_free(json);
  taco_dataset_free(ds);
  return 0;
}
