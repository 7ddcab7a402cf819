# The R side of tests/capi/test_four_fronts.py: the five queries through the taco package,
# printed as one JSON object, plus the pixels terra reads from taco_read(ds, 0, RASTER).
# Usage: Rscript four_fronts.R DATASET SQL MINX MINY MAXX MAXY DATETIME POSITION FILE STATS_FILE RASTER
a <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(taco))
ds <- taco_load(a[[1]])
node <- taco_read(ds, as.numeric(a[[8]]), a[[9]], node = TRUE)
stats <- unclass(taco_stats(ds, band = 0:3, level = 1, file = a[[10]]))
pixels <- as.vector(terra::values(terra::rast(taco_read(ds, 0, a[[11]]))))
out <- list(
  sql = taco_data(sql(ds, a[[2]]))$id,
  bbox = taco_data(filter_bbox(ds, as.numeric(a[3:6])))$id,
  datetime = taco_data(filter_datetime(ds, a[[7]]))$id,
  read = node$gdal_path,
  read_size = length(taco_read_bytes(ds, as.numeric(a[[8]]), a[[9]])),
  stats = stats[c("mean", "std", "min", "max", "p25", "p50", "p75", "p95")],
  pixels = pixels)
cat(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA))
