/* The .Call entry points of the taco R package: thin wrappers over the C ABI of libtaco
 * (include/taco/taco.h). Every taco_* error is turned into an R condition by the R function
 * taco_signal() (R/conditions.R) after the C error object is freed, so that nothing leaks
 * when R unwinds. Handles are external pointers with finalizers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <R_ext/Rdynload.h>

#include "taco_r.h"

static SEXP dataset_tag = NULL;

/* Signals the error as an R condition (does not return). */
static void signal_error(taco_status code, taco_error* err) {
  SEXP ns, call, msg;
  const char* name = taco_status_name(code);
  msg = PROTECT(Rf_mkCharCE(err != NULL ? taco_error_message(err) : name, CE_UTF8));
  taco_error_free(err);
  ns = PROTECT(R_FindNamespace(Rf_mkString("taco")));
  call = PROTECT(Rf_lang3(Rf_install("taco_signal"), Rf_mkString(name), Rf_ScalarString(msg)));
  Rf_eval(call, ns);
  UNPROTECT(3);
  Rf_error("%s", name); /* not reached: taco_signal() always stops */
}

#define CHECK_CALL(call)                          \
  do {                                            \
    taco_error* err_ = NULL;                      \
    taco_status st_ = (call);                     \
    if (st_ != TACO_OK) signal_error(st_, err_);  \
  } while (0)

static void dataset_finalize(SEXP ptr) {
  taco_dataset* ds = (taco_dataset*)R_ExternalPtrAddr(ptr);
  if (ds != NULL) taco_dataset_free(ds);
  R_ClearExternalPtr(ptr);
}

static SEXP wrap_dataset(taco_dataset* ds) {
  SEXP ptr = PROTECT(R_MakeExternalPtr(ds, dataset_tag, R_NilValue));
  R_RegisterCFinalizerEx(ptr, dataset_finalize, TRUE);
  UNPROTECT(1);
  return ptr;
}

static taco_dataset* get_dataset(SEXP ptr) {
  taco_dataset* ds;
  if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != dataset_tag) Rf_error("not a taco dataset handle");
  ds = (taco_dataset*)R_ExternalPtrAddr(ptr);
  if (ds == NULL) Rf_error("the taco dataset handle is no longer valid (saved and reloaded?)");
  return ds;
}

/* NULL for R NULL or NA, else the UTF-8 text of a length-1 character vector. */
static const char* opt_string(SEXP x) {
  if (Rf_isNull(x)) return NULL;
  if (!Rf_isString(x) || XLENGTH(x) != 1) Rf_error("expected a single string");
  if (STRING_ELT(x, 0) == NA_STRING) return NULL;
  return Rf_translateCharUTF8(STRING_ELT(x, 0));
}

static const char* req_string(SEXP x, const char* what) {
  const char* s = opt_string(x);
  if (s == NULL) Rf_error("%s: a single string is required", what);
  return s;
}

/* Strings of a character vector (R-managed memory; valid during the call). */
static const char** string_array(SEXP x, size_t* n) {
  const char** out;
  R_xlen_t i;
  *n = Rf_isNull(x) ? 0 : (size_t)XLENGTH(x);
  out = (const char**)R_alloc(*n + 1, sizeof(char*));
  for (i = 0; i < (R_xlen_t)*n; ++i) out[i] = Rf_translateCharUTF8(STRING_ELT(x, i));
  return out;
}

static SEXP json_result(char* json) {
  SEXP out = PROTECT(Rf_allocVector(STRSXP, 1));
  SET_STRING_ELT(out, 0, Rf_mkCharCE(json, CE_UTF8));
  taco_string_free(json);
  UNPROTECT(1);
  return out;
}

SEXP r_taco_versions(void) {
  SEXP out = PROTECT(Rf_allocVector(STRSXP, 3));
  char abi[16];
  snprintf(abi, sizeof abi, "%d", taco_abi_version());
  SET_STRING_ELT(out, 0, Rf_mkChar(taco_version()));
  SET_STRING_ELT(out, 1, Rf_mkChar(taco_spec_version()));
  SET_STRING_ELT(out, 2, Rf_mkChar(abi));
  UNPROTECT(1);
  return out;
}

SEXP r_taco_log_level(SEXP level) {
  if (!Rf_isNull(level)) CHECK_CALL(taco_set_log_level(Rf_asInteger(level), &err_));
  return Rf_ScalarInteger(taco_get_log_level());
}

