// EncodeParquet: Parquet bytes built directly (Thrift compact protocol metadata, PLAIN
// pages, ZSTD), for the many small tables of a dataset (see parquet_writer.h).
#include "table/parquet_writer.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "format/zip/crc32.h"
#include "table/engine_zstd.h"
#include "table/page_chunker.h"
#include "table/parquet_levels.h"
#include "table/thrift_compact.h"

namespace taco::table {
namespace {

using namespace parquet;  // NOLINT: the format's enums
using thrift::CompactWriter;

// A column: its list nesting and its leaf type, with the leaf's physical annotation.
struct Layout {
  ListShape shape;
  TypeId leaf = TypeId::kNull;
  int32_t physical = kInt32;
  std::optional<int32_t> converted;
  enum class Logical { kNone, kString, kTimestampMicros } logical = Logical::kNone;
};

std::optional<Layout> LayoutOf(const DataType& type) {
  Layout l;
  const DataType* t = &type;
  while (t->id == TypeId::kList) {
    if (l.shape.depth() == kMaxListDepth) return std::nullopt;
    l.shape.list_optional.push_back(true);
    t = &t->item();
  }
  l.leaf = t->id;
  switch (t->id) {
    case TypeId::kNull:
    case TypeId::kInt32: l.physical = kInt32; break;
    case TypeId::kBool: l.physical = kBoolean; break;
    case TypeId::kInt64: l.physical = kInt64; break;
    case TypeId::kFloat: l.physical = kFloat; break;
    case TypeId::kDouble: l.physical = kDouble; break;
    case TypeId::kString:
      l.physical = kByteArray;
      l.converted = kConvertedUtf8;
      l.logical = Layout::Logical::kString;
      break;
    case TypeId::kBinary: l.physical = kByteArray; break;
    case TypeId::kTimestampUs:
      l.physical = kInt64;
      l.converted = kConvertedTimestampMicros;
      l.logical = Layout::Logical::kTimestampMicros;
      break;
    case TypeId::kList:
    case TypeId::kStruct: return std::nullopt;
  }
  return l;
}

// True when `v` (a non-null leaf) holds the alternative of leaf type `t`.
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

template <typename T>
void AppendLittleEndian(std::string& out, T v) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));  // x86-64 and aarch64 are little-endian
  out.append(bytes, sizeof(T));
}

// PLAIN encoding of the leaves.
void AppendPlainValues(std::string& out, TypeId t, const std::vector<const Value*>& leaves) {
  uint8_t bits = 0;
  int nbits = 0;
  for (const Value* v : leaves) {
    switch (t) {
      case TypeId::kBool:
        if (v->get<bool>()) bits |= static_cast<uint8_t>(1u << nbits);
        if (++nbits == 8) {
          out.push_back(static_cast<char>(bits));
          bits = 0;
          nbits = 0;
        }
        break;
      case TypeId::kInt32: AppendLittleEndian(out, v->get<int32_t>()); break;
      case TypeId::kInt64: AppendLittleEndian(out, v->get<int64_t>()); break;
      case TypeId::kFloat: AppendLittleEndian(out, v->get<float>()); break;
      case TypeId::kDouble: AppendLittleEndian(out, v->get<double>()); break;
      case TypeId::kTimestampUs: AppendLittleEndian(out, v->get<TimestampUs>().micros); break;
      case TypeId::kString:
      case TypeId::kBinary: {
        const std::string& s = t == TypeId::kString ? v->get<std::string>() : v->get<Binary>().bytes;
        AppendLittleEndian<uint32_t>(out, static_cast<uint32_t>(s.size()));
        out += s;
        break;
      }
      default: break;
    }
  }
  if (nbits > 0) out.push_back(static_cast<char>(bits));
}

// Min/max statistics (PLAIN-encoded) of an integer or timestamp leaf column.
struct Bounds {
  std::string min, max;
};

// A column chunk whose dictionary would hold more PLAIN bytes than this is written PLAIN
// (Arrow's default dictionary_pagesize_limit).
constexpr size_t kMaxDictionaryBytes = 1u << 20;

// Strings longer than this get no statistics (readers compare them byte-wise, unsigned).
constexpr size_t kMaxStatBytes = 64;

