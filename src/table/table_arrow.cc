#include "table/table_arrow.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace taco::table {
namespace {

bool Supported(const DataType& type) {
  switch (type.id) {
    case TypeId::kBool:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kTimestampUs: return true;
    case TypeId::kList: return type.children.size() == 1 && Supported(type.item());
    default: return false;
  }
}

// ---- schemas: every string and child owned by a SchemaHolder in private_data ------------

struct SchemaHolder {
  std::string format, name;
  std::vector<std::unique_ptr<ArrowSchema>> children;
  std::vector<ArrowSchema*> child_pointers;
};

void ReleaseSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  auto* holder = static_cast<SchemaHolder*>(schema->private_data);
  for (auto& child : holder->children) {
    if (child->release != nullptr) child->release(child.get());
  }
  delete holder;
  schema->release = nullptr;
}

void MakeSchema(std::string format, std::string name, ArrowSchema* out) {
  auto* holder = new SchemaHolder{std::move(format), std::move(name), {}, {}};
  *out = ArrowSchema{};
  out->format = holder->format.c_str();
  out->name = holder->name.c_str();
  out->flags = ARROW_FLAG_NULLABLE;
  out->release = &ReleaseSchema;
  out->private_data = holder;
}

ArrowSchema* AddChild(ArrowSchema* parent) {
  auto* holder = static_cast<SchemaHolder*>(parent->private_data);
  holder->children.push_back(std::make_unique<ArrowSchema>());
  holder->child_pointers.push_back(holder->children.back().get());
  parent->n_children = static_cast<int64_t>(holder->children.size());
  parent->children = holder->child_pointers.data();
  return holder->children.back().get();
}

void SchemaOf(const DataType& type, const std::string& name, ArrowSchema* out) {
  switch (type.id) {
    case TypeId::kBool: MakeSchema("b", name, out); return;
    case TypeId::kInt32: MakeSchema("i", name, out); return;
    case TypeId::kInt64: MakeSchema("l", name, out); return;
    case TypeId::kFloat: MakeSchema("f", name, out); return;
    case TypeId::kDouble: MakeSchema("g", name, out); return;
    case TypeId::kString: MakeSchema("u", name, out); return;
    case TypeId::kBinary: MakeSchema("z", name, out); return;
    case TypeId::kTimestampUs: MakeSchema("tsu:", name, out); return;
    default:  // kList (Supported() checked it)
      MakeSchema("+l", name, out);
      SchemaOf(type.item(), "l", AddChild(out));
      return;
  }
}

// ---- arrays: buffers and children owned by an ArrayHolder in private_data ---------------

struct ArrayHolder {
  std::vector<std::string> buffers;  // validity, then offsets/values/data as the type needs
  std::vector<const void*> buffer_pointers;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::vector<ArrowArray*> child_pointers;
};

void ReleaseArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  auto* holder = static_cast<ArrayHolder*>(array->private_data);
  for (auto& child : holder->children) {
    if (child->release != nullptr) child->release(child.get());
  }
  delete holder;
  array->release = nullptr;
}

