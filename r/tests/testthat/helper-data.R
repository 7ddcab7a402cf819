# Builds the test dataset once per test run: three FOLDER samples (tile_a, tile_b, tile_c),
# each with image.tif (2 bands, 8x8, EPSG:4326, distinct places) and mask.tif, a time per
# tile from a metadata CSV, STAC and GeoTIFF statistics computed by taco_create().
make_test_dataset <- function() {
  root <- file.path(tempdir(), "taco-r-tests")
  zip <- file.path(root, "tiles.tacozip")
  if (file.exists(zip)) return(list(root = root, zip = zip, src = file.path(root, "src")))
  dir.create(file.path(root, "src"), recursive = TRUE, showWarnings = FALSE)
  places <- list(tile_a = c(-4, 40), tile_b = c(2, 48), tile_c = c(37, -1))
  for (i in seq_along(places)) {
    id <- names(places)[[i]]
    xy <- places[[i]]
    dir.create(file.path(root, "src", id), showWarnings = FALSE)
    r <- terra::rast(nrows = 8, ncols = 8, nlyrs = 2, xmin = xy[1], xmax = xy[1] + 0.08,
                     ymin = xy[2], ymax = xy[2] + 0.08, crs = "EPSG:4326")
    terra::values(r) <- c(seq_len(64) * i, rev(seq_len(64)) + 10 * i)
    terra::writeRaster(r, file.path(root, "src", id, "image.tif"), datatype = "INT2U", overwrite = TRUE)
    m <- terra::rast(r, nlyrs = 1)
    terra::values(m) <- rep(c(0, 1), 32)
    terra::writeRaster(m, file.path(root, "src", id, "mask.tif"), datatype = "INT1U", overwrite = TRUE)
  }
  writeLines(c("path,time,region",
               "tile_a,2021-01-05T10:00:00,europe",
               "tile_b,2021-02-10T10:00:00,europe",
               "tile_c,2021-03-15T10:00:00,africa"), file.path(root, "meta.csv"))
  writeLines('{"id": "r-tests", "dataset_version": "1.0.0", "description": "R tests",
               "licenses": ["CC-BY-4.0"], "providers": [{"name": "taco-cpp"}], "tasks": ["other"]}',
             file.path(root, "collection.json"))
  taco_create(file.path(root, "src"), zip, collection = file.path(root, "collection.json"),
              metadata = file.path(root, "meta.csv"), time_column = "time",
              ext = c("stac", "stats:image.tif"))
  list(root = root, zip = zip, src = file.path(root, "src"))
}