std::optional<Bounds> LeafBounds(TypeId t, const std::vector<const Value*>& leaves) {
  if (leaves.empty()) return std::nullopt;
  if (t == TypeId::kString || t == TypeId::kBinary) {
    auto bytes = [t](const Value* v) -> const std::string& {
      return t == TypeId::kString ? v->get<std::string>() : v->get<Binary>().bytes;
    };
    const std::string* lo = &bytes(leaves[0]);
    const std::string* hi = lo;
    for (const Value* v : leaves) {
      const std::string& b = bytes(v);
      if (b.size() > kMaxStatBytes) return std::nullopt;
      if (b < *lo) lo = &b;  // std::string compares as unsigned char (char_traits<char>::lt)
      if (*hi < b) hi = &b;
    }
    return Bounds{*lo, *hi};
  }
  if (t != TypeId::kInt32 && t != TypeId::kInt64 && t != TypeId::kTimestampUs) return std::nullopt;
  auto get = [t](const Value* v) {
    return t == TypeId::kInt32   ? int64_t{v->get<int32_t>()}
           : t == TypeId::kInt64 ? v->get<int64_t>()
                                 : v->get<TimestampUs>().micros;
  };
  int64_t lo = get(leaves[0]), hi = lo;
  for (const Value* v : leaves) {
    lo = std::min(lo, get(v));
    hi = std::max(hi, get(v));
  }
  Bounds b;
  if (t == TypeId::kInt32) {
    AppendLittleEndian(b.min, static_cast<int32_t>(lo));
    AppendLittleEndian(b.max, static_cast<int32_t>(hi));
  } else {
    AppendLittleEndian(b.min, lo);
    AppendLittleEndian(b.max, hi);
  }
  return b;
}

struct ChunkInfo {
  int64_t page_offset = 0;       // the chunk's first page: its dictionary page, if any
  int64_t data_page_offset = 0;  // its first data page
  bool dictionary = false;       // RLE_DICTIONARY data pages after a PLAIN dictionary page
  int64_t entries = 0;           // (repetition, definition) pairs: the page's num_values
  int64_t uncompressed = 0;      // page header + uncompressed body
  int64_t compressed = 0;        // page header + compressed body
  int64_t nulls = 0;
  std::optional<Bounds> bounds;
};

// The PLAIN bytes of one non-null leaf (a bool as one byte: only the chunker sees this form).
void AppendPlainForHash(std::string& out, TypeId t, const Value& v) {
  if (t == TypeId::kBool) {
    out.push_back(v.get<bool>() ? '\1' : '\0');
    return;
  }
  AppendPlainValues(out, t, {&v});
}

template <typename T>
std::vector<T> Slice(const std::vector<T>& v, size_t begin, size_t end) {
  return std::vector<T>(v.begin() + static_cast<std::ptrdiff_t>(begin), v.begin() + static_cast<std::ptrdiff_t>(end));
}

// A column chunk's dictionary: its distinct leaf values and each leaf's index into them.
// The order decides which edits renumber the indices, and so change every data page of the
// chunk (issue 28, content-defined pages). In order of first appearance (what Parquet
// writers do) a value new to the chunk (an appended row, an edit) goes last and nothing
// moves, but an edit of the row where a value first appears renumbers. In ascending order
// (SortDictionary) an index depends only on the set of values: an edit within the set (a
// label fixed, wherever it first appears) moves nothing, but a new value not sorting last
// renumbers. So the values are sorted when new values are unlikely: when at most one leaf
// in kSortedDictionaryRarity holds a value seen once (the Good-Turing estimate of the chance
// that one more value is one not seen yet), as for labels and other categories; else (many
// rare values, as for a measured quantity) they stay in order of first appearance.
constexpr size_t kSortedDictionaryRarity = 1024;

struct Dictionary {
  std::vector<const Value*> values;
  std::vector<uint32_t> indices;  // one per leaf
  int width = 1;                  // bits per index
};

