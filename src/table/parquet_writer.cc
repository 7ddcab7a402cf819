// WriteFlatParquet: Parquet bytes built directly (Thrift compact protocol metadata, PLAIN
// pages, ZSTD), for the many small tables of a dataset (see parquet_writer.h).
#include "table/parquet_writer.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace taco::table {
namespace {

// Thrift compact protocol type codes (fields and list elements).
enum : uint8_t { kTrue = 1, kFalse = 2, kI32 = 5, kI64 = 6, kBinary = 8, kList = 9, kStruct = 12 };
// Parquet enums (parquet.thrift).
enum : int32_t { kBoolean = 0, kInt32 = 1, kInt64 = 2, kFloat = 4, kDouble = 5, kByteArray = 6 };
enum : int32_t { kPlain = 0, kRle = 3 };
constexpr int32_t kOptional = 1;
constexpr int32_t kConvertedUtf8 = 0, kConvertedTimestampMicros = 10;
constexpr int32_t kCodecZstd = 6;
constexpr int32_t kDataPage = 0;

// Writes one Thrift compact-protocol message. Field ids within a struct must be written in
// ascending order (the short form encodes the delta from the previous id).
class CompactWriter {
 public:
  std::string& out() { return out_; }

  void I32(int16_t id, int32_t v) {
    Field(id, kI32);
    Varint(ZigZag(v));
  }
  void I64(int16_t id, int64_t v) {
    Field(id, kI64);
    Varint(ZigZag(v));
  }
  void Bool(int16_t id, bool v) { Field(id, v ? kTrue : kFalse); }
  void Bytes(int16_t id, std::string_view s) {
    Field(id, kBinary);
    RawBytes(s);
  }
  void BeginStruct(int16_t id) {
    Field(id, kStruct);
    last_.push_back(0);
  }
  void EndStruct() {
    out_.push_back('\0');
    last_.pop_back();
  }
  void BeginList(int16_t id, uint8_t element_type, size_t size) {
    Field(id, kList);
    if (size < 15) {
      out_.push_back(static_cast<char>((size << 4) | element_type));
    } else {
      out_.push_back(static_cast<char>(0xF0 | element_type));
      Varint(size);
    }
  }
  // Elements of a list.
  void ElementI32(int32_t v) { Varint(ZigZag(v)); }
  void ElementBytes(std::string_view s) { RawBytes(s); }
  void BeginElementStruct() { last_.push_back(0); }
  // The stop byte of the outermost struct (the message itself).
  void EndMessage() { out_.push_back('\0'); }

 private:
  static uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void RawBytes(std::string_view s) {
    Varint(s.size());
    out_.append(s);
  }
  void Field(int16_t id, uint8_t type) {
    const int delta = id - last_.back();
    if (delta > 0 && delta <= 15) {
      out_.push_back(static_cast<char>((delta << 4) | type));
    } else {
      out_.push_back(static_cast<char>(type));
      Varint(ZigZag(id));
    }
    last_.back() = id;
  }

  std::string out_;
  std::vector<int16_t> last_{0};
};

template <typename T>
void AppendLittleEndian(std::string& out, T v) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));  // x86-64 and aarch64 are little-endian
  out.append(bytes, sizeof(T));
}

struct PhysicalType {
  int32_t type;
  std::optional<int32_t> converted;
  enum class Logical { kNone, kString, kTimestampMicros } logical = Logical::kNone;
};

std::optional<PhysicalType> PhysicalFor(const DataType& t) {
  switch (t.id) {
    case TypeId::kNull:
    case TypeId::kInt32: return PhysicalType{kInt32, std::nullopt};
    case TypeId::kBool: return PhysicalType{kBoolean, std::nullopt};
    case TypeId::kInt64: return PhysicalType{kInt64, std::nullopt};
    case TypeId::kFloat: return PhysicalType{kFloat, std::nullopt};
    case TypeId::kDouble: return PhysicalType{kDouble, std::nullopt};
    case TypeId::kString: return PhysicalType{kByteArray, kConvertedUtf8, PhysicalType::Logical::kString};
    case TypeId::kBinary: return PhysicalType{kByteArray, std::nullopt};
    case TypeId::kTimestampUs:
      return PhysicalType{kInt64, kConvertedTimestampMicros, PhysicalType::Logical::kTimestampMicros};
    case TypeId::kList:
    case TypeId::kStruct: return std::nullopt;
  }
  return std::nullopt;
}

