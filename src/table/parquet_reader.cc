// DecodeParquet: the footer (Thrift compact protocol), the schema tree, then every column
// chunk's pages, assembled into a Table; nullopt on anything outside the supported subset
// (parquet_reader.h).
#include "table/parquet_reader.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "format/zip/crc32.h"
#include "table/engine_zstd.h"
#include "table/parquet_crc.h"
#include "table/parquet_levels.h"
#include "table/thrift_compact.h"
#include "util/json_text.h"

namespace taco::table {
namespace {

using namespace parquet;  // NOLINT: the format's enums
using thrift::CompactReader;
using thrift::Fields;

constexpr size_t kMaxPageBytes = 64u << 20;
// Level entries of one column chunk (a list column has more than one per row): bounds the
// memory a few bytes of RLE runs can claim.
constexpr int64_t kMaxChunkEntries = 4 * static_cast<int64_t>(kMaxDecodedParquetRows);

// One SchemaElement as stored.
struct Element {
  std::string name;
  std::optional<int32_t> physical, repetition, num_children, converted;
  int16_t logical = 0;  // LogicalType union member (field id), 0 when absent
  int32_t time_unit = 0;
  int32_t bit_width = 0;
  bool is_signed = true;
  bool logical_ok = true;
};

// A leaf column and the type the engine gives it.
struct LeafColumn {
  std::string name;
  std::vector<std::string> path;
  int32_t physical = -1;
  ListShape shape;
  TypeId leaf = TypeId::kNull;
  DataType type;
  bool millis = false;  // TIMESTAMP(MILLIS): values × 1000
};

struct Chunk {
  int32_t codec = -1;
  int64_t num_values = -1;
  int64_t start = -1;  // dictionary page offset, else data page offset
  int64_t size = -1;   // total_compressed_size
};

struct RowGroup {
  int64_t num_rows = -1;
  std::vector<Chunk> chunks;
};

struct Footer {
  std::vector<LeafColumn> columns;
  std::vector<RowGroup> groups;
  int64_t num_rows = -1;  // FileMetaData.num_rows: must be the row groups' sum
};

void ParseLogical(CompactReader& r, Element* e) {
  Fields(r, [&](int16_t id, uint8_t t) {
    if (e->logical != 0 || !r.BeginStruct(t)) {  // a union holds one member, each a struct
      e->logical_ok = false;
      r.Skip(t);
      return;
    }
    e->logical = id;
    Fields(r, [&](int16_t fid, uint8_t ft) {
      if (id == 8 && fid == 1) {
        r.Bool(ft);  // isAdjustedToUTC: the engine reads both as the same instant
      } else if (id == 8 && fid == 2 && r.BeginStruct(ft)) {  // TimeUnit union
        Fields(r, [&](int16_t uid, uint8_t ut) {
          // A member is an (empty) struct; another wire type is skipped by the engine,
          // which then finds no unit.
          e->time_unit = e->time_unit == 0 && ut == thrift::kStruct ? uid : -1;
          r.Skip(ut);
        });
      } else if (id == 10 && fid == 1) {
        e->bit_width = r.I8(ft);
      } else if (id == 10 && fid == 2) {
        e->is_signed = r.Bool(ft);
      } else {
        r.Skip(ft);
      }
    });
  });
}

// A list field of `element` values (any number), read and dropped; false when its element
// type is another (the engine reads the declared type and fails on the rest).
bool SkipListOf(CompactReader& r, uint8_t type, uint8_t element) {
  uint8_t et = 0;
  const uint64_t n = r.List(type, &et);
  if (n > 0 && et != element) return false;
  for (uint64_t k = 0; k < n && !r.failed(); ++k) r.Skip(et, true);
  return !r.failed();
}

// The engine refuses a footer whose enum fields hold values outside their enums.
bool InRange(int32_t v, int32_t lo, int32_t hi) { return v >= lo && v <= hi; }
bool IsEncoding(int32_t v) { return InRange(v, 0, 9) && v != 1; }

bool ParseElement(CompactReader& r, Element* e) {
  bool bad = false;
  const bool ok = Fields(r, [&](int16_t id, uint8_t t) {
    switch (id) {
      case 1:
        e->physical = r.I32(t);
        bad |= !InRange(*e->physical, 0, 7);
        break;
      case 3:
        e->repetition = r.I32(t);
        bad |= !InRange(*e->repetition, 0, 2);
        break;
      case 4: e->name = std::string(r.Binary(t)); break;
      case 5: e->num_children = r.I32(t); break;
      case 6:
        e->converted = r.I32(t);
        bad |= !InRange(*e->converted, 0, 21);
        break;
      case 10:
        if (r.BeginStruct(t)) ParseLogical(r, e);
        break;
      default: r.Skip(t); break;
    }
  });
  return ok && !bad;
}

// The engine's type for a primitive leaf; false when not supported here.
bool LeafType(const Element& e, LeafColumn* col) {
  const int16_t kind = e.logical;
  const std::optional<int32_t>& converted = e.converted;
  if (!e.logical_ok) return false;
  col->physical = *e.physical;
  switch (*e.physical) {
    case kBoolean:
    case kFloat:
    case kDouble:
      if (kind != 0 || converted) return false;
      col->leaf = *e.physical == kBoolean ? TypeId::kBool : *e.physical == kFloat ? TypeId::kFloat : TypeId::kDouble;
      return true;
    case kInt32: {
      const bool int_converted =
          !converted || *converted == kConvertedInt8 || *converted == kConvertedInt16 || *converted == kConvertedInt32;
      const bool int_logical =
          kind == 0 || (kind == 10 && e.is_signed && (e.bit_width == 8 || e.bit_width == 16 || e.bit_width == 32));
      if (!int_converted || !int_logical) return false;
      col->leaf = TypeId::kInt32;
      return true;
    }
    case kInt64: {
      const bool timestamp =
          kind == 8 ||
          (converted && (*converted == kConvertedTimestampMillis || *converted == kConvertedTimestampMicros));
      if (timestamp) {
        const int32_t unit = kind == 8 ? e.time_unit : (*converted == kConvertedTimestampMillis ? 1 : 2);
        if (unit != 1 && unit != 2) return false;
        if (kind != 0 && kind != 8) return false;
        if (converted && *converted != (unit == 1 ? kConvertedTimestampMillis : kConvertedTimestampMicros))
          return false;
        col->millis = unit == 1;
        col->leaf = TypeId::kTimestampUs;
        return true;
      }
      const bool int_converted = !converted || *converted == kConvertedInt64;
      const bool int_logical = kind == 0 || (kind == 10 && e.is_signed && e.bit_width == 64);
      if (!int_converted || !int_logical) return false;
      col->leaf = TypeId::kInt64;
      return true;
    }
    case kByteArray:
      if (kind == 1 || (kind == 0 && converted && *converted == kConvertedUtf8)) {
        if (converted && *converted != kConvertedUtf8) return false;
        col->leaf = TypeId::kString;
        return true;
      }
      if (kind != 0 || converted) return false;
      col->leaf = TypeId::kBinary;
      return true;
    default: return false;
  }
}

bool IsList(const Element& e) {
  return e.logical_ok && ((e.logical == 3 && (!e.converted || *e.converted == kConvertedList)) ||
                          (e.logical == 0 && e.converted && *e.converted == kConvertedList));
}

// One top-level column starting at elements[*i]: LIST groups down to a primitive leaf.
bool ParseColumn(const std::vector<Element>& elements, size_t* i, LeafColumn* col) {
  if (*i >= elements.size()) return false;  // the root claims more children than there are
  col->name = elements[*i].name;
  for (int depth = 0;; ++depth) {
    if (*i >= elements.size()) return false;
    const Element& e = elements[(*i)++];
    col->path.push_back(e.name);
    const int32_t repetition = e.repetition.value_or(-1);
    if (repetition != kOptional && repetition != kRequired) return false;
    const int32_t children = e.num_children.value_or(0);
    if (children == 0) {  // the leaf
      if (!e.physical || !LeafType(e, col)) return false;
      col->shape.leaf_optional = repetition == kOptional;
      break;
    }
    // A LIST group: exactly one repeated group of exactly one child (not the legacy
    // 2-level forms, whose repeated group is named "array" or "<name>_tuple").
    if (e.physical || !IsList(e) || children != 1 || depth == kMaxListDepth || *i >= elements.size()) return false;
    const Element& list = elements[(*i)++];
    if (list.physical || list.repetition.value_or(-1) != kRepeated || list.num_children.value_or(0) != 1 ||
        list.logical != 0 || list.converted || list.name == "array" ||
        (list.name.size() >= 6 && list.name.compare(list.name.size() - 6, 6, "_tuple") == 0)) {
      return false;
    }
    col->path.push_back(list.name);
    col->shape.list_optional.push_back(repetition == kOptional);
  }
  DataType type(col->leaf);
  for (int j = 0; j < col->shape.depth(); ++j) type = DataType::List(type);
  col->type = type;
  return !col->name.empty();
}

bool ParseColumnMeta(CompactReader& r, const LeafColumn& col, Chunk* c) {
  int64_t data_offset = -1, dictionary_offset = -1, uncompressed = -1;
  int32_t physical = -1;
  bool encodings = false, bad = false;
  std::vector<std::string_view> path;
  const bool ok = Fields(r, [&](int16_t id, uint8_t t) {
    switch (id) {
      case 1: physical = r.I32(t); break;
      case 2:
      case 3: {
        uint8_t et = 0;
        const uint64_t n = r.List(t, &et);
        const uint8_t want = id == 2 ? thrift::kI32 : thrift::kBinary;
        if (n > 0 && et != want) bad = true;
        for (uint64_t k = 0; k < n && !r.failed(); ++k) {
          if (bad) {
            r.Skip(et, true);
          } else if (id == 2) {
            bad |= !IsEncoding(r.ElementI32());
          } else {
            path.push_back(r.ElementBinary());
          }
        }
        if (id == 2) encodings = true;
        break;
      }
      case 4: c->codec = r.I32(t); break;
      case 5: c->num_values = r.I64(t); break;
      case 6: uncompressed = r.I64(t); break;
      case 7: c->size = r.I64(t); break;
      case 9: data_offset = r.I64(t); break;
      case 11: dictionary_offset = r.I64(t); break;
      case 10:  // index_page_offset
      case 14:  // bloom_filter_offset
        r.I64(t);
        break;
      case 15: r.I32(t); break;  // bloom_filter_length
      case 16:                   // SizeStatistics{1: i64, 2: list<i64>, 3: list<i64>}
        if (!r.BeginStruct(t)) break;
        Fields(r, [&](int16_t sid, uint8_t st) {
          if (sid == 1) {
            r.I64(st);
          } else if (sid == 2 || sid == 3) {
            bad |= !SkipListOf(r, st, thrift::kI64);
          } else {
            r.Skip(st);
          }
        });
        break;
      case 12: {  // Statistics: min/max of a fixed-width type have its width
        if (!r.BeginStruct(t)) break;
        const size_t width = physical == kInt32 || physical == kFloat    ? 4
                             : physical == kInt64 || physical == kDouble ? 8
                             : physical == kBoolean                      ? 1
                                                                         : 0;
        Fields(r, [&](int16_t sid, uint8_t st) {
          if (sid == 1 || sid == 2 || sid == 5 || sid == 6) {
            const std::string_view v = r.Binary(st);
            bad |= width != 0 && v.size() != width;
          } else {
            r.Skip(st);
          }
        });
        break;
      }
      case 13: {  // encoding_stats: list<PageEncodingStats{page_type, encoding, count}>
        uint8_t et = 0;
        const uint64_t n = r.List(t, &et);
        if (n > 0 && et != thrift::kStruct) bad = true;
        for (uint64_t k = 0; k < n && !r.failed() && !bad; ++k) {
          r.BeginElementStruct();
          bool page_type = false, encoding = false, count = false;
          Fields(r, [&](int16_t sid, uint8_t st) {
            if (sid == 1) {
              bad |= !InRange(r.I32(st), 0, 3);
              page_type = true;
            } else if (sid == 2) {
              bad |= !IsEncoding(r.I32(st));
              encoding = true;
            } else if (sid == 3) {
              r.I32(st);
              count = true;
            } else {
              r.Skip(st);
            }
          });
          bad |= !(page_type && encoding && count);
        }
        break;
      }
      default: r.Skip(t); break;
    }
  });
  if (!ok || bad || !encodings || physical != col.physical || uncompressed < 0 || c->codec < 0 || c->num_values < 0 ||
      c->size < 0 || data_offset < 0 || path.size() != col.path.size()) {
    return false;
  }
  for (size_t k = 0; k < path.size(); ++k) {
    if (path[k] != col.path[k]) return false;
  }
  // The engine starts a chunk at its dictionary page offset whenever one is given: one not
  // before the data pages is left to it.
  if (dictionary_offset > 0 && dictionary_offset >= data_offset) return false;
  c->start = dictionary_offset > 0 ? dictionary_offset : data_offset;
  return true;
}

bool ParseRowGroup(CompactReader& r, const std::vector<LeafColumn>& columns, RowGroup* g) {
  bool has_columns = false, has_total = false, bad = false;
  const bool ok = Fields(r, [&](int16_t id, uint8_t t) {
    if (id == 1) {
      uint8_t et = 0;
      const uint64_t n = r.List(t, &et);
      if (n != columns.size() || (n > 0 && et != thrift::kStruct)) {
        bad = true;
        for (uint64_t k = 0; k < n && !r.failed(); ++k) r.Skip(et, true);
        return;
      }
      has_columns = true;
      for (uint64_t k = 0; k < n && !r.failed(); ++k) {
        Chunk c;
        bool file_offset = false, meta = false, external = false;
        r.BeginElementStruct();
        Fields(r, [&](int16_t cid, uint8_t ct) {
          if (cid == 1) {
            external = true;
            r.Skip(ct);
          } else if (cid == 2) {
            r.I64(ct);
            file_offset = true;
          } else if (cid == 3) {
            if (r.BeginStruct(ct)) meta = ParseColumnMeta(r, columns[k], &c);
          } else if (cid == 4 || cid == 6) {  // offset / column index offsets
            r.I64(ct);
          } else if (cid == 5 || cid == 7) {  // their lengths
            r.I32(ct);
          } else {
            r.Skip(ct);
          }
        });
        if (external || !file_offset || !meta) bad = true;
        g->chunks.push_back(c);
      }
    } else if (id == 2) {
      r.I64(t);
      has_total = true;
    } else if (id == 3) {
      g->num_rows = r.I64(t);
    } else if (id == 5 || id == 6) {  // file_offset, total_compressed_size
      r.I64(t);
    } else {
      r.Skip(t);
    }
  });
  return ok && !bad && has_columns && has_total && g->num_rows >= 0 && g->chunks.size() == columns.size();
}

// The top-level columns of a schema: elements[0] is the root, whose children are columns.
bool ParseSchema(const std::vector<Element>& elements, std::vector<LeafColumn>* columns) {
  if (elements.size() < 2 || elements[0].physical || elements[0].num_children.value_or(0) <= 0) return false;
  for (const Element& e : elements) {
    if (!util::IsValidUtf8(e.name)) return false;  // the engine refuses names that are not UTF-8
  }
  size_t i = 1;
  for (int32_t c = 0; c < *elements[0].num_children; ++c) {
    LeafColumn col;
    if (!ParseColumn(elements, &i, &col)) return false;
    for (const LeafColumn& other : *columns) {
      if (other.name == col.name) return false;  // the engine renames duplicates
    }
    columns->push_back(std::move(col));
  }
  return i == elements.size();
}

// FileMetaData field 2 (schema: list<SchemaElement>) at the reader's position, as leaf
// columns. False on a malformed list or schema.
bool ReadSchemaField(CompactReader& r, uint8_t t, std::vector<LeafColumn>* columns) {
  uint8_t et = 0;
  const uint64_t n = r.List(t, &et);
  if (n > 0 && et != thrift::kStruct) return false;
  std::vector<Element> elements;
  for (uint64_t k = 0; k < n; ++k) {
    Element e;
    r.BeginElementStruct();
    if (!ParseElement(r, &e)) return false;
    elements.push_back(std::move(e));
  }
  return ParseSchema(elements, columns);
}

std::optional<Footer> ParseFooter(std::string_view bytes) {
  CompactReader r(bytes);
  Footer f;
  bool version = false, schema = false, num_rows = false, row_groups = false, bad = false;
  int16_t id = 0;
  uint8_t t = 0;
  while (r.NextField(&id, &t) && !bad) {
    if (id == 1) {
      r.I32(t);
      version = true;
    } else if (id == 2) {
      if (schema || !ReadSchemaField(r, t, &f.columns)) return std::nullopt;
      schema = true;
    } else if (id == 3) {
      f.num_rows = r.I64(t);
      num_rows = true;
    } else if (id == 5) {  // key_value_metadata: list<KeyValue{1: required key, 2: value}>
      uint8_t et = 0;
      const uint64_t n = r.List(t, &et);
      if (n > 0 && et != thrift::kStruct) return std::nullopt;
      for (uint64_t k = 0; k < n; ++k) {
        bool key = false;
        r.BeginElementStruct();
        Fields(r, [&](int16_t kid, uint8_t kt) {
          if (kid == 1 || kid == 2) {
            r.Binary(kt);
            key |= kid == 1;
          } else {
            r.Skip(kt);
          }
        });
        if (!key) return std::nullopt;
      }
    } else if (id == 6) {
      r.Binary(t);
    } else if (id == 7) {  // column_orders: list<ColumnOrder> (a union of structs)
      uint8_t et = 0;
      const uint64_t n = r.List(t, &et);
      if (n > 0 && et != thrift::kStruct) return std::nullopt;
      for (uint64_t k = 0; k < n; ++k) r.Skip(thrift::kStruct, true);
    } else if (id == 4) {
      uint8_t et = 0;
      const uint64_t n = r.List(t, &et);
      // Writers put the schema (field 2) first; otherwise leave the file to the engine.
      if (!schema || row_groups || (n > 0 && et != thrift::kStruct)) return std::nullopt;
      for (uint64_t k = 0; k < n; ++k) {
        RowGroup g;
        r.BeginElementStruct();
        if (!ParseRowGroup(r, f.columns, &g)) return std::nullopt;
        f.groups.push_back(std::move(g));
      }
      row_groups = true;
    } else {
      r.Skip(t);
    }
  }
  if (r.failed() || bad || !version || !schema || !num_rows || !row_groups) return std::nullopt;
  return f;
}

// `count` PLAIN values of `col` from `in` (the rest of `in` is ignored).
bool DecodePlain(const LeafColumn& col, std::string_view in, size_t count, std::vector<Value>* out) {
  size_t pos = 0;
  auto fixed = [&](size_t width, auto make) {
    if (count > (in.size() - pos) / width) return false;
    for (size_t i = 0; i < count; ++i, pos += width) {
      if (!make(in.data() + pos)) return false;
    }
    return true;
  };
  switch (col.physical) {
    case kBoolean:
      if ((count + 7) / 8 > in.size()) return false;
      for (size_t i = 0; i < count; ++i) out->emplace_back(((static_cast<uint8_t>(in[i / 8]) >> (i % 8)) & 1) != 0);
      return true;
    case kInt32:
      return fixed(4, [&](const char* p) {
        int32_t v;
        std::memcpy(&v, p, 4);
        out->emplace_back(v);
        return true;
      });
    case kFloat:
      return fixed(4, [&](const char* p) {
        float v;
        std::memcpy(&v, p, 4);
        out->emplace_back(v);
        return true;
      });
    case kDouble:
      return fixed(8, [&](const char* p) {
        double v;
        std::memcpy(&v, p, 8);
        out->emplace_back(v);
        return true;
      });
    case kInt64:
      return fixed(8, [&](const char* p) {
        int64_t v;
        std::memcpy(&v, p, 8);
        if (col.leaf != TypeId::kTimestampUs) {
          out->emplace_back(v);
        } else if (!col.millis) {
          out->emplace_back(TimestampUs{v});
        } else if (v > std::numeric_limits<int64_t>::max() / 1000 || v < std::numeric_limits<int64_t>::min() / 1000) {
          return false;
        } else {
          out->emplace_back(TimestampUs{v * 1000});
        }
        return true;
      });
    case kByteArray:
      for (size_t i = 0; i < count; ++i) {
        if (in.size() - pos < 4) return false;
        uint32_t n;
        std::memcpy(&n, in.data() + pos, 4);
        pos += 4;
        if (n > in.size() - pos) return false;
        const std::string_view s = in.substr(pos, n);
        pos += n;
        if (col.leaf == TypeId::kString) {
          if (!util::IsValidUtf8(s)) return false;
          out->emplace_back(std::string(s));
        } else {
          out->emplace_back(taco::Binary{std::string(s)});
        }
      }
      return true;
    default: return false;
  }
}

struct PageHeader {
  int32_t type = -1;
  int32_t uncompressed = -1;
  int32_t compressed = -1;
  int32_t num_values = -1;
  int32_t encoding = -1;
  int32_t def_encoding = -1;
  int32_t rep_encoding = -1;
  int32_t num_nulls = -1;  // v2
  int32_t num_rows = -1;   // v2
  int32_t def_bytes = -1;  // v2
  int32_t rep_bytes = -1;  // v2
  bool v2_compressed = true;
  std::optional<uint32_t> crc;  // CRC-32 of the page's stored bytes, when the writer gave one
};

bool ParsePageHeader(CompactReader& r, PageHeader* h) {
  bool sub_ok = true;
  int16_t id = 0;
  uint8_t t = 0;
  while (r.NextField(&id, &t)) {
    if (id == 1) {
      h->type = r.I32(t);
    } else if (id == 2) {
      h->uncompressed = r.I32(t);
    } else if (id == 3) {
      h->compressed = r.I32(t);
    } else if (id == 4) {
      h->crc = static_cast<uint32_t>(r.I32(t));
    } else if (id == 5 || id == 7 || id == 8) {
      if (!r.BeginStruct(t)) break;
      Fields(r, [&](int16_t fid, uint8_t ft) {
        if (fid == 1) {
          h->num_values = r.I32(ft);
        } else if (id == 5 && fid == 2) {
          h->encoding = r.I32(ft);
        } else if (id == 5 && fid == 3) {
          h->def_encoding = r.I32(ft);
        } else if (id == 5 && fid == 4) {
          h->rep_encoding = r.I32(ft);
        } else if (id == 7 && fid == 2) {
          h->encoding = r.I32(ft);
        } else if (id == 8 && fid == 2) {
          h->num_nulls = r.I32(ft);
        } else if (id == 8 && fid == 3) {
          h->num_rows = r.I32(ft);
        } else if (id == 8 && fid == 4) {
          h->encoding = r.I32(ft);
        } else if (id == 8 && fid == 5) {
          h->def_bytes = r.I32(ft);
        } else if (id == 8 && fid == 6) {
          h->rep_bytes = r.I32(ft);
        } else if (id == 8 && fid == 7) {
          h->v2_compressed = r.Bool(ft);
        } else {
          r.Skip(ft);
        }
      });
      // Required fields of each header kind; encodings are enum values (the engine refuses
      // others, even where they are not used, e.g. the repetition levels of a flat column).
      if (h->num_values < 0 || !IsEncoding(h->encoding)) sub_ok = false;
      if (id == 5 && (!IsEncoding(h->def_encoding) || !IsEncoding(h->rep_encoding))) sub_ok = false;
      if (id == 5 && (h->def_encoding < 0 || h->rep_encoding < 0)) sub_ok = false;
      if (id == 8 && (h->num_nulls < 0 || h->num_rows < 0 || h->def_bytes < 0 || h->rep_bytes < 0)) sub_ok = false;
    } else {
      r.Skip(t);
    }
  }
  return !r.failed() && sub_ok && h->type >= 0 && h->uncompressed >= 0 && h->compressed >= 0 &&
         static_cast<size_t>(h->uncompressed) <= kMaxPageBytes;
}

bool Decompress(int32_t codec, std::string_view in, size_t size, std::string* out) {
  if (codec == kUncompressed) {
    if (in.size() != size) return false;
    out->assign(in);
    return true;
  }
  out->resize(size);
  duckdb_zstd::ZSTD_DCtx_s* context = ThreadDecompressionContext();
  if (context == nullptr) return false;
  const size_t n = duckdb_zstd::ZSTD_decompressDCtx(context, out->data(), size, in.data(), in.size());
  return !duckdb_zstd::ZSTD_isError(n) && n == size;
}

// A v1 page's levels: a 4-byte length, then that many bytes of RLE/bit-packed hybrid.
bool TakeLevels(std::string_view* page, int width, size_t count, std::vector<uint32_t>* out) {
  if (page->size() < 4) return false;
  uint32_t len;
  std::memcpy(&len, page->data(), 4);
  if (len > page->size() - 4) return false;
  if (!DecodeHybrid(page->substr(4, len), width, count, out)) return false;
  page->remove_prefix(4 + static_cast<size_t>(len));
  return true;
}

// Every row of one column chunk appended to `rows`; false when unsupported or malformed.
bool ReadChunk(std::string_view file, const LeafColumn& col, const Chunk& chunk, int64_t num_rows,
               std::vector<Value>* rows) {
  if (chunk.codec != kUncompressed && chunk.codec != kZstd) return false;
  if (chunk.start < 4 || static_cast<uint64_t>(chunk.start) + static_cast<uint64_t>(chunk.size) > file.size() - 8 ||
      chunk.num_values < num_rows || chunk.num_values > kMaxChunkEntries) {
    return false;
  }
  const int max_rep = col.shape.max_repetition();
  const int max_def = col.shape.max_definition();
  const int rep_width = BitWidth(static_cast<uint32_t>(max_rep));
  const int def_width = BitWidth(static_cast<uint32_t>(max_def));
  std::string_view chunk_bytes = file.substr(static_cast<size_t>(chunk.start), static_cast<size_t>(chunk.size));
  std::vector<Value> dictionary, leaves;
  bool has_dictionary = false;
  std::vector<uint32_t> reps, defs, page_reps, page_defs, indices;
  std::string body;
  int64_t entries = 0;
  while (entries < chunk.num_values) {
    CompactReader r(chunk_bytes);
    PageHeader h;
    if (!ParsePageHeader(r, &h)) return false;
    chunk_bytes.remove_prefix(r.position());
    if (static_cast<size_t>(h.compressed) > chunk_bytes.size()) return false;
    const std::string_view raw = chunk_bytes.substr(0, static_cast<size_t>(h.compressed));
    chunk_bytes.remove_prefix(static_cast<size_t>(h.compressed));
    if (h.crc && *h.crc != zip::Crc32(0, raw.data(), raw.size())) return false;
    if (h.type == kIndexPage) continue;
    if (h.type == kDictionaryPage) {
      if (has_dictionary || entries > 0 || (h.encoding != kPlain && h.encoding != kPlainDictionary)) return false;
      if (!Decompress(chunk.codec, raw, static_cast<size_t>(h.uncompressed), &body)) return false;
      if (static_cast<size_t>(h.num_values) > body.size()) return false;  // ≥ 1 bit each; bounded
      if (!DecodePlain(col, body, static_cast<size_t>(h.num_values), &dictionary)) return false;
      has_dictionary = true;
      continue;
    }
    if (h.type != kDataPage && h.type != kDataPageV2) return false;
    if (h.num_values <= 0 || h.num_values > chunk.num_values - entries) return false;
    const size_t n = static_cast<size_t>(h.num_values);
    std::string_view values_bytes;
    page_reps.clear();
    page_defs.clear();
    if (h.type == kDataPage) {
      if ((max_rep > 0 && h.rep_encoding != kRle) || (max_def > 0 && h.def_encoding != kRle)) return false;
      if (!Decompress(chunk.codec, raw, static_cast<size_t>(h.uncompressed), &body)) return false;
      std::string_view page(body);
      if (max_rep > 0 && !TakeLevels(&page, rep_width, n, &page_reps)) return false;
      if (max_def > 0 && !TakeLevels(&page, def_width, n, &page_defs)) return false;
      values_bytes = page;
    } else {
      const size_t level_bytes = static_cast<size_t>(h.rep_bytes) + static_cast<size_t>(h.def_bytes);
      if (level_bytes > raw.size() || level_bytes > static_cast<size_t>(h.uncompressed)) return false;
      if ((max_rep == 0 && h.rep_bytes != 0) || (max_def == 0 && h.def_bytes != 0)) return false;
      if (max_rep > 0 && !DecodeHybrid(raw.substr(0, static_cast<size_t>(h.rep_bytes)), rep_width, n, &page_reps)) {
        return false;
      }
      if (max_def > 0 && !DecodeHybrid(raw.substr(static_cast<size_t>(h.rep_bytes), static_cast<size_t>(h.def_bytes)),
                                       def_width, n, &page_defs)) {
        return false;
      }
      const size_t rest = static_cast<size_t>(h.uncompressed) - level_bytes;
      if (!Decompress(h.v2_compressed ? chunk.codec : kUncompressed, raw.substr(level_bytes), rest, &body))
        return false;
      values_bytes = body;
    }
    size_t defined = n;
    if (max_def > 0) {
      defined = 0;
      for (uint32_t d : page_defs) {
        if (d > static_cast<uint32_t>(max_def)) return false;
        defined += d == static_cast<uint32_t>(max_def) ? 1 : 0;
      }
      if (h.type == kDataPageV2 && static_cast<size_t>(h.num_nulls) != n - defined) return false;
    }
    for (uint32_t rp : page_reps) {
      if (rp > static_cast<uint32_t>(max_rep)) return false;
    }
    if (h.encoding == kPlain) {
      if (!DecodePlain(col, values_bytes, defined, &leaves)) return false;
    } else if (h.encoding == kPlainDictionary || h.encoding == kRleDictionary) {
      // The index bit width is checked even when every value is null (the engine reads it).
      if (!has_dictionary || values_bytes.empty() || static_cast<uint8_t>(values_bytes[0]) > 32) return false;
      if (defined > 0) {
        const int width = static_cast<uint8_t>(values_bytes[0]);
        if (!DecodeHybrid(values_bytes.substr(1), width, defined, &indices)) return false;
        for (uint32_t i : indices) {
          if (i >= dictionary.size()) return false;
          leaves.push_back(dictionary[i]);
        }
      }
    } else {
      return false;
    }
    reps.insert(reps.end(), page_reps.begin(), page_reps.end());
    defs.insert(defs.end(), page_defs.begin(), page_defs.end());
    entries += h.num_values;
  }
  // The pages fill the chunk exactly (the engine refuses chunks whose sizes disagree).
  if (!chunk_bytes.empty()) return false;
  const size_t before = rows->size();
  if (!Assemble(col.shape, reps, defs, leaves, static_cast<size_t>(entries), rows)) return false;
  return rows->size() - before == static_cast<size_t>(num_rows);
}

}  // namespace

std::optional<std::vector<Column>> ParquetSchemaColumns(std::string_view meta) {
  CompactReader r(meta);
  std::optional<std::vector<Column>> out;
  int16_t id = 0;
  uint8_t t = 0;
  while (r.NextField(&id, &t)) {
    if (id != 2) {
      r.Skip(t);
      continue;
    }
    std::vector<LeafColumn> columns;
    if (out || !ReadSchemaField(r, t, &columns)) return std::nullopt;
    out.emplace();
    for (LeafColumn& c : columns) out->push_back(Column{std::move(c.name), std::move(c.type), {}});
  }
  if (r.failed()) return std::nullopt;
  return out;
}

std::optional<Table> DecodeParquet(std::string_view file) {
  if (file.size() < 12 || file.substr(0, 4) != "PAR1" || file.substr(file.size() - 4) != "PAR1") return std::nullopt;
  uint32_t meta_size;
  std::memcpy(&meta_size, file.data() + file.size() - 8, 4);
  if (meta_size > file.size() - 12) return std::nullopt;
  std::optional<Footer> footer = ParseFooter(file.substr(file.size() - 8 - meta_size, meta_size));
  if (!footer) return std::nullopt;
  uint64_t total = 0;
  for (const RowGroup& g : footer->groups) {
    total += static_cast<uint64_t>(g.num_rows);
    if (total > kMaxDecodedParquetRows) return std::nullopt;
  }
  if (footer->num_rows < 0 || static_cast<uint64_t>(footer->num_rows) != total) return std::nullopt;
  Table table;
  for (const LeafColumn& c : footer->columns) table.columns.push_back(Column{c.name, c.type, {}});
  for (const RowGroup& g : footer->groups) {
    for (size_t c = 0; c < footer->columns.size(); ++c) {
      if (!ReadChunk(file, footer->columns[c], g.chunks[c], g.num_rows, &table.columns[c].values)) return std::nullopt;
    }
  }
  return table;
}

Result<Table> ReadSmallParquet(Engine& engine, std::string bytes, const std::string& name, uint64_t max_rows) {
  return ReadSmallParquet([&engine]() -> Engine& { return engine; }, std::move(bytes), name, max_rows);
}

Result<Table> ReadSmallParquet(const std::function<Engine&()>& engine, std::string bytes, const std::string& name,
                               uint64_t max_rows) {
  // DecodeParquet leaves a page whose CRC differs to the engine, which does not check it.
  TACO_RETURN_IF_ERROR(VerifyParquetPageCrcs(bytes, name).status());
  if (std::optional<Table> table = DecodeParquet(bytes); table && table->num_rows() <= max_rows)
    return std::move(*table);
  return engine().ReadParquet(MemoryReader(std::move(bytes), name), max_rows);
}

Result<Table> ReadSmallParquet(Engine& engine, RangeReaderPtr reader, uint64_t max_rows) {
  return ReadSmallParquet([&engine]() -> Engine& { return engine; }, std::move(reader), max_rows);
}

Result<Table> ReadSmallParquet(const std::function<Engine&()>& engine, RangeReaderPtr reader, uint64_t max_rows) {
  const uint64_t size = reader->size();
  if (size < 12 || size > kMaxDecodedParquetBytes) return engine().ReadParquet(std::move(reader), max_rows);
  std::string bytes(static_cast<size_t>(size), '\0');
  TACO_RETURN_IF_ERROR(reader->ReadAt(0, bytes.size(), bytes.data()));
  TACO_RETURN_IF_ERROR(VerifyParquetPageCrcs(bytes, reader->name()).status());
  if (std::optional<Table> table = DecodeParquet(bytes); table && table->num_rows() <= max_rows)
    return std::move(*table);
  return engine().ReadParquet(std::move(reader), max_rows);
}

}  // namespace taco::table