SEXP r_taco_open(SEXP paths, SEXP base_path, SEXP use_cache, SEXP verify_crc, SEXP ext_rasters, SEXP ext_sql) {
  taco_open_options options;
  taco_dataset* ds = NULL;
  size_t n = 0;
  const char** list = string_array(paths, &n);
  taco_open_options_init(&options);
  options.base_path = opt_string(base_path);
  options.use_cache = options.use_cache && Rf_asLogical(use_cache) == TRUE; /* TRUE: the default (TACO_NO_CACHE) */
  options.verify_crc = Rf_asLogical(verify_crc) == TRUE;
  options.allow_external_rasters = Rf_asLogical(ext_rasters) == TRUE;
  options.allow_external_sql = Rf_asLogical(ext_sql) == TRUE;
  CHECK_CALL(taco_open(list, n, &options, &ds, &err_));
  return wrap_dataset(ds);
}

SEXP r_taco_sql(SEXP ptr, SEXP query) {
  taco_dataset* out = NULL;
  CHECK_CALL(taco_dataset_sql(get_dataset(ptr), req_string(query, "query"), &out, &err_));
  return wrap_dataset(out);
}

SEXP r_taco_filter_bbox(SEXP ptr, SEXP bbox, SEXP geometry_column, SEXP level) {
  taco_dataset* out = NULL;
  const double* b;
  if (!Rf_isReal(bbox) || XLENGTH(bbox) != 4) Rf_error("bbox: four numbers (min_x, min_y, max_x, max_y) are required");
  b = REAL(bbox);
  CHECK_CALL(taco_dataset_filter_bbox(get_dataset(ptr), b[0], b[1], b[2], b[3], opt_string(geometry_column),
                                      Rf_asInteger(level), &out, &err_));
  return wrap_dataset(out);
}

SEXP r_taco_filter_datetime(SEXP ptr, SEXP range, SEXP time_column, SEXP level) {
  taco_dataset* out = NULL;
  CHECK_CALL(taco_dataset_filter_datetime(get_dataset(ptr), req_string(range, "range"), opt_string(time_column),
                                          Rf_asInteger(level), &out, &err_));
  return wrap_dataset(out);
}

SEXP r_taco_row_count(SEXP ptr) {
  int64_t n = 0;
  CHECK_CALL(taco_dataset_row_count(get_dataset(ptr), &n, &err_));
  return Rf_ScalarReal((double)n);
}

SEXP r_taco_describe(SEXP ptr) {
  taco_dataset* ds = get_dataset(ptr);
  SEXP out = PROTECT(Rf_allocVector(STRSXP, 2));
  SET_STRING_ELT(out, 0, Rf_mkCharCE(taco_dataset_path(ds), CE_UTF8));
  SET_STRING_ELT(out, 1, Rf_mkChar(taco_dataset_format(ds)));
  UNPROTECT(1);
  return out;
}

SEXP r_taco_data(SEXP ptr, SEXP raw) {
  struct ArrowArrayStream stream;
  CHECK_CALL(taco_dataset_arrow_stream(get_dataset(ptr), Rf_asLogical(raw) == TRUE, &stream, &err_));
  return taco_r_stream_to_df(&stream);
}

/* keys: a list of length-1 numeric (0-based position) or character (id) vectors. */
static taco_key* make_keys(SEXP keys, size_t* n) {
  taco_key* out;
  R_xlen_t i;
  if (TYPEOF(keys) != VECSXP || XLENGTH(keys) == 0) Rf_error("at least one key (a position or an id) is required");
  *n = (size_t)XLENGTH(keys);
  out = (taco_key*)R_alloc(*n, sizeof(taco_key));
  for (i = 0; i < (R_xlen_t)*n; ++i) {
    SEXP k = VECTOR_ELT(keys, i);
    if (XLENGTH(k) != 1) Rf_error("key %d: a single position or id is required", (int)i + 1);
    if (Rf_isString(k)) {
      out[i].id = req_string(k, "key");
      out[i].position = 0;
    } else if (Rf_isNumeric(k)) {
      double v = Rf_asReal(k);
      if (ISNAN(v) || v < 0 || v != (double)(int64_t)v) Rf_error("key %d: a position is a whole number >= 0", (int)i + 1);
      out[i].id = NULL;
      out[i].position = (int64_t)v;
    } else {
      Rf_error("key %d: a position (number) or an id (string) is required", (int)i + 1);
    }
  }
  return out;
}

static void node_finalize(SEXP ptr) {
  taco_node* node = (taco_node*)R_ExternalPtrAddr(ptr);
  if (node != NULL) taco_node_free(node);
  R_ClearExternalPtr(ptr);
}

