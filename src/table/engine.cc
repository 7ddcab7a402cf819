// Engine: DuckDB database + connection, typed results, Appender-based tables, Parquet bytes.
// The only translation unit of taco-cpp that includes duckdb.hpp.
#include "table/engine.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include "duckdb.hpp"
#include "duckdb/parser/parser.hpp"
#include "duckdb/parser/statement/explain_statement.hpp"
#include "table/arrow_stream.h"
#include "table/mount_fs.h"
#include "taco/log.h"
#include "util/memory_budget.h"

namespace taco::table {

namespace {

using duckdb::idx_t;
using duckdb::LogicalType;
using duckdb::LogicalTypeId;

// ---- DuckDB results → taco values ----------------------------------------------------

// The DuckDB type a vector of `type` is cast to before it is read (itself if read as is).
LogicalType ReadAs(const LogicalType& type) {
  switch (type.id()) {
    case LogicalTypeId::SQLNULL:
    case LogicalTypeId::BOOLEAN:
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
    case LogicalTypeId::FLOAT:
    case LogicalTypeId::DOUBLE:
    case LogicalTypeId::VARCHAR:
    case LogicalTypeId::BLOB:
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
    case LogicalTypeId::LIST:
    case LogicalTypeId::STRUCT: return type;
    case LogicalTypeId::UBIGINT:
    case LogicalTypeId::HUGEINT:
    case LogicalTypeId::UHUGEINT: return LogicalType::BIGINT;
    case LogicalTypeId::DECIMAL: return LogicalType::DOUBLE;
    case LogicalTypeId::DATE:
    case LogicalTypeId::TIMESTAMP_SEC:
    case LogicalTypeId::TIMESTAMP_MS:
    case LogicalTypeId::TIMESTAMP_NS: return LogicalType::TIMESTAMP;
    case LogicalTypeId::ARRAY: return LogicalType::LIST(duckdb::ArrayType::GetChildType(type));
    default: return LogicalType::VARCHAR;
  }
}

DataType MapType(const LogicalType& duck_type) {
  LogicalType type = ReadAs(duck_type);
  switch (type.id()) {
    case LogicalTypeId::SQLNULL: return DataType::Null();
    case LogicalTypeId::BOOLEAN: return DataType::Bool();
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER: return DataType::Int32();
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
    case LogicalTypeId::BIGINT: return DataType::Int64();
    case LogicalTypeId::FLOAT: return DataType::Float();
    case LogicalTypeId::DOUBLE: return DataType::Double();
    case LogicalTypeId::BLOB: return DataType::Binary();
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ: return DataType::TimestampUs();
    case LogicalTypeId::LIST: return DataType::List(MapType(duckdb::ListType::GetChildType(type)));
    case LogicalTypeId::STRUCT: {
      std::vector<std::pair<std::string, DataType>> fields;
      for (const auto& [name, child] : duckdb::StructType::GetChildTypes(type)) {
        fields.emplace_back(name, MapType(child));
      }
      return DataType::Struct(std::move(fields));
    }
    default: return DataType::String();
  }
}

template <typename Src, typename Dst>
void ReadPrimitive(duckdb::Vector& v, idx_t count, std::vector<Value>& out) {
  const Src* data = duckdb::FlatVector::GetData<Src>(v);
  const auto& validity = duckdb::FlatVector::Validity(v);
  for (idx_t i = 0; i < count; ++i) {
    if (!validity.RowIsValid(i)) {
      out.emplace_back();
    } else {
      out.emplace_back(static_cast<Dst>(data[i]));
    }
  }
}

// Appends the `count` values of `v` to `out`. Throws DuckDB exceptions (casts).
void ReadVector(duckdb::Vector& v, idx_t count, std::vector<Value>& out) {
  const LogicalType& type = v.GetType();
  LogicalType target = ReadAs(type);
  if (target != type) {
    duckdb::Vector cast(target, count);
    duckdb::VectorOperations::DefaultCast(v, cast, count, /*strict=*/true);
    ReadVector(cast, count, out);
    return;
  }
  v.Flatten(count);
  const auto& validity = duckdb::FlatVector::Validity(v);
  switch (type.id()) {
    case LogicalTypeId::SQLNULL: out.resize(out.size() + count); return;
    case LogicalTypeId::BOOLEAN: return ReadPrimitive<bool, bool>(v, count, out);
    case LogicalTypeId::TINYINT: return ReadPrimitive<int8_t, int32_t>(v, count, out);
    case LogicalTypeId::SMALLINT: return ReadPrimitive<int16_t, int32_t>(v, count, out);
    case LogicalTypeId::INTEGER: return ReadPrimitive<int32_t, int32_t>(v, count, out);
    case LogicalTypeId::UTINYINT: return ReadPrimitive<uint8_t, int64_t>(v, count, out);
    case LogicalTypeId::USMALLINT: return ReadPrimitive<uint16_t, int64_t>(v, count, out);
    case LogicalTypeId::UINTEGER: return ReadPrimitive<uint32_t, int64_t>(v, count, out);
    case LogicalTypeId::BIGINT: return ReadPrimitive<int64_t, int64_t>(v, count, out);
    case LogicalTypeId::FLOAT: return ReadPrimitive<float, float>(v, count, out);
    case LogicalTypeId::DOUBLE: return ReadPrimitive<double, double>(v, count, out);
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ: {
      const auto* data = duckdb::FlatVector::GetData<duckdb::timestamp_t>(v);
      for (idx_t i = 0; i < count; ++i) {
        if (!validity.RowIsValid(i)) {
          out.emplace_back();
        } else {
          out.emplace_back(TimestampUs{data[i].value});
        }
      }
      return;
    }
    case LogicalTypeId::VARCHAR:
    case LogicalTypeId::BLOB: {
      const bool blob = type.id() == LogicalTypeId::BLOB;
      const auto* data = duckdb::FlatVector::GetData<duckdb::string_t>(v);
      for (idx_t i = 0; i < count; ++i) {
        if (!validity.RowIsValid(i)) {
          out.emplace_back();
          continue;
        }
        std::string s(data[i].GetData(), data[i].GetSize());
        if (blob) {
          out.emplace_back(Binary{std::move(s)});
        } else {
          out.emplace_back(std::move(s));
        }
      }
      return;
    }
    case LogicalTypeId::LIST: {
      const auto* entries = duckdb::FlatVector::GetData<duckdb::list_entry_t>(v);
      std::vector<Value> items;
      idx_t child_count = duckdb::ListVector::GetListSize(v);
      items.reserve(child_count);
      ReadVector(duckdb::ListVector::GetEntry(v), child_count, items);
      for (idx_t i = 0; i < count; ++i) {
        if (!validity.RowIsValid(i)) {
          out.emplace_back();
          continue;
        }
        auto first = items.begin() + static_cast<std::ptrdiff_t>(entries[i].offset);
        out.emplace_back(ValueList(first, first + static_cast<std::ptrdiff_t>(entries[i].length)));
      }
      return;
    }
    case LogicalTypeId::STRUCT: {
      auto& children = duckdb::StructVector::GetEntries(v);
      std::vector<std::vector<Value>> fields(children.size());
      for (size_t k = 0; k < children.size(); ++k) {
        fields[k].reserve(count);
        ReadVector(*children[k], count, fields[k]);
      }
      for (idx_t i = 0; i < count; ++i) {
        if (!validity.RowIsValid(i)) {
          out.emplace_back();
          continue;
        }
        ValueStruct row;
        row.reserve(children.size());
        for (size_t k = 0; k < children.size(); ++k) {
          row.emplace_back(duckdb::StructType::GetChildName(type, k), std::move(fields[k][i]));
        }
        out.emplace_back(std::move(row));
      }
      return;
    }
    default: throw duckdb::InternalException("taco: unexpected DuckDB type " + type.ToString());
  }
}

// ---- taco values → DuckDB vectors (Appender chunks) -----------------------------------

const char* HeldTypeName(const Value& v) {
  static constexpr const char* kNames[] = {"null",   "bool",   "int32",         "int64", "float", "double",
                                           "string", "binary", "timestamp[us]", "list",  "struct"};
  return kNames[v.storage().index()];
}

Status TypeMismatch(const std::string& column, const DataType& type, const Value& v) {
  return Status::InvalidArgument("column \"" + column + "\": a " + HeldTypeName(v) + " value in a " + type.ToString() +
                                 " column");
}

Result<std::string> SqlType(const DataType& type) {
  switch (type.id) {
    case TypeId::kNull: return std::string("INTEGER");
    case TypeId::kBool: return std::string("BOOLEAN");
    case TypeId::kInt32: return std::string("INTEGER");
    case TypeId::kInt64: return std::string("BIGINT");
    case TypeId::kFloat: return std::string("FLOAT");
    case TypeId::kDouble: return std::string("DOUBLE");
    case TypeId::kString: return std::string("VARCHAR");
    case TypeId::kBinary: return std::string("BLOB");
    case TypeId::kTimestampUs: return std::string("TIMESTAMP");
    case TypeId::kList: {
      if (type.children.size() != 1) return Status::InvalidArgument("list type without an item type");
      TACO_ASSIGN_OR_RETURN(std::string item, SqlType(type.item()));
      return item + "[]";
    }
    case TypeId::kStruct: {
      if (type.children.empty()) return Status::NotSupported("struct<> without fields");
      std::string out = "STRUCT(";
      for (size_t i = 0; i < type.children.size(); ++i) {
        if (i > 0) out += ", ";
        TACO_ASSIGN_OR_RETURN(std::string field, SqlType(type.children[i].second));
        out += QuoteIdentifier(type.children[i].first) + " " + field;
      }
      return out + ")";
    }
  }
  return Status::Internal("unknown TypeId");
}

// Writes vals[i] (nullptr = null) into rows offset+i of `v` (a vector of the SQL type of
// `type`).
Status Fill(duckdb::Vector& v, const DataType& type, const std::vector<const Value*>& vals, idx_t offset,
            const std::string& column) {
  auto& validity = duckdb::FlatVector::Validity(v);
  auto is_null = [](const Value* p) { return p == nullptr || p->is_null(); };
  auto set = [&](auto* data, auto convert) -> Status {
    for (size_t i = 0; i < vals.size(); ++i) {
      if (is_null(vals[i])) {
        validity.SetInvalid(offset + i);
        continue;
      }
      if (!convert(*vals[i], data[offset + i])) return TypeMismatch(column, type, *vals[i]);
    }
    return Status::OK();
  };
  switch (type.id) {
    case TypeId::kNull:
      return set(duckdb::FlatVector::GetData<int32_t>(v), [](const Value&, int32_t&) { return false; });
    case TypeId::kBool:
      return set(duckdb::FlatVector::GetData<bool>(v), [](const Value& x, bool& d) {
        if (!x.is<bool>()) return false;
        d = x.get<bool>();
        return true;
      });
    case TypeId::kInt32:
      return set(duckdb::FlatVector::GetData<int32_t>(v), [](const Value& x, int32_t& d) {
        if (x.is<int32_t>()) {
          d = x.get<int32_t>();
          return true;
        }
        if (x.is<int64_t>() && x.get<int64_t>() >= INT32_MIN && x.get<int64_t>() <= INT32_MAX) {
          d = static_cast<int32_t>(x.get<int64_t>());
          return true;
        }
        return false;
      });
    case TypeId::kInt64:
      return set(duckdb::FlatVector::GetData<int64_t>(v), [](const Value& x, int64_t& d) {
        if (x.is<int64_t>()) {
          d = x.get<int64_t>();
        } else if (x.is<int32_t>()) {
          d = x.get<int32_t>();
        } else {
          return false;
        }
        return true;
      });
    case TypeId::kFloat:
    case TypeId::kDouble: {
      auto convert = [](const Value& x, auto& d) {
        using D = std::remove_reference_t<decltype(d)>;
        if (x.is<float>()) {
          d = static_cast<D>(x.get<float>());
        } else if (x.is<double>()) {
          d = static_cast<D>(x.get<double>());
        } else if (x.is<int32_t>()) {
          d = static_cast<D>(x.get<int32_t>());
        } else if (x.is<int64_t>()) {
          d = static_cast<D>(x.get<int64_t>());
        } else {
          return false;
        }
        return true;
      };
      if (type.id == TypeId::kFloat) return set(duckdb::FlatVector::GetData<float>(v), convert);
      return set(duckdb::FlatVector::GetData<double>(v), convert);
    }
    case TypeId::kTimestampUs:
      return set(duckdb::FlatVector::GetData<duckdb::timestamp_t>(v), [](const Value& x, duckdb::timestamp_t& d) {
        if (!x.is<TimestampUs>()) return false;
        d = duckdb::timestamp_t(x.get<TimestampUs>().micros);
        return true;
      });
    case TypeId::kString:
    case TypeId::kBinary:
      return set(duckdb::FlatVector::GetData<duckdb::string_t>(v), [&v](const Value& x, duckdb::string_t& d) {
        const std::string* s = nullptr;
        if (x.is<std::string>()) s = &x.get<std::string>();
        if (x.is<Binary>()) s = &x.get<Binary>().bytes;
        if (s == nullptr) return false;
        d = duckdb::StringVector::AddStringOrBlob(v, s->data(), s->size());
        return true;
      });
    case TypeId::kList: {
      auto* entries = duckdb::FlatVector::GetData<duckdb::list_entry_t>(v);
      idx_t base = duckdb::ListVector::GetListSize(v);
      std::vector<const Value*> items;
      for (size_t i = 0; i < vals.size(); ++i) {
        entries[offset + i] = duckdb::list_entry_t(base + items.size(), 0);
        if (is_null(vals[i])) {
          validity.SetInvalid(offset + i);
          continue;
        }
        if (!vals[i]->is<ValueList>()) return TypeMismatch(column, type, *vals[i]);
        const ValueList& list = vals[i]->get<ValueList>();
        entries[offset + i].length = list.size();
        for (const Value& item : list) items.push_back(&item);
      }
      duckdb::ListVector::Reserve(v, base + items.size());
      TACO_RETURN_IF_ERROR(Fill(duckdb::ListVector::GetEntry(v), type.item(), items, base, column));
      duckdb::ListVector::SetListSize(v, base + items.size());
      return Status::OK();
    }
    case TypeId::kStruct: {
      auto& children = duckdb::StructVector::GetEntries(v);
      std::vector<std::vector<const Value*>> fields(type.children.size(),
                                                    std::vector<const Value*>(vals.size(), nullptr));
      for (size_t i = 0; i < vals.size(); ++i) {
        if (is_null(vals[i])) {
          validity.SetInvalid(offset + i);
          continue;
        }
        if (!vals[i]->is<ValueStruct>()) return TypeMismatch(column, type, *vals[i]);
        const ValueStruct& row = vals[i]->get<ValueStruct>();
        for (size_t k = 0; k < type.children.size(); ++k) {
          const std::string& name = type.children[k].first;
          if (k < row.size() && row[k].first == name) {
            fields[k][i] = &row[k].second;
            continue;
          }
          for (const auto& [field_name, field_value] : row) {
            if (field_name == name) fields[k][i] = &field_value;
          }
        }
      }
      for (size_t k = 0; k < type.children.size(); ++k) {
        TACO_RETURN_IF_ERROR(Fill(*children[k], type.children[k].second, fields[k], offset, column));
      }
      return Status::OK();
    }
  }
  return Status::Internal("unknown TypeId");
}

// What `v` costs in memory beyond sizeof(Value): heap bytes of strings past the small-string
// buffer, and list/struct elements (an estimate for the memory budget, util/memory_budget.h).
uint64_t HeapBytes(const Value& v) {
  constexpr size_t kInline = 15;
  if (v.is<std::string>()) return v.get<std::string>().size() > kInline ? v.get<std::string>().size() + 1 : 0;
  if (v.is<Binary>()) return v.get<Binary>().bytes.size() > kInline ? v.get<Binary>().bytes.size() + 1 : 0;
  uint64_t n = 0;
  if (v.is<ValueList>()) {
    for (const Value& item : v.get<ValueList>()) n += sizeof(Value) + HeapBytes(item);
  } else if (v.is<ValueStruct>()) {
    for (const auto& [name, item] : v.get<ValueStruct>()) n += sizeof(std::pair<std::string, Value>) + HeapBytes(item);
  }
  return n;
}

// The first paragraph of a DuckDB message, on one line (drops "LINE 1: ..." carets).
std::string CleanMessage(const std::string& message) {
  std::string text = message;
  size_t line = text.find("\nLINE ");
  if (line != std::string::npos) text.resize(line);
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string Abbreviate(const std::string& sql) {
  std::string one_line = CleanMessage(sql);
  constexpr size_t kMax = 160;
  if (one_line.size() > kMax) one_line = one_line.substr(0, kMax) + "...";
  return one_line;
}

std::string StripTrailingSemicolons(std::string sql) {
  while (!sql.empty() && (sql.back() == ';' || std::isspace(static_cast<unsigned char>(sql.back())))) sql.pop_back();
  return sql;
}

}  // namespace

// ---- Engine ---------------------------------------------------------------------------

struct Engine::Impl {
  std::shared_ptr<MountTable> mounts = std::make_shared<MountTable>();
  std::unique_ptr<duckdb::DuckDB> db;
  std::unique_ptr<duckdb::Connection> con;
  uint64_t next_temp = 0;
  std::string error_label;
  std::string permission_hint;  // Sandbox(): appended to DuckDB's Permission Errors
  Status failed;                // Engine::Failed(): every statement returns it (no db, no con)
  // One statement at a time on `con` (a DuckDB connection is not thread-safe; each
  // statement still runs on DuckDB's worker threads). Recursive: ToParquet and ReadParquet
  // call the other methods.
  std::recursive_mutex mu;

