#include "table/arrow_stream.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "duckdb/common/arrow/result_arrow_wrapper.hpp"

namespace taco::table {
namespace {

// ---- deep copy of an ArrowSchema (for repeated get_schema calls) -------------------------

// Byte length of an Arrow metadata blob: int32 count, then per pair int32 length + bytes twice.
size_t MetadataLength(const char* metadata) {
  if (metadata == nullptr) return 0;
  auto read_i32 = [&](size_t at) {
    int32_t v = 0;
    std::memcpy(&v, metadata + at, sizeof v);
    return v;
  };
  size_t at = 0;
  const int32_t pairs = read_i32(at);
  at += 4;
  for (int32_t i = 0; i < pairs * 2; ++i) {
    const int32_t n = read_i32(at);
    at += 4 + static_cast<size_t>(n);
  }
  return at;
}

char* CopyBytes(const char* src, size_t n) {
  char* out = static_cast<char*>(std::malloc(n + 1));
  if (out == nullptr) throw std::bad_alloc();
  if (n) std::memcpy(out, src, n);
  out[n] = '\0';
  return out;
}

void ReleaseCopiedSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  std::free(const_cast<char*>(schema->format));
  std::free(const_cast<char*>(schema->name));
  std::free(const_cast<char*>(schema->metadata));
  for (int64_t i = 0; i < schema->n_children; ++i) {
    ReleaseCopiedSchema(schema->children[i]);
    delete schema->children[i];
  }
  delete[] schema->children;
  if (schema->dictionary != nullptr) {
    ReleaseCopiedSchema(schema->dictionary);
    delete schema->dictionary;
  }
  schema->release = nullptr;
}

// `out` = a deep copy of `src` whose release frees only what the copy allocated.
void CopySchema(const ArrowSchema& src, ArrowSchema* out) {
  *out = ArrowSchema{};
  out->release = &ReleaseCopiedSchema;  // set first: a partial copy is still released fully
  out->format = CopyBytes(src.format, std::strlen(src.format));
  out->name = src.name != nullptr ? CopyBytes(src.name, std::strlen(src.name)) : nullptr;
  out->metadata = src.metadata != nullptr ? CopyBytes(src.metadata, MetadataLength(src.metadata)) : nullptr;
  out->flags = src.flags;
  if (src.n_children > 0) {
    out->children = new ArrowSchema*[static_cast<size_t>(src.n_children)]();
    for (int64_t i = 0; i < src.n_children; ++i) {
      out->children[i] = new ArrowSchema{};
      out->n_children = i + 1;
      CopySchema(*src.children[i], out->children[i]);
    }
  }
  if (src.dictionary != nullptr) {
    out->dictionary = new ArrowSchema{};
    CopySchema(*src.dictionary, out->dictionary);
  }
}

// ---- the stream: batches converted up front ----------------------------------------------

struct Batches {
  ArrowSchema schema{};
  std::vector<ArrowArray> arrays;  // moved out one by one by get_next
  size_t next = 0;
  std::string last_error;

  ~Batches() {
    if (schema.release != nullptr) schema.release(&schema);
    for (size_t i = next; i < arrays.size(); ++i) {
      if (arrays[i].release != nullptr) arrays[i].release(&arrays[i]);
    }
  }
};

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* b = static_cast<Batches*>(stream->private_data);
  try {
    CopySchema(b->schema, out);
    return 0;
  } catch (const std::exception& ex) {
    if (out->release != nullptr) out->release(out);
    b->last_error = std::string("cannot copy the Arrow schema: ") + ex.what();
    return ENOMEM;
  }
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* b = static_cast<Batches*>(stream->private_data);
  if (b->next >= b->arrays.size()) {
    *out = ArrowArray{};  // release == nullptr: end of stream
    return 0;
  }
  *out = b->arrays[b->next];
  b->arrays[b->next].release = nullptr;
  ++b->next;
  return 0;
}

const char* GetLastError(ArrowArrayStream* stream) {
  auto* b = static_cast<Batches*>(stream->private_data);
  return b->last_error.empty() ? nullptr : b->last_error.c_str();
}

void Release(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete static_cast<Batches*>(stream->private_data);
  stream->private_data = nullptr;
  stream->release = nullptr;
}

// Calls DuckDB's stream until its end, moving every batch into `b`.
Status Drain(ArrowArrayStream& duck, Batches& b) {
  if (duck.get_schema(&duck, &b.schema) != 0) {
    const char* e = duck.get_last_error(&duck);
    return Status::Internal(std::string("cannot describe the result as Arrow: ") + (e ? e : "unknown error"));
  }
  while (true) {
    ArrowArray array{};
    if (duck.get_next(&duck, &array) != 0) {
      const char* e = duck.get_last_error(&duck);
      return Status::Internal(std::string("cannot convert the result to Arrow: ") + (e ? e : "unknown error"));
    }
    if (array.release == nullptr) break;
    b.arrays.push_back(array);
  }
  return Status::OK();
}

}  // namespace

Status MaterializedResultToArrowStream(duckdb::unique_ptr<duckdb::MaterializedQueryResult> result,
                                       ArrowArrayStream* out) {
  auto batches = std::make_unique<Batches>();
  // DuckDB's wrapper deletes itself in its stream's release.
  auto* wrapper = new duckdb::ResultArrowArrayStreamWrapper(std::move(result), kArrowBatchRows);
  Status st;
  try {
    st = Drain(wrapper->stream, *batches);
  } catch (const std::exception& ex) {
    st = Status::Internal(std::string("cannot convert the result to Arrow: ") + ex.what());
  }
  wrapper->stream.release(&wrapper->stream);
  TACO_RETURN_IF_ERROR(st);
  *out = ArrowArrayStream{};
  out->get_schema = &GetSchema;
  out->get_next = &GetNext;
  out->get_last_error = &GetLastError;
  out->release = &Release;
  out->private_data = batches.release();
  return Status::OK();
}

}  // namespace taco::table
