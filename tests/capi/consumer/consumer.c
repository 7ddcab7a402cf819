/* A program that uses an installed libtaco: opens the dataset given and prints its row
 * count and the GDAL path of keys (0, NAME). Built by tests/capi/install_test.sh with
 * pkg-config and with find_package(taco). */
#include <stdio.h>

#include <taco/taco.h>

int main(int argc, char** argv) {
  taco_dataset* ds = NULL;
  taco_node* node = NULL;
  taco_error* err = NULL;
  taco_key keys[2];
  int64_t rows = 0;
  if (argc != 3) return 2;
  if (taco_open((const char* const*)&argv[1], 1, NULL, &ds, &err) != TACO_OK ||
      taco_dataset_row_count(ds, &rows, &err) != TACO_OK) {
    fprintf(stderr, "consumer: %s\n", taco_error_message(err));
    taco_error_free(err);
    taco_dataset_free(ds);
    return 1;
  }
  keys[0].id = NULL;
  keys[0].position = 0;
  keys[1].id = argv[2];
  keys[1].position = 0;
  if (taco_dataset_read(ds, keys, 2, &node, &err) != TACO_OK) {
    fprintf(stderr, "consumer: %s\n", taco_error_message(err));
    taco_error_free(err);
    taco_dataset_free(ds);
    return 1;
  }
  printf("libtaco %s: %lld rows; %s\n", taco_version(), (long long)rows, taco_node_gdal_path(node));
  taco_node_free(node);
  taco_dataset_free(ds);
  return 0;
}