/* list(id, type, level, gdal_path, children = data.frame or NULL) */
SEXP r_taco_read(SEXP ptr, SEXP keys) {
  size_t n = 0;
  taco_key* k = make_keys(keys, &n);
  taco_node* node = NULL;
  SEXP holder, out, names;
  const char* fields[] = {"id", "type", "level", "gdal_path", "children"};
  int i;
  CHECK_CALL(taco_dataset_read(get_dataset(ptr), k, n, &node, &err_));
  holder = PROTECT(R_MakeExternalPtr(node, R_NilValue, R_NilValue));
  R_RegisterCFinalizerEx(holder, node_finalize, TRUE);
  out = PROTECT(Rf_allocVector(VECSXP, 5));
  names = PROTECT(Rf_allocVector(STRSXP, 5));
  for (i = 0; i < 5; ++i) SET_STRING_ELT(names, i, Rf_mkChar(fields[i]));
  SET_VECTOR_ELT(out, 0, Rf_ScalarString(Rf_mkCharCE(taco_node_id(node), CE_UTF8)));
  SET_VECTOR_ELT(out, 1, Rf_mkString(taco_node_type(node)));
  SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(taco_node_level(node)));
  SET_VECTOR_ELT(out, 3, Rf_ScalarString(Rf_mkCharCE(taco_node_gdal_path(node), CE_UTF8)));
  if (!taco_node_is_file(node)) {
    taco_frame* frame = NULL;
    struct ArrowArrayStream stream;
    taco_status st;
    taco_error* err = NULL;
    st = taco_node_children(node, &frame, &err);
    if (st != TACO_OK) signal_error(st, err);
    st = taco_frame_arrow_stream(frame, 0, &stream, &err);
    taco_frame_free(frame);
    if (st != TACO_OK) signal_error(st, err);
    SET_VECTOR_ELT(out, 4, taco_r_stream_to_df(&stream));
  }
  Rf_setAttrib(out, R_NamesSymbol, names);
  node_finalize(holder);
  UNPROTECT(3);
  return out;
}

SEXP r_taco_read_bytes(SEXP ptr, SEXP keys) {
  size_t n = 0, size = 0;
  taco_key* k = make_keys(keys, &n);
  taco_node* node = NULL;
  SEXP holder, out;
  taco_status st;
  taco_error* err = NULL;
  CHECK_CALL(taco_dataset_read(get_dataset(ptr), k, n, &node, &err_));
  holder = PROTECT(R_MakeExternalPtr(node, R_NilValue, R_NilValue));
  R_RegisterCFinalizerEx(holder, node_finalize, TRUE);
  st = taco_node_read_bytes(node, NULL, 0, &size, &err);
  if (st != TACO_OK) signal_error(st, err);
  out = PROTECT(Rf_allocVector(RAWSXP, (R_xlen_t)size));
  st = taco_node_read_bytes(node, RAW(out), size, &size, &err);
  if (st != TACO_OK) signal_error(st, err);
  node_finalize(holder);
  UNPROTECT(2);
  return out;
}

SEXP r_taco_stats(SEXP ptr, SEXP bands, SEXP level, SEXP id, SEXP file, SEXP method) {
  taco_stats_query q;
  char* json = NULL;
  SEXP b = PROTECT(Rf_coerceVector(bands, INTSXP));
  taco_stats_query_init(&q);
  q.bands = INTEGER(b);
  q.num_bands = (size_t)XLENGTH(b);
  q.level = Rf_asInteger(level);
  q.id = opt_string(id);
  q.file = opt_string(file);
  q.method = opt_string(method);
  CHECK_CALL(taco_dataset_stats(get_dataset(ptr), &q, &json, &err_));
  UNPROTECT(1);
  return json_result(json);
}

SEXP r_taco_info(SEXP ptr) {
  char* json = NULL;
  CHECK_CALL(taco_dataset_info_json(get_dataset(ptr), &json, &err_));
  return json_result(json);
}

SEXP r_taco_validate(SEXP path, SEXP max_per_rule, SEXP tiff_profile, SEXP check_data) {
  taco_validate_options o;
  char* json = NULL;
  taco_validate_options_init(&o);
  o.max_per_rule = (size_t)Rf_asInteger(max_per_rule);
  o.tiff_profile = Rf_asLogical(tiff_profile) == TRUE;
  o.check_data = Rf_asLogical(check_data) == TRUE;
  CHECK_CALL(taco_validate(req_string(path, "path"), &o, &json, NULL, &err_));
  return json_result(json);
}