  // What errors of statement `sql` name: the mounted files it reads, else the error label,
  // else the SQL.
  std::string Subject(const std::string& sql) const {
    std::string names = mounts->NamesIn(sql);
    if (!names.empty()) return names;
    return "SQL \"" + Abbreviate(error_label.empty() ? sql : error_label) + "\"";
  }

  // A Status for a failed statement `sql` with DuckDB's error type and message.
  Status Error(const std::string& sql, duckdb::ExceptionType type, const std::string& message) const {
    if (size_t marker = message.find(kRefusalMarker); marker != std::string::npos) {
      return Status::InvalidArgument(CleanMessage(message.substr(marker + kRefusalMarker.size())));
    }
    std::string names = mounts->NamesIn(sql);
    std::string text = mounts->Describe(CleanMessage(message));
    if (type == duckdb::ExceptionType::PERMISSION && !permission_hint.empty()) {
      text = "refused: " + text + " (" + permission_hint + ")";
    }
    std::string prefix = Subject(sql);
    StatusCode code = StatusCode::kInvalidArgument;
    switch (type) {
      case duckdb::ExceptionType::CATALOG: code = StatusCode::kNotFound; break;
      case duckdb::ExceptionType::IO:
      case duckdb::ExceptionType::HTTP: code = StatusCode::kIOError; break;
      case duckdb::ExceptionType::INVALID_INPUT:
      case duckdb::ExceptionType::SERIALIZATION:
        if (!names.empty()) code = StatusCode::kCorruption;
        break;
      case duckdb::ExceptionType::INTERNAL:
      case duckdb::ExceptionType::FATAL: code = StatusCode::kInternal; break;
      default: break;
    }
    // Not the input's fault: util::IsOverMemoryBudget() recognizes it (validate stops). The
    // type is not always OUT_OF_MEMORY (a std::bad_alloc inside DuckDB), the text is.
    if (type == duckdb::ExceptionType::OUT_OF_MEMORY || text.find("Out of Memory Error") != std::string::npos) {
      code = StatusCode::kNotSupported;
    }
    return Status(code, prefix + ": " + text);
  }