template <typename T>
void Append(std::string& buffer, T v) {
  buffer.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Builds the array of values[begin, end) of `type`; false when a value does not fit the type.
bool BuildArray(const DataType& type, const std::vector<const Value*>& values, ArrowArray* out);

template <typename T>
bool Fixed(const std::vector<const Value*>& values, std::string& data) {
  data.reserve(values.size() * sizeof(T));
  for (const Value* v : values) {
    if (v->is_null()) {
      Append(data, T{});
    } else if (v->is<T>()) {
      Append(data, v->get<T>());
    } else {
      return false;
    }
  }
  return true;
}

bool BuildArray(const DataType& type, const std::vector<const Value*>& values, ArrowArray* out) {
  auto holder = std::make_unique<ArrayHolder>();
  const size_t n = values.size();
  std::string validity((n + 7) / 8, '\0');
  int64_t nulls = 0;
  for (size_t i = 0; i < n; ++i) {
    if (values[i]->is_null()) {
      ++nulls;
    } else {
      validity[i / 8] = static_cast<char>(validity[i / 8] | (1 << (i % 8)));
    }
  }
  holder->buffers.push_back(std::move(validity));
  std::vector<std::unique_ptr<ArrowArray>> children;
  bool ok = true;
  switch (type.id) {
    case TypeId::kBool: {
      std::string bits((n + 7) / 8, '\0');
      for (size_t i = 0; i < n && ok; ++i) {
        if (values[i]->is_null()) continue;
        if (!values[i]->is<bool>())
          ok = false;
        else if (values[i]->get<bool>())
          bits[i / 8] = static_cast<char>(bits[i / 8] | (1 << (i % 8)));
      }
      holder->buffers.push_back(std::move(bits));
      break;
    }
    case TypeId::kInt32: holder->buffers.emplace_back(), ok = Fixed<int32_t>(values, holder->buffers.back()); break;
    case TypeId::kInt64: holder->buffers.emplace_back(), ok = Fixed<int64_t>(values, holder->buffers.back()); break;
    case TypeId::kFloat: holder->buffers.emplace_back(), ok = Fixed<float>(values, holder->buffers.back()); break;
    case TypeId::kDouble: holder->buffers.emplace_back(), ok = Fixed<double>(values, holder->buffers.back()); break;
    case TypeId::kTimestampUs: {
      std::string data;
      data.reserve(n * 8);
      for (size_t i = 0; i < n && ok; ++i) {
        if (values[i]->is_null())
          Append(data, int64_t{0});
        else if (values[i]->is<TimestampUs>())
          Append(data, values[i]->get<TimestampUs>().micros);
        else
          ok = false;
      }
      holder->buffers.push_back(std::move(data));
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string offsets, data;
      offsets.reserve((n + 1) * 4);
      Append(offsets, int32_t{0});
      for (size_t i = 0; i < n && ok; ++i) {
        const Value& v = *values[i];
        if (v.is<std::string>() && type.id == TypeId::kString)
          data += v.get<std::string>();
        else if (v.is<Binary>() && type.id == TypeId::kBinary)
          data += v.get<Binary>().bytes;
        else if (!v.is_null())
          ok = false;
        if (data.size() > static_cast<size_t>(INT32_MAX)) ok = false;  // beyond 32-bit offsets: the engine's turn
        Append(offsets, static_cast<int32_t>(data.size()));
      }
      holder->buffers.push_back(std::move(offsets));
      holder->buffers.push_back(std::move(data));
      break;
    }
    default: {  // kList
      std::string offsets;
      std::vector<const Value*> items;
      Append(offsets, int32_t{0});
      for (size_t i = 0; i < n && ok; ++i) {
        const Value& v = *values[i];
        if (v.is<ValueList>()) {
          for (const Value& item : v.get<ValueList>()) items.push_back(&item);
        } else if (!v.is_null()) {
          ok = false;
        }
        if (items.size() > static_cast<size_t>(INT32_MAX)) ok = false;
        Append(offsets, static_cast<int32_t>(items.size()));
      }
      holder->buffers.push_back(std::move(offsets));
      if (ok) {
        auto child = std::make_unique<ArrowArray>();
        ok = BuildArray(type.item(), items, child.get());
        if (ok) children.push_back(std::move(child));
      }
      break;
    }
  }
  if (!ok) {
    for (auto& c : children) ReleaseArray(c.get());
    return false;
  }
  for (const std::string& b : holder->buffers) holder->buffer_pointers.push_back(b.data());
  holder->children = std::move(children);
  for (auto& c : holder->children) holder->child_pointers.push_back(c.get());
  *out = ArrowArray{};
  out->length = static_cast<int64_t>(n);
  out->null_count = nulls;
  out->n_buffers = static_cast<int64_t>(holder->buffer_pointers.size());
  out->buffers = holder->buffer_pointers.data();
  out->n_children = static_cast<int64_t>(holder->child_pointers.size());
  out->children = holder->child_pointers.empty() ? nullptr : holder->child_pointers.data();
  out->release = &ReleaseArray;
  out->private_data = holder.release();
  return true;
}

// ---- the stream ------------------------------------------------------------------------

struct Stream {
  const Table* source = nullptr;  // only while building
  std::vector<std::string> names;
  std::vector<DataType> types;
  std::vector<ArrowArray> batches;
  size_t next = 0;
  ~Stream() {
    for (size_t i = next; i < batches.size(); ++i) ReleaseArray(&batches[i]);
  }
};

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* s = static_cast<Stream*>(stream->private_data);
  MakeSchema("+s", "", out);
  out->flags = 0;
  for (size_t c = 0; c < s->names.size(); ++c) SchemaOf(s->types[c], s->names[c], AddChild(out));
  return 0;
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* s = static_cast<Stream*>(stream->private_data);
  if (s->next >= s->batches.size()) {
    *out = ArrowArray{};
    return 0;
  }
  *out = s->batches[s->next];
  s->batches[s->next].release = nullptr;
  ++s->next;
  return 0;
}

const char* GetLastError(ArrowArrayStream*) { return nullptr; }

void ReleaseStream(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete static_cast<Stream*>(stream->private_data);
  stream->release = nullptr;
}

}  // namespace

bool CanExportTableArrow(const Table& table) {
  if (table.columns.empty()) return false;
  for (const Column& c : table.columns) {
    if (!Supported(c.type)) return false;
  }
  return true;
}

Status TableToArrowStream(const Table& table, ArrowArrayStream* out) {
  if (!CanExportTableArrow(table)) return Status::NotSupported("a column type the engine-free Arrow export lacks");
  auto stream = std::make_unique<Stream>();
  for (const Column& c : table.columns) {
    stream->names.push_back(c.name);
    stream->types.push_back(c.type);
  }
  const size_t rows = table.num_rows();
  for (size_t begin = 0; begin < rows; begin += kTableArrowBatchRows) {
    const size_t end = std::min<size_t>(rows, begin + kTableArrowBatchRows);
    auto holder = std::make_unique<ArrayHolder>();
    holder->buffers.emplace_back();  // a struct batch without nulls: no validity bitmap
    holder->buffer_pointers.push_back(nullptr);
    for (const Column& c : table.columns) {
      std::vector<const Value*> values;
      values.reserve(end - begin);
      for (size_t i = begin; i < end; ++i) values.push_back(&c.values[i]);
      auto child = std::make_unique<ArrowArray>();
      if (!BuildArray(c.type, values, child.get())) {
        for (auto& done : holder->children) ReleaseArray(done.get());
        return Status::NotSupported("column \"" + c.name + "\" holds a value of another type");
      }
      holder->children.push_back(std::move(child));
    }
    for (auto& ch : holder->children) holder->child_pointers.push_back(ch.get());
    ArrowArray batch{};
    batch.length = static_cast<int64_t>(end - begin);
    batch.n_buffers = 1;
    batch.buffers = holder->buffer_pointers.data();
    batch.n_children = static_cast<int64_t>(holder->child_pointers.size());
    batch.children = holder->child_pointers.data();
    batch.release = &ReleaseArray;
    batch.private_data = holder.release();
    stream->batches.push_back(batch);
  }
  *out = ArrowArrayStream{};
  out->get_schema = &GetSchema;
  out->get_next = &GetNext;
  out->get_last_error = &GetLastError;
  out->release = &ReleaseStream;
  out->private_data = stream.release();
  return Status::OK();
}

}  // namespace taco::table
