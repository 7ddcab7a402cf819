# The R side of tests/capi/test_four_fronts.py: the five queries through the taco package on
# each dataset given, printed as one JSON object keyed by dataset path, plus the pixels terra
# reads from taco_read(ds, 0, RASTER). One R session for all datasets (R + terra start slowly).
# Usage: Rscript four_fronts.R SQL MINX MINY MAXX MAXY DATETIME POSITION FILE STATS_FILE RASTER DATASET...
a <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(taco))
answer <- function(path) {
  ds <- taco_load(path)
  node <- taco_read(ds, as.numeric(a[[7]]), a[[8]], node = TRUE)
  stats <- unclass(taco_stats(ds, band = 0:3, level = 1, file = a[[9]]))
  list(
    sql = taco_data(sql(ds, a[[1]]))$id,
    bbox = taco_data(filter_bbox(ds, as.numeric(a[2:5])))$id,
    datetime = taco_data(filter_datetime(ds, a[[6]]))$id,
    read = node$gdal_path,
    read_size = length(taco_read_bytes(ds, as.numeric(a[[7]]), a[[8]])),
    stats = stats[c("mean", "std", "min", "max", "p25", "p50", "p75", "p95")],
    pixels = as.vector(terra::values(terra::rast(taco_read(ds, 0, a[[10]])))))
}
paths <- a[11:length(a)]
out <- stats::setNames(lapply(paths, answer), paths)
cat(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA))