  Status Error(const std::string& sql, const std::exception& ex) const {
    duckdb::ErrorData error(ex);
    return Error(sql, error.Type(), error.Message());
  }

  // Logs a statement and its time at debug level when it goes out of scope.
  struct SqlLogLine {
    const std::string& sql;
    std::chrono::steady_clock::time_point start;
    ~SqlLogLine() {
      if (LogEnabled(LogLevel::kDebug)) Log(LogLevel::kDebug, "sql (" + ElapsedText(start) + "): " + Abbreviate(sql));
    }
  };

  // Runs `sql`; returns the result of its last statement or the first error.
  Result<duckdb::unique_ptr<duckdb::MaterializedQueryResult>> Run(const std::string& sql) {
    if (!failed.ok()) return failed;
    SqlLogLine log_line{sql, std::chrono::steady_clock::now()};
    try {
      duckdb::unique_ptr<duckdb::MaterializedQueryResult> result = con->Query(sql);
      for (duckdb::QueryResult* r = result.get(); r != nullptr; r = r->next.get()) {
        if (r->HasError()) return Error(sql, r->GetErrorType(), r->GetError());
      }
      while (result->next) {
        auto next = std::move(result->next);
        if (next->type != duckdb::QueryResultType::MATERIALIZED_RESULT) break;
        result.reset(static_cast<duckdb::MaterializedQueryResult*>(next.release()));
      }
      return result;
    } catch (const std::exception& ex) {
      return Error(sql, ex);
    }
  }

