# Datasets and views: taco_load() opens, sql() / filter_bbox() / filter_datetime() derive new
# lazy views, taco_data() / as.data.frame() materialise the rows (Arrow stream converted in C).

new_dataset <- function(ptr) structure(list(ptr = ptr), class = "taco_dataset")

check_dataset <- function(x) {
  if (!inherits(x, "taco_dataset")) {
    stop(structure(class = c("taco_invalid_argument", "taco_error", "error", "condition"),
                   list(message = "expected a taco_dataset (from taco_load())", call = NULL,
                        code = "invalid argument")))
  }
  x$ptr
}

taco_load <- function(path, base_path = NULL, use_cache = TRUE, verify_crc = TRUE,
                      allow_external_rasters = FALSE, allow_external_sql = FALSE) {
  path <- path.expand(as.character(path))
  new_dataset(.Call(r_taco_open, path, base_path, use_cache, verify_crc,
                    allow_external_rasters, allow_external_sql))
}

sql <- function(dataset, query) {
  new_dataset(.Call(r_taco_sql, check_dataset(dataset), as.character(query)))
}

filter_bbox <- function(dataset, bbox, geometry_column = NULL, level = 0L) {
  new_dataset(.Call(r_taco_filter_bbox, check_dataset(dataset), as.double(bbox),
                    geometry_column, as.integer(level)))
}

filter_datetime <- function(dataset, range, time_column = NULL, level = 0L) {
  new_dataset(.Call(r_taco_filter_datetime, check_dataset(dataset), as.character(range),
                    time_column, as.integer(level)))
}

taco_count <- function(dataset) .Call(r_taco_row_count, check_dataset(dataset))

taco_data <- function(dataset, raw = FALSE) {
  df <- .Call(r_taco_data, check_dataset(dataset), isTRUE(raw))
  if (isTRUE(attr(df, "taco_int64_lossy"))) {
    attr(df, "taco_int64_lossy") <- NULL
    warning("int64 values beyond 2^53 were converted to double and rounded", call. = FALSE)
  }
  df
}

as.data.frame.taco_dataset <- function(x, row.names = NULL, optional = FALSE, ..., raw = FALSE) {
  df <- taco_data(x, raw = raw)
  if (!is.null(row.names)) row.names(df) <- row.names
  df
}

print.taco_dataset <- function(x, ...) {
  d <- .Call(r_taco_describe, check_dataset(x))
  cat("<taco_dataset> ", d[[1]], " (", d[[2]], "): ", format(taco_count(x)), " rows\n", sep = "")
  invisible(x)
}

keys_list <- function(keys) {
  if (length(keys) == 0) stop("at least one key (a 0-based position or an id) is required", call. = FALSE)
  lapply(keys, function(k) if (is.character(k)) k else as.double(k))
}

taco_read <- function(dataset, ..., node = FALSE) {
  n <- .Call(r_taco_read, check_dataset(dataset), keys_list(list(...)))
  if (isTRUE(node)) return(structure(n, class = "taco_node"))
  if (n$type == "FILE") n$gdal_path else n$children
}

print.taco_node <- function(x, ...) {
  cat("<taco_node> ", x$id, " (", x$type, ", level ", x$level, ")\n  ", x$gdal_path, "\n", sep = "")
  if (!is.null(x$children)) cat("  ", nrow(x$children), " children\n", sep = "")
  invisible(x)
}

taco_read_bytes <- function(dataset, ...) {
  .Call(r_taco_read_bytes, check_dataset(dataset), keys_list(list(...)))
}

taco_stats <- function(dataset, band = 0L, level = 0L, id = NULL, file = NULL, method = NULL) {
  json <- .Call(r_taco_stats, check_dataset(dataset), as.integer(band), as.integer(level), id, file, method)
  structure(jsonlite::fromJSON(json, simplifyVector = TRUE), class = "taco_stats")
}

print.taco_stats <- function(x, ...) {
  cat("<taco_stats> method ", x$method, ", ", x$samples, " samples\n", sep = "")
  if (isTRUE(x$categorical)) {
    for (i in seq_along(x$bands)) {
      p <- x$probabilities
      row <- if (is.matrix(p)) p[i, ] else p[[i]]
      cat("  band ", x$bands[[i]], ": ", paste(format(row, digits = 4), collapse = " "), "\n", sep = "")
    }
  } else {
    m <- c("mean", "std", "min", "max", "p25", "p50", "p75", "p95")
    tab <- do.call(cbind, lapply(m, function(k) x[[k]]))
    dimnames(tab) <- list(paste("band", x$bands), m)
    print(tab)
    if (length(x$approximate)) cat("  approximate:", paste(x$approximate, collapse = ", "), "\n")
  }
  invisible(x)
}

taco_info <- function(dataset) {
  structure(jsonlite::fromJSON(.Call(r_taco_info, check_dataset(dataset)), simplifyVector = FALSE),
            class = "taco_info")
}

print.taco_info <- function(x, ...) {
  cat("<taco_info> ", x$format, " ", x$path, "\n  id: ", x$id, "\n", sep = "")
  for (level in x$levels) {
    cat("  level ", level$level, ": ", level$rows, " rows, ", length(level$columns), " columns\n", sep = "")
  }
  invisible(x)
}

taco_version <- function() {
  v <- .Call(r_taco_versions)
  list(library = v[[1]], spec = v[[2]], abi = as.integer(v[[3]]))
}

taco_log_level <- function(level = NULL) {
  if (is.character(level)) {
    level <- match(match.arg(level, c("off", "verbose", "debug")), c("off", "verbose", "debug")) - 1L
  }
  invisible(.Call(r_taco_log_level, if (is.null(level)) NULL else as.integer(level)))
}
