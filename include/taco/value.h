// Typed values and in-memory tables: what SQL results are returned as, what extension
// columns hold, and what the writer turns into Parquet.
//
// The type system is the subset of Arrow that TACO metadata uses (FORMAT §3.1): string,
// binary, bool, int32, int64, float, double, timestamp[us] (no time zone), list<T> and
// struct<name: T, ...>. DataType::ToString() gives the lower-cased PyArrow spelling used in
// `taco:field_schema` ("list<item: int64>", "timestamp[us]", ...).
#ifndef TACO_VALUE_H_
#define TACO_VALUE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "taco/status.h"

namespace taco {

enum class TypeId { kNull, kBool, kInt32, kInt64, kFloat, kDouble, kString, kBinary, kTimestampUs, kList, kStruct };

struct DataType {
  TypeId id = TypeId::kNull;
  // kList: one child (name "item"); kStruct: the fields in order. Empty otherwise.
  std::vector<std::pair<std::string, DataType>> children;

  // Constructors defined after the class (not an aggregate): with clang, an implicit
  // default constructor makes std::pair<std::string, DataType> need DataType complete.
  DataType();
  DataType(TypeId type_id);  // NOLINT: implicit, as {TypeId::kInt64} reads
  DataType(TypeId type_id, std::vector<std::pair<std::string, DataType>> type_children);

  // Defined after the class: clang instantiates std::pair<std::string, DataType> in these
  // bodies, which needs DataType complete.
  static DataType Null();
  static DataType Bool();
  static DataType Int32();
  static DataType Int64();
  static DataType Float();
  static DataType Double();
  static DataType String();
  static DataType Binary();
  static DataType TimestampUs();
  static DataType List(DataType item);
  static DataType Struct(std::vector<std::pair<std::string, DataType>> fields);

  const DataType& item() const;  // REQUIRES: kList

  // PyArrow spelling: "string", "int64", "timestamp[us]", "list<item: list<item: float>>",
  // "struct<name: string, index: int32>".
  std::string ToString() const;
  bool operator==(const DataType& other) const;
};

inline DataType::DataType() = default;
inline DataType::DataType(TypeId type_id) : id(type_id) {}
inline DataType::DataType(TypeId type_id, std::vector<std::pair<std::string, DataType>> type_children)
    : id(type_id), children(std::move(type_children)) {}
inline const DataType& DataType::item() const { return children.at(0).second; }
inline DataType DataType::Null() { return {TypeId::kNull, {}}; }
inline DataType DataType::Bool() { return {TypeId::kBool, {}}; }
inline DataType DataType::Int32() { return {TypeId::kInt32, {}}; }
inline DataType DataType::Int64() { return {TypeId::kInt64, {}}; }
inline DataType DataType::Float() { return {TypeId::kFloat, {}}; }
inline DataType DataType::Double() { return {TypeId::kDouble, {}}; }
inline DataType DataType::String() { return {TypeId::kString, {}}; }
inline DataType DataType::Binary() { return {TypeId::kBinary, {}}; }
inline DataType DataType::TimestampUs() { return {TypeId::kTimestampUs, {}}; }
inline DataType DataType::List(DataType item) { return {TypeId::kList, {{"item", std::move(item)}}}; }
inline DataType DataType::Struct(std::vector<std::pair<std::string, DataType>> fields) {
  return {TypeId::kStruct, std::move(fields)};
}

// Inverse of DataType::ToString() for the types above.
Result<DataType> ParseDataType(std::string_view text);

struct Binary {
  std::string bytes;
  bool operator==(const Binary& o) const { return bytes == o.bytes; }
};
struct TimestampUs {
  int64_t micros = 0;  // since 1970-01-01T00:00:00, no time zone
  bool operator==(const TimestampUs& o) const { return micros == o.micros; }
};

class Value;
using ValueList = std::vector<Value>;
using ValueStruct = std::vector<std::pair<std::string, Value>>;

// A single nullable value. The alternative held says which TypeId it belongs to; int32 and
// float are kept distinct from int64 and double so that round trips keep their width.
class Value {
 public:
  using Storage = std::variant<std::monostate, bool, int32_t, int64_t, float, double, std::string, Binary, TimestampUs,
                               ValueList, ValueStruct>;
  Value() = default;
  template <typename T>
  Value(T v) : v_(std::move(v)) {}              // NOLINT: implicit by design
  Value(const char* s) : v_(std::string(s)) {}  // NOLINT

  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }
  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(v_);
  }
  template <typename T>
  const T& get() const {
    return std::get<T>(v_);
  }
  const Storage& storage() const { return v_; }

  // Text for people: strings unquoted, binary as hex, timestamps ISO-8601, lists "[a, b]".
  std::string ToString() const;
  bool operator==(const Value& o) const { return v_ == o.v_; }

 private:
  Storage v_;
};

// One named, typed value with its description: an extension field of one sample, or one
// cell of a row. `description` feeds `taco:field_schema` (empty when unknown).
struct Field {
  std::string name;
  DataType type;
  Value value;
  std::string description;
};

struct Column {
  std::string name;
  DataType type;
  std::vector<Value> values;  // one per row; null = std::monostate
};

// A column-major table. All columns have the same number of values.
struct Table {
  std::vector<Column> columns;

  size_t num_rows() const { return columns.empty() ? 0 : columns[0].values.size(); }
  size_t num_columns() const { return columns.size(); }
  // Index of the column named `name`, or -1.
  int FindColumn(std::string_view name) const;
  // REQUIRES: the column exists.
  const Column& column(std::string_view name) const { return columns.at(static_cast<size_t>(FindColumn(name))); }
};

// ISO-8601 text of a timestamp: "2023-01-01T00:00:00" (fraction only when non-zero).
std::string FormatTimestampUs(int64_t micros);

}  // namespace taco

#endif  // TACO_VALUE_H_