  // Runs `sql` with its last statement's rows streamed (fetched chunk by chunk; errors while
  // fetching show in the result's HasError()); the statements before it run to completion.
  Result<duckdb::unique_ptr<duckdb::QueryResult>> RunStreaming(const std::string& sql) {
    if (!failed.ok()) return failed;
    SqlLogLine log_line{sql, std::chrono::steady_clock::now()};
    try {
      duckdb::unique_ptr<duckdb::QueryResult> result = con->SendQuery(sql);
      for (duckdb::QueryResult* r = result.get(); r != nullptr; r = r->next.get()) {
        if (r->HasError()) return Error(sql, r->GetErrorType(), r->GetError());
      }
      while (result->next) result = std::move(result->next);
      return result;
    } catch (const std::exception& ex) {
      return Error(sql, ex);
    }
  }
};

Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Engine::~Engine() {
  if (!impl_) return;
  try {
    impl_->con.reset();
    impl_->db.reset();
  } catch (...) {  // NOLINT: a destructor must not throw
  }
}

namespace {
std::atomic<uint64_t> engines_opened{0};
}  // namespace

uint64_t EnginesOpened() { return engines_opened.load(); }

std::unique_ptr<Engine> Engine::Failed(Status error) {
  auto impl = std::make_unique<Impl>();
  impl->failed = error.ok() ? Status::Internal("the SQL engine did not start") : std::move(error);
  return std::unique_ptr<Engine>(new Engine(std::move(impl)));
}

Result<std::unique_ptr<Engine>> Engine::Open() {
  engines_opened.fetch_add(1);
  auto impl = std::make_unique<Impl>();
  try {
    duckdb::DBConfig config;
    config.options.autoinstall_known_extensions = false;
    config.options.autoload_known_extensions = false;
    config.options.enable_external_file_cache = false;
    unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    config.options.maximum_threads = std::min(4u, hw);
    impl->db = std::make_unique<duckdb::DuckDB>(nullptr, &config);
    auto fs = MakeMountFileSystem(impl->mounts);
    impl->db->instance->GetFileSystem().RegisterSubSystem(duckdb::unique_ptr<duckdb::FileSystem>(fs.release()));
    impl->con = std::make_unique<duckdb::Connection>(*impl->db);
  } catch (const std::exception& ex) {
    duckdb::ErrorData error(ex);
    return Status::Internal("DuckDB: cannot open an in-memory database: " + CleanMessage(error.Message()));
  }
  std::unique_ptr<Engine> engine(new Engine(std::move(impl)));
  TACO_RETURN_IF_ERROR(
      engine->Execute("SET enable_progress_bar = false; SET autoinstall_known_extensions = false; "
                      "SET autoload_known_extensions = false;"));
  return engine;
}

std::string Engine::Mount(RangeReaderPtr reader, std::string_view file_name) {
  return impl_->mounts->Mount(std::move(reader), file_name);
}

void Engine::Unmount(const std::string& path) { impl_->mounts->Unmount(path); }

Status Engine::Execute(const std::string& sql) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  TACO_ASSIGN_OR_RETURN(auto result, impl_->Run(sql));
  (void)result;
  return Status::OK();
}

void Engine::set_error_label(std::string label) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  impl_->error_label = std::move(label);
}
std::string Engine::error_label() const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  return impl_->error_label;
}

