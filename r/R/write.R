# Checking and writing: taco_validate(), taco_create(), taco_convert(), taco_export(),
# taco_tacocat(). Outputs are atomic (libtaco writes under a temporary name and renames).

taco_validate <- function(path, max_per_rule = 1000L, tiff_profile = FALSE, check_data = TRUE) {
  json <- .Call(r_taco_validate, path.expand(path), as.integer(max_per_rule), tiff_profile, check_data)
  structure(jsonlite::fromJSON(json, simplifyVector = TRUE), class = "taco_validation")
}

print.taco_validation <- function(x, ...) {
  if (isTRUE(x$valid)) {
    cat(x$path, ": valid ", x$format, " dataset\n", sep = "")
  } else {
    v <- x$violations
    cat(x$path, ": ", NROW(v), " violations\n", sep = "")
    if (NROW(v)) cat(paste0("  ", v$rule, "  ", v$where, ": ", v$found, "\n"), sep = "")
  }
  invisible(x)
}

taco_create <- function(src, output, collection, order = NULL, metadata = character(),
                        ext = character(), time_column = NULL, classes = numeric(),
                        pad_to = 0L, non_strict = FALSE, require_metadata = FALSE,
                        split_size = "4GB", group_by = character(), consolidate = TRUE,
                        format = c("auto", "zip", "folder")) {
  format <- match.arg(format)
  args <- list(path.expand(collection), order, as.character(metadata), as.character(ext),
               time_column, as.double(classes), as.integer(pad_to), non_strict,
               require_metadata, as.character(split_size), as.character(group_by),
               consolidate, format)
  jsonlite::fromJSON(.Call(r_taco_create, path.expand(src), path.expand(output), args))
}

taco_convert <- function(input, output, format = c("auto", "zip", "folder")) {
  format <- match.arg(format)
  jsonlite::fromJSON(.Call(r_taco_convert, path.expand(input), path.expand(output), format))
}

taco_export <- function(dataset, output, format = c("auto", "zip", "folder")) {
  format <- match.arg(format)
  jsonlite::fromJSON(.Call(r_taco_export, check_dataset(dataset), path.expand(output), format))
}

taco_tacocat <- function(inputs, output_dir = NULL, single_file = FALSE, align_schemas = FALSE) {
  .Call(r_taco_tacocat, path.expand(as.character(inputs)), output_dir, single_file, align_schemas)
}
