/* Arrow C stream -> R data.frame, column by column (never row by row through R code).
 *
 * Types: bool -> logical; int8/16/32, uint8/16 -> integer; uint32, int64, uint64, float,
 * double, decimal128 -> double (int64/uint64 beyond 2^53 set *lossy); utf8 / large utf8 ->
 * character (UTF-8); binary / large binary -> list of raw vectors (NULL for null; WKB
 * geometry: sf::st_as_sfc(structure(x, class = "WKB"))); timestamp (any unit, any zone) ->
 * POSIXct UTC; date32 -> Date; list / large list / fixed-size list / map -> list column
 * whose elements are converted the same way; struct -> list column of named lists;
 * utf8-dictionary -> character; null -> logical NA. Anything else: an R error naming the
 * column and its Arrow format. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include "taco/taco.h"
#include "taco_r.h"

static const double kMaxExact = 9007199254740992.0; /* 2^53 */
static const int64_t kMaxExactInt = (int64_t)1 << 53;

static int is_valid(const struct ArrowArray* a, int64_t i) {
  const uint8_t* bits;
  if (a->null_count == 0 || a->n_buffers == 0 || a->buffers[0] == NULL) return 1;
  bits = (const uint8_t*)a->buffers[0];
  i += a->offset;
  return (bits[i >> 3] >> (i & 7)) & 1;
}

typedef enum {
  K_NULL, K_BOOL, K_INT, K_DOUBLE, K_INT64, K_UINT64, K_UINT32, K_FLOAT, K_DECIMAL, K_STRING, K_LARGE_STRING,
  K_BINARY, K_LARGE_BINARY, K_TIMESTAMP, K_DATE32, K_LIST, K_LARGE_LIST, K_FIXED_LIST, K_STRUCT, K_DICT_STRING,
  K_UNSUPPORTED
} Kind;

typedef struct {
  Kind kind;
  int int_width;   /* K_INT: 1, 2, 4 bytes; signedness in int_signed */
  int int_signed;
  double ts_scale; /* K_TIMESTAMP: divide by this to get seconds */
  int decimal_scale;
  int64_t fixed_size;
} TypeInfo;

static TypeInfo type_of(const struct ArrowSchema* s) {
  TypeInfo t;
  const char* f = s->format;
  memset(&t, 0, sizeof t);
  t.kind = K_UNSUPPORTED;
  if (s->dictionary != NULL) {
    const char* d = s->dictionary->format;
    if (strcmp(d, "u") == 0 || strcmp(d, "U") == 0) t.kind = K_DICT_STRING;
    return t;
  }
  if (strcmp(f, "n") == 0) t.kind = K_NULL;
  else if (strcmp(f, "b") == 0) t.kind = K_BOOL;
  else if (strcmp(f, "c") == 0) { t.kind = K_INT; t.int_width = 1; t.int_signed = 1; }
  else if (strcmp(f, "C") == 0) { t.kind = K_INT; t.int_width = 1; }
  else if (strcmp(f, "s") == 0) { t.kind = K_INT; t.int_width = 2; t.int_signed = 1; }
  else if (strcmp(f, "S") == 0) { t.kind = K_INT; t.int_width = 2; }
  else if (strcmp(f, "i") == 0) { t.kind = K_INT; t.int_width = 4; t.int_signed = 1; }
  else if (strcmp(f, "I") == 0) t.kind = K_UINT32;
  else if (strcmp(f, "l") == 0) t.kind = K_INT64;
  else if (strcmp(f, "L") == 0) t.kind = K_UINT64;
  else if (strcmp(f, "f") == 0) t.kind = K_FLOAT;
  else if (strcmp(f, "g") == 0) t.kind = K_DOUBLE;
  else if (strncmp(f, "d:", 2) == 0) {
    const char* comma = strchr(f + 2, ',');
    const char* bits = comma != NULL ? strchr(comma + 1, ',') : NULL;
    if (comma != NULL && (bits == NULL || atoi(bits + 1) == 128)) {
      t.kind = K_DECIMAL;
      t.decimal_scale = atoi(comma + 1);
    }
  } else if (strcmp(f, "u") == 0) t.kind = K_STRING;
  else if (strcmp(f, "U") == 0) t.kind = K_LARGE_STRING;
  else if (strcmp(f, "z") == 0) t.kind = K_BINARY;
  else if (strcmp(f, "Z") == 0) t.kind = K_LARGE_BINARY;
  else if (strncmp(f, "ts", 2) == 0 && strlen(f) >= 4 && f[3] == ':') {
    t.kind = K_TIMESTAMP;
    t.ts_scale = f[2] == 's' ? 1.0 : f[2] == 'm' ? 1e3 : f[2] == 'u' ? 1e6 : 1e9;
  } else if (strcmp(f, "tdD") == 0) t.kind = K_DATE32;
  else if (strcmp(f, "+l") == 0 || strcmp(f, "+m") == 0) t.kind = K_LIST;
  else if (strcmp(f, "+L") == 0) t.kind = K_LARGE_LIST;
  else if (strncmp(f, "+w:", 3) == 0) { t.kind = K_FIXED_LIST; t.fixed_size = atoll(f + 3); }
  else if (strcmp(f, "+s") == 0) t.kind = K_STRUCT;
  return t;
}