Result<std::vector<std::string>> Engine::ParseStatements(const std::string& sql) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  if (!impl_->failed.ok()) return impl_->failed;
  std::vector<std::string> out;
  try {
    duckdb::Parser parser;
    parser.ParseQuery(sql);
    for (const auto& statement : parser.statements) {
      std::string text;
      try {
        text = statement->ToString();
      } catch (const std::exception&) {
        text = "(a statement DuckDB cannot print)";
      }
      out.push_back(std::move(text));
    }
  } catch (const std::exception& ex) {
    duckdb::ErrorData error(ex);
    return Status::InvalidArgument("SQL \"" + Abbreviate(impl_->error_label.empty() ? sql : impl_->error_label) +
                                   "\": " + CleanMessage(error.Message()));
  }
  return out;
}

Status Engine::Sandbox(const SandboxOptions& options) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  impl_->permission_hint = options.permission_hint;
  std::string sql;
  if (!options.allow_external_files) {
    // Only the mount scheme: DuckDB refuses every other path, and "..", before it opens it.
    sql += "SET allowed_directories = [" + QuoteString(kMountScheme) + "]; SET allowed_paths = []; " +
           "SET enable_external_access = false; ";
  }
  sql +=
      "SET autoinstall_known_extensions = false; SET autoload_known_extensions = false; "
      "SET lock_configuration = true;";
  return Execute(sql);
}