// True when `v` (not null) holds the alternative of column type `t`.
bool Matches(TypeId t, const Value& v) {
  switch (t) {
    case TypeId::kBool: return v.is<bool>();
    case TypeId::kInt32: return v.is<int32_t>();
    case TypeId::kInt64: return v.is<int64_t>();
    case TypeId::kFloat: return v.is<float>();
    case TypeId::kDouble: return v.is<double>();
    case TypeId::kString: return v.is<std::string>();
    case TypeId::kBinary: return v.is<Binary>();
    case TypeId::kTimestampUs: return v.is<TimestampUs>();
    default: return false;
  }
}

// Definition levels of rows [begin, end) (max level 1), RLE/bit-packed hybrid with the data
// page v1 4-byte length prefix: one RLE run when all rows agree, else bit-packed groups of 8.
void AppendDefinitionLevels(std::string& out, const std::vector<Value>& values, size_t begin, size_t end) {
  std::string levels;
  auto varint = [&levels](uint64_t v) {
    while (v >= 0x80) {
      levels.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    levels.push_back(static_cast<char>(v));
  };
  const bool first = !values[begin].is_null();
  bool uniform = true;
  for (size_t i = begin; i < end && uniform; ++i) uniform = values[i].is_null() != first;
  if (uniform) {
    varint(static_cast<uint64_t>(end - begin) << 1);
    levels.push_back(first ? 1 : 0);
  } else {
    const size_t groups = (end - begin + 7) / 8;
    varint((static_cast<uint64_t>(groups) << 1) | 1);
    for (size_t g = 0; g < groups; ++g) {
      uint8_t byte = 0;
      for (size_t b = 0; b < 8; ++b) {
        const size_t i = begin + g * 8 + b;
        if (i < end && !values[i].is_null()) byte |= static_cast<uint8_t>(1u << b);
      }
      levels.push_back(static_cast<char>(byte));
    }
  }
  AppendLittleEndian<uint32_t>(out, static_cast<uint32_t>(levels.size()));
  out += levels;
}

// Min/max of an integer column chunk, PLAIN-encoded, for the statistics.
struct Bounds {
  std::string min, max;
};

template <typename T>
std::optional<Bounds> IntegerBounds(const std::vector<Value>& values, size_t begin, size_t end,
                                    int64_t (*get)(const Value&)) {
  std::optional<int64_t> lo, hi;
  for (size_t i = begin; i < end; ++i) {
    if (values[i].is_null()) continue;
    const int64_t v = get(values[i]);
    if (!lo || v < *lo) lo = v;
    if (!hi || v > *hi) hi = v;
  }
  if (!lo) return std::nullopt;
  Bounds b;
  AppendLittleEndian<T>(b.min, static_cast<T>(*lo));
  AppendLittleEndian<T>(b.max, static_cast<T>(*hi));
  return b;
}

std::optional<Bounds> ChunkBounds(TypeId t, const std::vector<Value>& values, size_t begin, size_t end) {
  switch (t) {
    case TypeId::kInt32:
      return IntegerBounds<int32_t>(values, begin, end, [](const Value& v) { return int64_t{v.get<int32_t>()}; });
    case TypeId::kInt64:
      return IntegerBounds<int64_t>(values, begin, end, [](const Value& v) { return v.get<int64_t>(); });
    case TypeId::kTimestampUs:
      return IntegerBounds<int64_t>(values, begin, end, [](const Value& v) { return v.get<TimestampUs>().micros; });
    default: return std::nullopt;
  }
}

// PLAIN values of the non-null rows of [begin, end).
void AppendPlainValues(std::string& out, TypeId t, const std::vector<Value>& values, size_t begin, size_t end) {
  uint8_t bits = 0;
  int nbits = 0;
  for (size_t i = begin; i < end; ++i) {
    const Value& v = values[i];
    if (v.is_null()) continue;
    switch (t) {
      case TypeId::kBool:
        if (v.get<bool>()) bits |= static_cast<uint8_t>(1u << nbits);
        if (++nbits == 8) {
          out.push_back(static_cast<char>(bits));
          bits = 0;
          nbits = 0;
        }
        break;
      case TypeId::kInt32: AppendLittleEndian(out, v.get<int32_t>()); break;
      case TypeId::kInt64: AppendLittleEndian(out, v.get<int64_t>()); break;
      case TypeId::kFloat: AppendLittleEndian(out, v.get<float>()); break;
      case TypeId::kDouble: AppendLittleEndian(out, v.get<double>()); break;
      case TypeId::kTimestampUs: AppendLittleEndian(out, v.get<TimestampUs>().micros); break;
      case TypeId::kString:
      case TypeId::kBinary: {
        const std::string& s = t == TypeId::kString ? v.get<std::string>() : v.get<Binary>().bytes;
        AppendLittleEndian<uint32_t>(out, static_cast<uint32_t>(s.size()));
        out += s;
        break;
      }
      default: break;
    }
  }
  if (nbits > 0) out.push_back(static_cast<char>(bits));
}

struct ChunkInfo {
  int64_t page_offset = 0;
  int64_t uncompressed = 0;  // page header + uncompressed body
  int64_t compressed = 0;    // page header + compressed body
  int64_t nulls = 0;
  std::optional<Bounds> bounds;
};

}  // namespace