SEXP r_taco_create(SEXP src, SEXP out, SEXP args) {
  /* args: list(collection, order, metadata, ext, time_column, classes, pad_to, non_strict,
   * require_metadata, split_size, group_by, consolidate, format) */
  taco_create_options o;
  char* json = NULL;
  SEXP classes = PROTECT(Rf_coerceVector(VECTOR_ELT(args, 5), REALSXP));
  taco_create_options_init(&o);
  o.collection = opt_string(VECTOR_ELT(args, 0));
  o.order = opt_string(VECTOR_ELT(args, 1));
  o.metadata = string_array(VECTOR_ELT(args, 2), &o.num_metadata);
  o.extensions = string_array(VECTOR_ELT(args, 3), &o.num_extensions);
  o.time_column = opt_string(VECTOR_ELT(args, 4));
  o.classes = REAL(classes);
  o.num_classes = (size_t)XLENGTH(classes);
  o.pad_to = (size_t)Rf_asInteger(VECTOR_ELT(args, 6));
  o.non_strict = Rf_asLogical(VECTOR_ELT(args, 7)) == TRUE;
  o.require_metadata = Rf_asLogical(VECTOR_ELT(args, 8)) == TRUE;
  o.split_size = opt_string(VECTOR_ELT(args, 9));
  o.group_by = string_array(VECTOR_ELT(args, 10), &o.num_group_by);
  o.consolidate = Rf_asLogical(VECTOR_ELT(args, 11)) == TRUE;
  o.format = opt_string(VECTOR_ELT(args, 12));
  CHECK_CALL(taco_create(req_string(src, "src"), req_string(out, "output"), &o, &json, &err_));
  UNPROTECT(1);
  return json_result(json);
}

SEXP r_taco_convert(SEXP input, SEXP output, SEXP format) {
  char* json = NULL;
  CHECK_CALL(taco_convert(req_string(input, "input"), req_string(output, "output"), opt_string(format), &json, &err_));
  return json_result(json);
}

SEXP r_taco_export(SEXP ptr, SEXP output, SEXP format) {
  char* json = NULL;
  CHECK_CALL(taco_export(get_dataset(ptr), req_string(output, "output"), opt_string(format), &json, &err_));
  return json_result(json);
}

SEXP r_taco_tacocat(SEXP inputs, SEXP output_dir, SEXP single_file, SEXP align) {
  taco_tacocat_options o;
  char* written = NULL;
  size_t n = 0;
  const char** list = string_array(inputs, &n);
  taco_tacocat_options_init(&o);
  o.output_dir = opt_string(output_dir);
  o.single_file = Rf_asLogical(single_file) == TRUE;
  o.align_schemas = Rf_asLogical(align) == TRUE;
  CHECK_CALL(taco_tacocat(list, n, &o, &written, &err_));
  return json_result(written);
}

static const R_CallMethodDef call_methods[] = {
  {"r_taco_versions", (DL_FUNC)&r_taco_versions, 0},
  {"r_taco_log_level", (DL_FUNC)&r_taco_log_level, 1},
  {"r_taco_open", (DL_FUNC)&r_taco_open, 6},
  {"r_taco_sql", (DL_FUNC)&r_taco_sql, 2},
  {"r_taco_filter_bbox", (DL_FUNC)&r_taco_filter_bbox, 4},
  {"r_taco_filter_datetime", (DL_FUNC)&r_taco_filter_datetime, 4},
  {"r_taco_row_count", (DL_FUNC)&r_taco_row_count, 1},
  {"r_taco_describe", (DL_FUNC)&r_taco_describe, 1},
  {"r_taco_data", (DL_FUNC)&r_taco_data, 2},
  {"r_taco_read", (DL_FUNC)&r_taco_read, 2},
  {"r_taco_read_bytes", (DL_FUNC)&r_taco_read_bytes, 2},
  {"r_taco_stats", (DL_FUNC)&r_taco_stats, 6},
  {"r_taco_info", (DL_FUNC)&r_taco_info, 1},
  {"r_taco_validate", (DL_FUNC)&r_taco_validate, 4},
  {"r_taco_create", (DL_FUNC)&r_taco_create, 3},
  {"r_taco_convert", (DL_FUNC)&r_taco_convert, 3},
  {"r_taco_export", (DL_FUNC)&r_taco_export, 3},
  {"r_taco_tacocat", (DL_FUNC)&r_taco_tacocat, 4},
  {NULL, NULL, 0}};

void R_init_taco(DllInfo* dll) {
  dataset_tag = Rf_install("taco_dataset");
  R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
}