namespace {

// The leading keyword of the statement at [location, location + length) of `sql`, upper-case.
std::string LeadingKeyword(const std::string& sql, idx_t location, idx_t length) {
  std::string out;
  size_t i = std::min<size_t>(location, sql.size());
  const size_t end = std::min<size_t>(sql.size(), location + length);
  while (i < end && !std::isalpha(static_cast<unsigned char>(sql[i]))) ++i;
  while (i < end && std::isalpha(static_cast<unsigned char>(sql[i]))) {
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(sql[i])));
    ++i;
  }
  return out;
}

}  // namespace

Status Engine::CheckReadOnly(const std::string& sql) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  if (!impl_->failed.ok()) return impl_->failed;
  const std::string shown = Abbreviate(impl_->error_label.empty() ? sql : impl_->error_label);
  std::string refused;
  try {
    duckdb::Parser parser;
    parser.ParseQuery(sql);
    for (const auto& statement : parser.statements) {
      const duckdb::SQLStatement* inner = statement.get();
      bool explained = false;
      while (inner->type == duckdb::StatementType::EXPLAIN_STATEMENT) {
        inner = inner->Cast<duckdb::ExplainStatement>().stmt.get();
        explained = true;
      }
      if (inner->type == duckdb::StatementType::SELECT_STATEMENT) continue;
      std::string keyword =
          explained ? std::string() : LeadingKeyword(sql, statement->stmt_location, statement->stmt_length);
      if (keyword.empty()) keyword = duckdb::StatementTypeToString(inner->type);
      refused = explained ? "EXPLAIN " + keyword : keyword;
      break;
    }
  } catch (const std::exception& ex) {
    duckdb::ErrorData error(ex);
    return Status::InvalidArgument("SQL \"" + shown + "\": " + CleanMessage(error.Message()));
  }
  if (refused.empty()) return Status::OK();
  return Status::InvalidArgument(
      "SQL \"" + shown + "\": refused: " + refused +
      " is not allowed; SQL over a dataset only reads (SELECT, WITH, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN): "
      "no COPY, ATTACH, INSTALL/LOAD, CREATE/DROP, SET/PRAGMA or other statement that "
      "writes, changes settings or replaces the dataset's views and functions");
}