static SEXPTYPE r_type(const TypeInfo* t) {
  switch (t->kind) {
    case K_NULL: case K_BOOL: return LGLSXP;
    case K_INT: return INTSXP;
    case K_DOUBLE: case K_INT64: case K_UINT64: case K_UINT32: case K_FLOAT: case K_DECIMAL: case K_TIMESTAMP:
    case K_DATE32: return REALSXP;
    case K_STRING: case K_LARGE_STRING: case K_DICT_STRING: return STRSXP;
    default: return VECSXP;
  }
}

static SEXP convert_range(const struct ArrowSchema* s, const struct ArrowArray* a, int64_t start, int64_t len,
                          int* lossy);

static SEXP utf8_elt(const char* data, int64_t begin, int64_t end) {
  return Rf_mkCharLenCE(data + begin, (int)(end - begin), CE_UTF8);
}

/* Writes rows [start, start + len) of `a` into out[at ...]. */
static void fill(SEXP out, R_xlen_t at, const struct ArrowSchema* s, const struct ArrowArray* a, int64_t start,
                 int64_t len, int* lossy) {
  TypeInfo t = type_of(s);
  int64_t i;
  const int64_t off = a->offset;
  switch (t.kind) {
    case K_NULL:
      for (i = 0; i < len; ++i) LOGICAL(out)[at + i] = NA_LOGICAL;
      return;
    case K_BOOL: {
      const uint8_t* bits = (const uint8_t*)a->buffers[1];
      for (i = 0; i < len; ++i) {
        int64_t k = start + i + off;
        LOGICAL(out)[at + i] = is_valid(a, start + i) ? (bits[k >> 3] >> (k & 7)) & 1 : NA_LOGICAL;
      }
      return;
    }
    case K_INT: {
      int* dst = INTEGER(out) + at;
      for (i = 0; i < len; ++i) {
        int64_t k = start + i + off;
        int v;
        if (!is_valid(a, start + i)) { dst[i] = NA_INTEGER; continue; }
        if (t.int_width == 4) v = ((const int32_t*)a->buffers[1])[k];
        else if (t.int_width == 2) v = t.int_signed ? ((const int16_t*)a->buffers[1])[k] : ((const uint16_t*)a->buffers[1])[k];
        else v = t.int_signed ? ((const int8_t*)a->buffers[1])[k] : ((const uint8_t*)a->buffers[1])[k];
        dst[i] = v;
      }
      return;
    }
    case K_DOUBLE: case K_FLOAT: case K_INT64: case K_UINT64: case K_UINT32: case K_TIMESTAMP: case K_DATE32:
    case K_DECIMAL: {
      double* dst = REAL(out) + at;
      for (i = 0; i < len; ++i) {
        int64_t k = start + i + off;
        double v;
        if (!is_valid(a, start + i)) { dst[i] = NA_REAL; continue; }
        switch (t.kind) {
          case K_DOUBLE: v = ((const double*)a->buffers[1])[k]; break;
          case K_FLOAT: v = ((const float*)a->buffers[1])[k]; break;
          case K_UINT32: v = ((const uint32_t*)a->buffers[1])[k]; break;
          case K_UINT64: {
            uint64_t x = ((const uint64_t*)a->buffers[1])[k];
            if (x > (uint64_t)kMaxExactInt) *lossy = 1;
            v = (double)x;
            break;
          }
          case K_INT64: {
            int64_t x = ((const int64_t*)a->buffers[1])[k];
            if (x > kMaxExactInt || x < -kMaxExactInt) *lossy = 1;
            v = (double)x;
            break;
          }
          case K_DATE32: v = ((const int32_t*)a->buffers[1])[k]; break;
          case K_TIMESTAMP: v = (double)((const int64_t*)a->buffers[1])[k] / t.ts_scale; break;
          default: { /* decimal128, little-endian two's complement */
            const uint64_t* w = (const uint64_t*)a->buffers[1] + 2 * k;
            double hi = (double)(int64_t)w[1], lo = (double)w[0];
            v = (hi * 18446744073709551616.0 + lo) / pow(10.0, t.decimal_scale);
            if (fabs(v) > kMaxExact && t.decimal_scale == 0) *lossy = 1;
          }
        }
        dst[i] = v;
      }
      return;
    }
    case K_STRING: case K_LARGE_STRING: {
      const char* data = (const char*)a->buffers[2];
      for (i = 0; i < len; ++i) {
        int64_t k = start + i + off, b, e;
        if (!is_valid(a, start + i)) { SET_STRING_ELT(out, at + i, NA_STRING); continue; }
        if (t.kind == K_STRING) { b = ((const int32_t*)a->buffers[1])[k]; e = ((const int32_t*)a->buffers[1])[k + 1]; }
        else { b = ((const int64_t*)a->buffers[1])[k]; e = ((const int64_t*)a->buffers[1])[k + 1]; }
        SET_STRING_ELT(out, at + i, utf8_elt(data, b, e));
      }
      return;
    }
    case K_DICT_STRING: {
      const struct ArrowArray* d = a->dictionary;
      int large = strcmp(s->dictionary->format, "U") == 0;
      const char* data = (const char*)d->buffers[2];
      TypeInfo it = type_of(s); /* indices: the schema's own format */
      (void)it;
      for (i = 0; i < len; ++i) {
        int64_t k = start + i + off, idx, b, e;
        if (!is_valid(a, start + i)) { SET_STRING_ELT(out, at + i, NA_STRING); continue; }
        switch (s->format[0]) {
          case 'c': idx = ((const int8_t*)a->buffers[1])[k]; break;
          case 'C': idx = ((const uint8_t*)a->buffers[1])[k]; break;
          case 's': idx = ((const int16_t*)a->buffers[1])[k]; break;
          case 'S': idx = ((const uint16_t*)a->buffers[1])[k]; break;
          case 'i': idx = ((const int32_t*)a->buffers[1])[k]; break;
          case 'I': idx = ((const uint32_t*)a->buffers[1])[k]; break;
          default: idx = ((const int64_t*)a->buffers[1])[k];
        }
        idx += d->offset;
        if (large) { b = ((const int64_t*)d->buffers[1])[idx]; e = ((const int64_t*)d->buffers[1])[idx + 1]; }
        else { b = ((const int32_t*)d->buffers[1])[idx]; e = ((const int32_t*)d->buffers[1])[idx + 1]; }
        SET_STRING_ELT(out, at + i, utf8_elt(data, b, e));
      }
      return;
    }
    case K_BINARY: case K_LARGE_BINARY: {
      const uint8_t* data = (const uint8_t*)a->buffers[2];
      for (i = 0; i < len; ++i) {
        int64_t k = start + i + off, b, e;
        SEXP raw;
        if (!is_valid(a, start + i)) continue; /* stays NULL */
        if (t.kind == K_BINARY) { b = ((const int32_t*)a->buffers[1])[k]; e = ((const int32_t*)a->buffers[1])[k + 1]; }
        else { b = ((const int64_t*)a->buffers[1])[k]; e = ((const int64_t*)a->buffers[1])[k + 1]; }
        raw = PROTECT(Rf_allocVector(RAWSXP, (R_xlen_t)(e - b)));
        if (e > b) memcpy(RAW(raw), data + b, (size_t)(e - b));
        SET_VECTOR_ELT(out, at + i, raw);
        UNPROTECT(1);
      }
      return;
    }
    case K_LIST: case K_LARGE_LIST: case K_FIXED_LIST: {
      for (i = 0; i < len; ++i) {
        int64_t k = start + i + off, b, e;
        if (!is_valid(a, start + i)) continue;
        if (t.kind == K_LIST) { b = ((const int32_t*)a->buffers[1])[k]; e = ((const int32_t*)a->buffers[1])[k + 1]; }
        else if (t.kind == K_LARGE_LIST) { b = ((const int64_t*)a->buffers[1])[k]; e = ((const int64_t*)a->buffers[1])[k + 1]; }
        else { b = k * t.fixed_size; e = b + t.fixed_size; }
        SET_VECTOR_ELT(out, at + i, convert_range(s->children[0], a->children[0], b, e - b, lossy));
      }
      return;
    }
    case K_STRUCT: {
      int64_t c;
      for (i = 0; i < len; ++i) {
        SEXP row, names;
        if (!is_valid(a, start + i)) continue;
        row = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t)s->n_children));
        names = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)s->n_children));
        for (c = 0; c < s->n_children; ++c) {
          SET_STRING_ELT(names, c, Rf_mkCharCE(s->children[c]->name ? s->children[c]->name : "", CE_UTF8));
          SET_VECTOR_ELT(row, c, convert_range(s->children[c], a->children[c], start + i + off, 1, lossy));
        }
        Rf_setAttrib(row, R_NamesSymbol, names);
        SET_VECTOR_ELT(out, at + i, row);
        UNPROTECT(2);
      }
      return;
    }
    default:
      Rf_error("column '%s': Arrow type '%s' is not supported by the taco R package", s->name ? s->name : "",
               s->format);
  }
}