bool IsFlatTable(const Table& table) {
  for (const Column& c : table.columns) {
    if (!PhysicalFor(c.type)) return false;
  }
  return true;
}

Result<std::string> WriteFlatParquet(const Table& table, const ParquetWriteOptions& opts) {
  if (table.columns.empty()) return Status::InvalidArgument("a Parquet table needs at least one column");
  std::vector<PhysicalType> physical;
  for (const Column& c : table.columns) {
    std::optional<PhysicalType> p = PhysicalFor(c.type);
    if (!p) return Status::NotSupported("column '" + c.name + "' (" + c.type.ToString() + ") is not flat");
    for (const Value& v : c.values) {
      if (!v.is_null() && !Matches(c.type.id, v)) {
        return Status::NotSupported("column '" + c.name + "' holds a value that is not " + c.type.ToString());
      }
    }
    physical.push_back(*p);
  }
  const size_t rows = table.num_rows();
  for (const Column& c : table.columns) {
    if (c.values.size() != rows) return Status::InvalidArgument("column '" + c.name + "' has a different row count");
  }
  const size_t group_rows = opts.row_group_size == 0 ? rows : static_cast<size_t>(opts.row_group_size);

  std::string file = "PAR1";
  std::vector<std::vector<ChunkInfo>> groups;  // [row group][column]
  std::vector<size_t> group_sizes;
  std::string body;
  std::string compressed;
  for (size_t begin = 0; begin < rows; begin += group_rows) {
    const size_t end = std::min(rows, begin + group_rows);
    std::vector<ChunkInfo> chunks;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const Column& col = table.columns[c];
      ChunkInfo info;
      info.page_offset = static_cast<int64_t>(file.size());
      for (size_t i = begin; i < end; ++i) info.nulls += col.values[i].is_null() ? 1 : 0;
      info.bounds = ChunkBounds(col.type.id, col.values, begin, end);
      body.clear();
      AppendDefinitionLevels(body, col.values, begin, end);
      AppendPlainValues(body, col.type.id, col.values, begin, end);
      compressed.resize(ZSTD_compressBound(body.size()));
      const size_t n = ZSTD_compress(compressed.data(), compressed.size(), body.data(), body.size(), opts.zstd_level);
      if (ZSTD_isError(n)) return Status::Internal(std::string("zstd: ") + ZSTD_getErrorName(n));
      compressed.resize(n);

      CompactWriter header;
      header.I32(1, kDataPage);
      header.I32(2, static_cast<int32_t>(body.size()));
      header.I32(3, static_cast<int32_t>(compressed.size()));
      header.BeginStruct(5);
      header.I32(1, static_cast<int32_t>(end - begin));
      header.I32(2, kPlain);
      header.I32(3, kRle);
      header.I32(4, kRle);
      header.EndStruct();
      header.EndMessage();
      file += header.out();
      file += compressed;
      info.uncompressed = static_cast<int64_t>(header.out().size() + body.size());
      info.compressed = static_cast<int64_t>(header.out().size() + compressed.size());
      chunks.push_back(std::move(info));
    }
    groups.push_back(std::move(chunks));
    group_sizes.push_back(end - begin);
  }

  CompactWriter meta;
  meta.I32(1, 1);
  meta.BeginList(2, kStruct, table.columns.size() + 1);
  meta.BeginElementStruct();
  meta.Bytes(4, "schema");
  meta.I32(5, static_cast<int32_t>(table.columns.size()));
  meta.EndStruct();
  for (size_t c = 0; c < table.columns.size(); ++c) {
    meta.BeginElementStruct();
    meta.I32(1, physical[c].type);
    meta.I32(3, kOptional);
    meta.Bytes(4, table.columns[c].name);
    if (physical[c].converted) meta.I32(6, *physical[c].converted);
    if (physical[c].logical != PhysicalType::Logical::kNone) {
      meta.BeginStruct(10);
      if (physical[c].logical == PhysicalType::Logical::kString) {
        meta.BeginStruct(1);  // StringType
        meta.EndStruct();
      } else {
        meta.BeginStruct(8);  // TimestampType
        meta.Bool(1, false);
        meta.BeginStruct(2);  // TimeUnit
        meta.BeginStruct(2);  // MICROS
        meta.EndStruct();
        meta.EndStruct();
        meta.EndStruct();
      }
      meta.EndStruct();
    }
    meta.EndStruct();
  }
  meta.I64(3, static_cast<int64_t>(rows));
  meta.BeginList(4, kStruct, groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    meta.BeginElementStruct();
    meta.BeginList(1, kStruct, table.columns.size());
    int64_t total_uncompressed = 0, total_compressed = 0;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const ChunkInfo& info = groups[g][c];
      total_uncompressed += info.uncompressed;
      total_compressed += info.compressed;
      meta.BeginElementStruct();  // ColumnChunk
      meta.I64(2, info.page_offset);
      meta.BeginStruct(3);  // ColumnMetaData
      meta.I32(1, physical[c].type);
      meta.BeginList(2, kI32, 2);
      meta.ElementI32(kPlain);
      meta.ElementI32(kRle);
      meta.BeginList(3, kBinary, 1);
      meta.ElementBytes(table.columns[c].name);
      meta.I32(4, kCodecZstd);
      meta.I64(5, static_cast<int64_t>(group_sizes[g]));
      meta.I64(6, info.uncompressed);
      meta.I64(7, info.compressed);
      meta.I64(9, info.page_offset);
      meta.BeginStruct(12);  // Statistics
      meta.I64(3, info.nulls);
      if (info.bounds) {
        meta.Bytes(5, info.bounds->max);
        meta.Bytes(6, info.bounds->min);
      }
      meta.EndStruct();
      meta.EndStruct();
      meta.EndStruct();
    }
    meta.I64(2, total_uncompressed);
    meta.I64(3, static_cast<int64_t>(group_sizes[g]));
    meta.I64(5, groups[g].front().page_offset);
    meta.I64(6, total_compressed);
    meta.EndStruct();
  }
  if (!opts.kv_metadata.empty()) {
    meta.BeginList(5, kStruct, opts.kv_metadata.size());
    for (const auto& [key, value] : opts.kv_metadata) {
      meta.BeginElementStruct();
      meta.Bytes(1, key);
      meta.Bytes(2, value);
      meta.EndStruct();
    }
  }
  meta.Bytes(6, "taco-cpp");
  meta.BeginList(7, kStruct, table.columns.size());  // column_orders: TYPE_ORDER for each
  for (size_t c = 0; c < table.columns.size(); ++c) {
    meta.BeginElementStruct();
    meta.BeginStruct(1);
    meta.EndStruct();
    meta.EndStruct();
  }
  meta.EndMessage();  // FileMetaData

  file += meta.out();
  AppendLittleEndian<uint32_t>(file, static_cast<uint32_t>(meta.out().size()));
  file += "PAR1";
  return file;
}

Result<std::string> SmallTableToParquet(Engine& engine, const Table& table, const ParquetWriteOptions& opts) {
  if (!table.columns.empty() && IsFlatTable(table)) {
    Result<std::string> bytes = WriteFlatParquet(table, opts);
    if (bytes.ok() || bytes.status().code() != StatusCode::kNotSupported) return bytes;
  }
  return engine.ToParquet(table, opts);
}

}  // namespace taco::table