Result<Table> Engine::Query(const std::string& sql) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  TACO_ASSIGN_OR_RETURN(auto result, impl_->RunStreaming(sql));
  // Rows are converted chunk by chunk as DuckDB produces them, so that a result over the
  // memory budget is refused before it is held (neither DuckDB nor we materialize it first).
  const uint64_t budget = util::MemoryBudget();
  uint64_t heap_bytes = 0;  // strings, list and struct elements (HeapBytes)
  uint64_t rows = 0;
  Table table;
  try {
    for (size_t c = 0; c < result->types.size(); ++c) {
      table.columns.push_back(Column{result->names[c], MapType(result->types[c]), {}});
    }
    while (true) {
      duckdb::unique_ptr<duckdb::DataChunk> chunk = result->Fetch();
      if (!chunk || chunk->size() == 0) break;
      for (size_t c = 0; c < table.columns.size(); ++c) {
        std::vector<Value>& values = table.columns[c].values;
        const size_t before = values.size();
        ReadVector(chunk->data[c], chunk->size(), values);
        for (size_t i = before; i < values.size(); ++i) heap_bytes += HeapBytes(values[i]);
      }
      rows += chunk->size();
      uint64_t bytes = heap_bytes;  // + what the columns hold, grown or not
      for (const Column& column : table.columns) bytes += column.values.capacity() * sizeof(Value);
      if (bytes > budget) return util::OverMemoryBudget(impl_->Subject(sql), rows, budget);
    }
    if (result->HasError()) return impl_->Error(sql, result->GetErrorType(), result->GetError());
  } catch (const std::exception& ex) {
    return impl_->Error(sql, ex);
  }
  return table;
}

Status Engine::QueryArrow(const std::string& sql, ArrowArrayStream* out) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  TACO_ASSIGN_OR_RETURN(auto result, impl_->Run(sql));
  Status st = MaterializedResultToArrowStream(std::move(result), out);
  if (!st.ok()) return Status(st.code(), "SQL \"" + sql + "\": " + st.message());
  return Status::OK();
}