// Orders a dictionary's values ascending and renumbers its indices: strings and binaries
// byte-wise (unsigned), integers and timestamps by value, floats and doubles by IEEE 754
// totalOrder (-NaN < -inf < ... < -0 < +0 < ... < +inf < NaN), which is a total order on the
// bit patterns the dictionary keys on (so -0 and +0, distinct entries, never tie).
void SortDictionary(TypeId t, Dictionary& d) {
  const size_t n = d.values.size();
  std::vector<uint32_t> order(n);  // order[new index] = old index
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  auto total_order = [](uint64_t bits, int width) {
    const uint64_t sign = uint64_t{1} << (width - 1);
    const uint64_t all = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    return (bits & sign) != 0 ? ~bits & all : bits | sign;
  };
  auto key = [&](const Value* v) -> uint64_t {  // an unsigned key for the non-string types
    switch (t) {
      case TypeId::kInt32: return static_cast<uint64_t>(int64_t{v->get<int32_t>()}) ^ (uint64_t{1} << 63);
      case TypeId::kInt64: return static_cast<uint64_t>(v->get<int64_t>()) ^ (uint64_t{1} << 63);
      case TypeId::kTimestampUs: return static_cast<uint64_t>(v->get<TimestampUs>().micros) ^ (uint64_t{1} << 63);
      case TypeId::kFloat: {
        uint32_t bits = 0;
        std::memcpy(&bits, &v->get<float>(), 4);
        return total_order(bits, 32);
      }
      case TypeId::kDouble: {
        uint64_t bits = 0;
        std::memcpy(&bits, &v->get<double>(), 8);
        return total_order(bits, 64);
      }
      default: return 0;
    }
  };
  if (t == TypeId::kString || t == TypeId::kBinary) {
    auto bytes = [t](const Value* v) -> const std::string& {
      return t == TypeId::kString ? v->get<std::string>() : v->get<Binary>().bytes;
    };
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return bytes(d.values[a]) < bytes(d.values[b]); });
  } else {
    std::vector<uint64_t> keys(n);
    for (size_t i = 0; i < n; ++i) keys[i] = key(d.values[i]);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  }
  std::vector<uint32_t> renumber(n);  // renumber[old index] = new index
  std::vector<const Value*> sorted(n);
  for (size_t i = 0; i < n; ++i) {
    renumber[order[i]] = static_cast<uint32_t>(i);
    sorted[i] = d.values[order[i]];
  }
  d.values = std::move(sorted);
  for (uint32_t& index : d.indices) index = renumber[index];
}

// The dictionary of `leaves`, or nothing when it does not pay (the chunk is then written
// PLAIN, as Parquet writers fall back): a bool column, no leaves, more distinct values
// than half the leaves, or a dictionary page past kMaxDictionaryBytes of PLAIN values.
std::optional<Dictionary> BuildDictionary(TypeId t, const std::vector<const Value*>& leaves) {
  if (t == TypeId::kBool || t == TypeId::kNull || leaves.empty()) return std::nullopt;
  const bool bytes_like = t == TypeId::kString || t == TypeId::kBinary;
  std::unordered_map<std::string_view, uint32_t> by_bytes;
  std::unordered_map<uint64_t, uint32_t> by_bits;
  Dictionary d;
  d.indices.reserve(leaves.size());
  size_t plain_bytes = 0;
  const size_t max_distinct = leaves.size() / 2;
  for (const Value* v : leaves) {
    uint32_t next = static_cast<uint32_t>(d.values.size());
    bool added = false;
    if (bytes_like) {
      const std::string& b = t == TypeId::kString ? v->get<std::string>() : v->get<Binary>().bytes;
      auto [it, inserted] = by_bytes.try_emplace(std::string_view(b), next);
      next = it->second;
      added = inserted;
      if (added) plain_bytes += 4 + b.size();
    } else {
      uint64_t bits = 0;  // the value's PLAIN bytes (4 or 8), zero-extended
      switch (t) {
        case TypeId::kInt32: std::memcpy(&bits, &v->get<int32_t>(), 4); break;
        case TypeId::kFloat: std::memcpy(&bits, &v->get<float>(), 4); break;
        case TypeId::kInt64: std::memcpy(&bits, &v->get<int64_t>(), 8); break;
        case TypeId::kDouble: std::memcpy(&bits, &v->get<double>(), 8); break;
        case TypeId::kTimestampUs: std::memcpy(&bits, &v->get<TimestampUs>().micros, 8); break;
        default: return std::nullopt;
      }
      auto [it, inserted] = by_bits.try_emplace(bits, next);
      next = it->second;
      added = inserted;
      if (added) plain_bytes += (t == TypeId::kInt32 || t == TypeId::kFloat) ? 4 : 8;
    }
    if (added) {
      d.values.push_back(v);
      if (d.values.size() > max_distinct || plain_bytes > kMaxDictionaryBytes) return std::nullopt;
    }
    d.indices.push_back(next);
  }
  std::vector<uint32_t> seen(d.values.size(), 0);
  for (uint32_t index : d.indices) seen[index] = std::min<uint32_t>(seen[index] + 1, 2);
  const size_t once = static_cast<size_t>(std::count(seen.begin(), seen.end(), 1u));
  if (once * kSortedDictionaryRarity <= leaves.size()) SortDictionary(t, d);
  d.width = std::max(1, BitWidth(static_cast<uint32_t>(d.values.size() - 1)));
  return d;
}