static void set_class(SEXP x, const TypeInfo* t) {
  if (t->kind == K_TIMESTAMP) {
    SEXP cls = PROTECT(Rf_allocVector(STRSXP, 2));
    SET_STRING_ELT(cls, 0, Rf_mkChar("POSIXct"));
    SET_STRING_ELT(cls, 1, Rf_mkChar("POSIXt"));
    Rf_setAttrib(x, R_ClassSymbol, cls);
    Rf_setAttrib(x, Rf_install("tzone"), Rf_mkString("UTC"));
    UNPROTECT(1);
  } else if (t->kind == K_DATE32) {
    Rf_setAttrib(x, R_ClassSymbol, Rf_mkString("Date"));
  }
}

static SEXP convert_range(const struct ArrowSchema* s, const struct ArrowArray* a, int64_t start, int64_t len,
                          int* lossy) {
  TypeInfo t = type_of(s);
  SEXP out;
  if (t.kind == K_UNSUPPORTED) {
    Rf_error("column '%s': Arrow type '%s' is not supported by the taco R package", s->name ? s->name : "", s->format);
  }
  out = PROTECT(Rf_allocVector(r_type(&t), (R_xlen_t)len));
  fill(out, 0, s, a, start, len, lossy);
  set_class(out, &t);
  UNPROTECT(1);
  return out;
}