Status Engine::CreateTable(const std::string& name, const Table& table) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  if (!impl_->failed.ok()) return impl_->failed;
  const std::string where = "table \"" + name + "\"";
  if (table.columns.empty()) return Status::InvalidArgument(where + ": no columns");
  std::string ddl = "CREATE OR REPLACE TEMP TABLE " + QuoteIdentifier(name) + " (";
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const Column& column = table.columns[c];
    if (column.values.size() != table.num_rows()) {
      return Status::InvalidArgument(where + ": column \"" + column.name + "\" has " +
                                     std::to_string(column.values.size()) + " values, expected " +
                                     std::to_string(table.num_rows()));
    }
    auto sql_type = SqlType(column.type);
    if (!sql_type.ok()) return sql_type.status().WithPrefix(where + ": column \"" + column.name + "\"");
    ddl += (c > 0 ? ", " : "") + QuoteIdentifier(column.name) + " " + *sql_type;
  }
  ddl += ")";
  TACO_RETURN_IF_ERROR(Execute(ddl));
  try {
    duckdb::Appender appender(*impl_->con, "temp", "main", name);
    duckdb::DataChunk chunk;
    chunk.Initialize(duckdb::Allocator::DefaultAllocator(), appender.GetActiveTypes());
    const size_t rows = table.num_rows();
    std::vector<const Value*> ptrs;
    for (size_t start = 0; start < rows; start += STANDARD_VECTOR_SIZE) {
      size_t n = std::min<size_t>(STANDARD_VECTOR_SIZE, rows - start);
      chunk.Reset();
      for (size_t c = 0; c < table.columns.size(); ++c) {
        const Column& column = table.columns[c];
        ptrs.resize(n);
        for (size_t i = 0; i < n; ++i) ptrs[i] = &column.values[start + i];
        Status st = Fill(chunk.data[c], column.type, ptrs, 0, column.name);
        if (!st.ok()) {
          appender.Close();
          (void)Execute("DROP TABLE IF EXISTS temp.main." + QuoteIdentifier(name));
          return st.WithPrefix(where);
        }
      }
      chunk.SetCardinality(n);
      appender.AppendDataChunk(chunk);
    }
    appender.Close();
  } catch (const std::exception& ex) {
    duckdb::ErrorData error(ex);
    return impl_->Error("INSERT INTO " + QuoteIdentifier(name), error.Type(), error.Message());
  }
  return Status::OK();
}

Result<std::string> Engine::QueryToParquet(const std::string& sql, const ParquetWriteOptions& opts) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  std::string path = impl_->mounts->NewPath("output.parquet");
  std::string copy = "COPY (" + StripTrailingSemicolons(sql) + ") TO " + QuoteString(path) +
                     " (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL " + std::to_string(opts.zstd_level) +
                     ", ROW_GROUP_SIZE " + std::to_string(opts.row_group_size) + ", USE_TMP_FILE false";
  if (!opts.kv_metadata.empty()) {
    copy += ", KV_METADATA {";
    for (size_t i = 0; i < opts.kv_metadata.size(); ++i) {
      copy += (i ? ", " : "") + QuoteString(opts.kv_metadata[i].first) + ": " + QuoteString(opts.kv_metadata[i].second);
    }
    copy += "}";
  }
  copy += ")";
  Status st = Execute(copy);
  if (!st.ok()) {
    impl_->mounts->Unmount(path);
    return st;
  }
  return impl_->mounts->TakeOutput(path);
}

Result<std::string> Engine::ToParquet(const Table& table, const ParquetWriteOptions& opts) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  std::string name = "__taco_parquet_" + std::to_string(impl_->next_temp++);
  TACO_RETURN_IF_ERROR(CreateTable(name, table));
  auto bytes = QueryToParquet("SELECT * FROM temp.main." + QuoteIdentifier(name), opts);
  Status dropped = Execute("DROP TABLE IF EXISTS temp.main." + QuoteIdentifier(name));
  if (!bytes.ok()) return bytes.status();
  TACO_RETURN_IF_ERROR(dropped);
  return bytes;
}

Result<Table> Engine::ReadParquet(RangeReaderPtr reader, uint64_t max_rows) {
  std::lock_guard<std::recursive_mutex> lock(impl_->mu);
  std::string name = reader->name();
  std::string path = Mount(std::move(reader), name);
  // LIMIT: DuckDB stops decoding there, whatever the footer claims.
  auto table = Query("SELECT * FROM read_parquet(" + QuoteString(path) + ") LIMIT " + std::to_string(max_rows + 1));
  Unmount(path);
  if (table.ok() && table->num_rows() > max_rows) {
    return Status::Corruption(name + ": holds more than " + std::to_string(max_rows) + " rows, the limit here");
  }
  return table;
}

void* Engine::raw_database() { return impl_->db.get(); }
void* Engine::raw_connection() { return impl_->con.get(); }
std::recursive_mutex& Engine::mutex() { return impl_->mu; }

std::string QuoteIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string QuoteString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

}  // namespace taco::table