// `body` ZSTD-compressed, its page header (built by `fill` after the sizes and CRC) and body
// appended to `file`; the sizes added to `info`.
template <typename FillHeader>
Status AppendPage(const std::string& body, int type, int zstd_level, FillHeader fill, std::string& file,
                  ChunkInfo& info) {
  std::string compressed(duckdb_zstd::ZSTD_compressBound(body.size()), '\0');
  duckdb_zstd::ZSTD_CCtx_s* context = ThreadCompressionContext();
  if (context == nullptr) return Status::Internal("zstd: no compression context");
  const size_t n = duckdb_zstd::ZSTD_compressCCtx(context, compressed.data(), compressed.size(), body.data(),
                                                  body.size(), zstd_level);
  if (duckdb_zstd::ZSTD_isError(n)) return Status::Internal(std::string("zstd: ") + duckdb_zstd::ZSTD_getErrorName(n));
  compressed.resize(n);

  CompactWriter header;
  header.I32(1, type);
  header.I32(2, static_cast<int32_t>(body.size()));
  header.I32(3, static_cast<int32_t>(compressed.size()));
  header.I32(4, static_cast<int32_t>(zip::Crc32(0, compressed.data(), compressed.size())));
  fill(header);
  header.EndMessage();

  info.uncompressed += static_cast<int64_t>(header.bytes().size() + body.size());
  info.compressed += static_cast<int64_t>(header.bytes().size() + compressed.size());
  file += header.bytes();
  file += compressed;
  return Status::OK();
}

// The dictionary page (PLAIN values) of `dict`, appended to `file`.
Status WriteDictionaryPage(const Dictionary& dict, TypeId t, int zstd_level, std::string& file, ChunkInfo& info) {
  std::string body;
  AppendPlainValues(body, t, dict.values);
  return AppendPage(
      body, kDictionaryPage, zstd_level,
      [&](CompactWriter& header) {
        header.BeginStruct(7);  // DictionaryPageHeader
        header.I32(1, static_cast<int32_t>(dict.values.size()));
        header.I32(2, kPlain);
        header.EndStruct();
      },
      file, info);
}

// Where a column chunk's pages end: (entries, leaves) counts at the end of each page.
struct PageEnd {
  size_t entries = 0;
  size_t leaves = 0;
};

// One data page of entries [e0, e1) / leaves [l0, l1) of `shredded`, appended to `file`:
// PLAIN values, or with `dict` their RLE_DICTIONARY indices; adds its sizes to `info`.
Status WritePage(const Shredded& shredded, const Layout& layout, const Dictionary* dict, PageEnd from, PageEnd to,
                 int zstd_level, std::string& file, ChunkInfo& info) {
  std::string body;
  std::string levels;
  if (layout.shape.max_repetition() > 0) {
    EncodeHybrid(Slice(shredded.repetition, from.entries, to.entries),
                 BitWidth(static_cast<uint32_t>(layout.shape.max_repetition())), &levels);
    AppendLittleEndian<uint32_t>(body, static_cast<uint32_t>(levels.size()));
    body += levels;
  }
  levels.clear();
  EncodeHybrid(Slice(shredded.definition, from.entries, to.entries),
               BitWidth(static_cast<uint32_t>(layout.shape.max_definition())), &levels);
  AppendLittleEndian<uint32_t>(body, static_cast<uint32_t>(levels.size()));
  body += levels;
  if (dict != nullptr) {
    body.push_back(static_cast<char>(dict->width));
    EncodeHybrid(Slice(dict->indices, from.leaves, to.leaves), dict->width, &body);
  } else {
    AppendPlainValues(body, layout.leaf, Slice(shredded.leaves, from.leaves, to.leaves));
  }
  return AppendPage(
      body, kDataPage, zstd_level,
      [&](CompactWriter& header) {
        header.BeginStruct(5);  // DataPageHeader
        header.I32(1, static_cast<int32_t>(to.entries - from.entries));
        header.I32(2, dict != nullptr ? kRleDictionary : kPlain);
        header.I32(3, kRle);
        header.I32(4, kRle);
        header.EndStruct();
      },
      file, info);
}