/* Holds the stream's batches so that an R error (longjmp) cannot leak them: released by the
 * finalizer of an external pointer. */
typedef struct {
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray* batches;
  size_t count, capacity;
} Collected;

static void collected_free(SEXP ptr) {
  Collected* c = (Collected*)R_ExternalPtrAddr(ptr);
  size_t i;
  if (c == NULL) return;
  for (i = 0; i < c->count; ++i) {
    if (c->batches[i].release != NULL) c->batches[i].release(&c->batches[i]);
  }
  free(c->batches);
  if (c->schema.release != NULL) c->schema.release(&c->schema);
  if (c->stream.release != NULL) c->stream.release(&c->stream);
  free(c);
  R_ClearExternalPtr(ptr);
}

SEXP taco_r_stream_to_df(struct ArrowArrayStream* stream) {
  Collected* c = (Collected*)calloc(1, sizeof(Collected));
  SEXP holder, df, names, rownames;
  int64_t total = 0, col;
  size_t b;
  int lossy = 0;
  if (c == NULL) {
    stream->release(stream);
    Rf_error("out of memory");
  }
  c->stream = *stream;
  stream->release = NULL;
  holder = PROTECT(R_MakeExternalPtr(c, R_NilValue, R_NilValue));
  R_RegisterCFinalizerEx(holder, collected_free, TRUE);
  if (c->stream.get_schema(&c->stream, &c->schema) != 0) {
    const char* msg = c->stream.get_last_error(&c->stream);
    Rf_error("reading the Arrow schema: %s", msg ? msg : "unknown error");
  }
  for (;;) {
    struct ArrowArray batch;
    if (c->stream.get_next(&c->stream, &batch) != 0) {
      const char* msg = c->stream.get_last_error(&c->stream);
      Rf_error("reading the Arrow stream: %s", msg ? msg : "unknown error");
    }
    if (batch.release == NULL) break;
    if (c->count == c->capacity) {
      size_t cap = c->capacity ? 2 * c->capacity : 8;
      struct ArrowArray* grown = (struct ArrowArray*)realloc(c->batches, cap * sizeof(struct ArrowArray));
      if (grown == NULL) {
        batch.release(&batch);
        Rf_error("out of memory");
      }
      c->batches = grown;
      c->capacity = cap;
    }
    c->batches[c->count++] = batch;
    total += batch.length;
  }
  df = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t)c->schema.n_children));
  names = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)c->schema.n_children));
  for (col = 0; col < c->schema.n_children; ++col) {
    const struct ArrowSchema* s = c->schema.children[col];
    TypeInfo t = type_of(s);
    SEXP out;
    R_xlen_t at = 0;
    SET_STRING_ELT(names, col, Rf_mkCharCE(s->name ? s->name : "", CE_UTF8));
    if (t.kind == K_UNSUPPORTED) {
      Rf_error("column '%s': Arrow type '%s' is not supported by the taco R package", s->name ? s->name : "",
               s->format);
    }
    out = PROTECT(Rf_allocVector(r_type(&t), (R_xlen_t)total));
    for (b = 0; b < c->count; ++b) {
      const struct ArrowArray* batch = &c->batches[b];
      fill(out, at, s, batch->children[col], 0, batch->length, &lossy);
      at += (R_xlen_t)batch->length;
    }
    set_class(out, &t);
    SET_VECTOR_ELT(df, col, out);
    UNPROTECT(1);
  }
  Rf_setAttrib(df, R_NamesSymbol, names);
  rownames = PROTECT(Rf_allocVector(INTSXP, 2));
  INTEGER(rownames)[0] = NA_INTEGER;
  INTEGER(rownames)[1] = -(int)total;
  Rf_setAttrib(df, R_RowNamesSymbol, rownames);
  Rf_setAttrib(df, R_ClassSymbol, Rf_mkString("data.frame"));
  if (lossy) Rf_setAttrib(df, Rf_install("taco_int64_lossy"), Rf_ScalarLogical(1));
  collected_free(holder);
  UNPROTECT(4);
  return df;
}