// One column chunk (rows [begin, end)) appended to `file`: one data page, or with
// content-defined chunking the pages PageChunker cuts (always at row boundaries).
Result<ChunkInfo> WriteChunk(const Column& col, const Layout& layout, size_t begin, size_t end,
                             const ParquetWriteOptions& opts, std::string& file) {
  Shredded shredded;
  std::vector<PageEnd> pages;
  PageChunker chunker;
  std::string scratch;
  for (size_t i = begin; i < end; ++i) {
    const PageEnd before{shredded.count, shredded.leaves.size()};
    if (!Shred(layout.shape, col.values[i], &shredded)) {
      return Status::NotSupported("column '" + col.name + "' holds a value that is not " + col.type.ToString());
    }
    for (size_t k = before.leaves; k < shredded.leaves.size(); ++k) {
      if (!Matches(layout.leaf, *shredded.leaves[k])) {
        return Status::NotSupported("column '" + col.name + "' holds a value that is not " + col.type.ToString());
      }
    }
    if (!opts.content_defined_chunking) continue;
    for (size_t k = before.entries; k < shredded.count; ++k) {
      if (!shredded.repetition.empty()) chunker.RollByte(static_cast<uint8_t>(shredded.repetition[k]));
      if (!shredded.definition.empty()) chunker.RollByte(static_cast<uint8_t>(shredded.definition[k]));
    }
    for (size_t k = before.leaves; k < shredded.leaves.size(); ++k) {
      scratch.clear();
      AppendPlainForHash(scratch, layout.leaf, *shredded.leaves[k]);
      chunker.Roll(scratch.data(), scratch.size());
    }
    if (chunker.EndRow() && i + 1 < end) pages.push_back({shredded.count, shredded.leaves.size()});
  }
  pages.push_back({shredded.count, shredded.leaves.size()});

  ChunkInfo info;
  info.page_offset = static_cast<int64_t>(file.size());
  info.entries = static_cast<int64_t>(shredded.count);
  info.nulls = static_cast<int64_t>(shredded.count - shredded.leaves.size());
  info.bounds = LeafBounds(layout.leaf, shredded.leaves);
  const std::optional<Dictionary> dict = BuildDictionary(layout.leaf, shredded.leaves);
  if (dict) {
    info.dictionary = true;
    TACO_RETURN_IF_ERROR(WriteDictionaryPage(*dict, layout.leaf, opts.zstd_level, file, info));
  }
  info.data_page_offset = static_cast<int64_t>(file.size());
  PageEnd from;
  for (const PageEnd& to : pages) {
    TACO_RETURN_IF_ERROR(WritePage(shredded, layout, dict ? &*dict : nullptr, from, to, opts.zstd_level, file, info));
    from = to;
  }
  return info;
}

// The schema elements of one column: LIST groups and their repeated `list` groups, then the leaf.
void WriteSchema(CompactWriter& meta, const std::string& name, const Layout& layout) {
  for (int j = 0; j < layout.shape.depth(); ++j) {
    meta.BeginElementStruct();
    meta.I32(3, kOptional);
    meta.Binary(4, j == 0 ? name : "element");
    meta.I32(5, 1);
    meta.I32(6, kConvertedList);
    meta.BeginStruct(10);
    meta.BeginStruct(3);  // ListType
    meta.EndStruct();
    meta.EndStruct();
    meta.EndStruct();
    meta.BeginElementStruct();
    meta.I32(3, kRepeated);
    meta.Binary(4, "list");
    meta.I32(5, 1);
    meta.EndStruct();
  }
  meta.BeginElementStruct();
  meta.I32(1, layout.physical);
  meta.I32(3, kOptional);
  meta.Binary(4, layout.shape.depth() == 0 ? name : "element");
  if (layout.converted) meta.I32(6, *layout.converted);
  if (layout.logical != Layout::Logical::kNone) {
    meta.BeginStruct(10);
    if (layout.logical == Layout::Logical::kString) {
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

}  // namespace

bool CanEncodeParquet(const Table& table) {
  for (const Column& c : table.columns) {
    if (!LayoutOf(c.type)) return false;
  }
  return true;
}

Result<std::string> EncodeParquet(const Table& table, const ParquetWriteOptions& opts) {
  if (table.columns.empty()) return Status::InvalidArgument("a Parquet table needs at least one column");
  std::vector<Layout> layouts;
  size_t schema_elements = 1;
  for (const Column& c : table.columns) {
    std::optional<Layout> l = LayoutOf(c.type);
    if (!l) return Status::NotSupported("column '" + c.name + "' (" + c.type.ToString() + ") is not supported here");
    schema_elements += 1 + 2 * static_cast<size_t>(l->shape.depth());
    layouts.push_back(std::move(*l));
  }
  const size_t rows = table.num_rows();
  for (const Column& c : table.columns) {
    if (c.values.size() != rows) return Status::InvalidArgument("column '" + c.name + "' has a different row count");
  }
  const size_t group_rows =
      opts.row_group_size == 0 ? std::max<size_t>(rows, 1) : static_cast<size_t>(opts.row_group_size);

  std::string file = "PAR1";
  std::vector<std::vector<ChunkInfo>> groups;  // [row group][column]
  std::vector<size_t> group_sizes;
  for (size_t begin = 0; begin < rows; begin += group_rows) {
    const size_t end = std::min(rows, begin + group_rows);
    std::vector<ChunkInfo> chunks;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      TACO_ASSIGN_OR_RETURN(ChunkInfo info, WriteChunk(table.columns[c], layouts[c], begin, end, opts, file));
      chunks.push_back(std::move(info));
    }
    groups.push_back(std::move(chunks));
    group_sizes.push_back(end - begin);
  }

  CompactWriter meta;
  meta.I32(1, 1);
  meta.BeginList(2, thrift::kStruct, schema_elements);
  meta.BeginElementStruct();
  meta.Binary(4, "schema");
  meta.I32(5, static_cast<int32_t>(table.columns.size()));
  meta.EndStruct();
  for (size_t c = 0; c < table.columns.size(); ++c) WriteSchema(meta, table.columns[c].name, layouts[c]);
  meta.I64(3, static_cast<int64_t>(rows));
  meta.BeginList(4, thrift::kStruct, groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    meta.BeginElementStruct();
    meta.BeginList(1, thrift::kStruct, table.columns.size());
    int64_t total_uncompressed = 0, total_compressed = 0;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const ChunkInfo& info = groups[g][c];
      total_uncompressed += info.uncompressed;
      total_compressed += info.compressed;
      meta.BeginElementStruct();  // ColumnChunk
      meta.I64(2, info.page_offset);
      meta.BeginStruct(3);  // ColumnMetaData
      meta.I32(1, layouts[c].physical);
      meta.BeginList(2, thrift::kI32, info.dictionary ? 3 : 2);
      meta.ElementI32(kPlain);
      meta.ElementI32(kRle);
      if (info.dictionary) meta.ElementI32(kRleDictionary);
      const int depth = layouts[c].shape.depth();
      meta.BeginList(3, thrift::kBinary, 1 + 2 * static_cast<size_t>(depth));
      meta.ElementBinary(table.columns[c].name);
      for (int j = 0; j < depth; ++j) {
        meta.ElementBinary("list");
        meta.ElementBinary("element");
      }
      meta.I32(4, kZstd);
      meta.I64(5, info.entries);
      meta.I64(6, info.uncompressed);
      meta.I64(7, info.compressed);
      meta.I64(9, info.data_page_offset);
      if (info.dictionary) meta.I64(11, info.page_offset);
      if (depth == 0) {  // statistics of flat columns only
        meta.BeginStruct(12);
        meta.I64(3, info.nulls);
        if (info.bounds) {
          meta.Binary(5, info.bounds->max);
          meta.Binary(6, info.bounds->min);
        }
        meta.EndStruct();
      }
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
    meta.BeginList(5, thrift::kStruct, opts.kv_metadata.size());
    for (const auto& [key, value] : opts.kv_metadata) {
      meta.BeginElementStruct();
      meta.Binary(1, key);
      meta.Binary(2, value);
      meta.EndStruct();
    }
  }
  meta.Binary(6, "taco-cpp");
  meta.BeginList(7, thrift::kStruct, table.columns.size());  // column_orders: TYPE_ORDER for each leaf
  for (size_t c = 0; c < table.columns.size(); ++c) {
    meta.BeginElementStruct();
    meta.BeginStruct(1);
    meta.EndStruct();
    meta.EndStruct();
  }
  meta.EndMessage();  // FileMetaData

  file += meta.bytes();
  AppendLittleEndian<uint32_t>(file, static_cast<uint32_t>(meta.bytes().size()));
  file += "PAR1";
  return file;
}

Result<std::string> TableToParquet(Engine& engine, const Table& table, const ParquetWriteOptions& opts) {
  if (!table.columns.empty() && CanEncodeParquet(table)) {
    Result<std::string> bytes = EncodeParquet(table, opts);
    if (bytes.ok() || bytes.status().code() != StatusCode::kNotSupported) return bytes;
  }
  return engine.ToParquet(table, opts);
}

}  // namespace taco::table
