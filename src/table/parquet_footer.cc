#include "table/parquet_footer.h"

#include <algorithm>
#include <cstdint>

#include "table/parquet_reader.h"
#include "table/thrift_compact.h"

namespace taco::table {
namespace {

using thrift::CompactReader;
using thrift::Fields;

constexpr uint64_t kTailBytes = kParquetFooterTailBytes;
constexpr uint64_t kMaxFooterBytes = uint64_t{64} << 20;

uint32_t LittleU32(const char* p) {
  return static_cast<uint32_t>(static_cast<uint8_t>(p[0])) | static_cast<uint32_t>(static_cast<uint8_t>(p[1])) << 8 |
         static_cast<uint32_t>(static_cast<uint8_t>(p[2])) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(p[3])) << 24;
}

// Statistics: max_value (5) and min_value (6); the deprecated max (1) / min (2) are ignored
// (their string order is not specified).
std::optional<ParquetFooterFacts::MinMax> ParseStatistics(CompactReader& r) {
  std::optional<std::string> min, max;
  Fields(r, [&](int16_t id, uint8_t t) {
    if (id == 5) {
      max = std::string(r.Binary(t));
    } else if (id == 6) {
      min = std::string(r.Binary(t));
    } else {
      r.Skip(t);
    }
  });
  if (!min || !max) return std::nullopt;
  return ParquetFooterFacts::MinMax{std::move(*min), std::move(*max)};
}

// ColumnMetaData: path_in_schema (3) and statistics (12).
void ParseColumnMeta(CompactReader& r, std::string_view stats_column, bool* matches,
                     std::optional<ParquetFooterFacts::MinMax>* stats) {
  std::vector<std::string> path;
  std::optional<ParquetFooterFacts::MinMax> found;
  Fields(r, [&](int16_t id, uint8_t t) {
    if (id == 3) {
      uint8_t et = 0;
      const uint64_t n = r.List(t, &et);
      for (uint64_t i = 0; i < n && !r.failed(); ++i) path.emplace_back(r.ElementBinary());
    } else if (id == 12) {
      if (r.BeginStruct(t)) found = ParseStatistics(r);
    } else {
      r.Skip(t);
    }
  });
  *matches = path.size() == 1 && path[0] == stats_column;
  if (*matches) *stats = std::move(found);
}

// ConvertedType values that keep the Arrow type of engine.h's mapping: UTF8, LIST,
// TIMESTAMP_MICROS, INT_32, INT_64.
bool PlainConvertedType(int32_t v) { return v == 0 || v == 3 || v == 10 || v == 17 || v == 18; }

// LogicalType (a union): STRING (1), LIST (3), TIMESTAMP (8) not adjusted to UTC in MICROS,
// INTEGER (10) of 32 or 64 signed bits. Anything else is not plain.
bool PlainLogicalType(CompactReader& r) {
  bool plain = true;
  Fields(r, [&](int16_t kind, uint8_t t) {
    if (kind == 1 || kind == 3) {
      r.Skip(t);
    } else if (kind == 8 && r.BeginStruct(t)) {
      bool utc = true, micros = false;
      Fields(r, [&](int16_t fid, uint8_t ft) {
        if (fid == 1) {
          utc = r.Bool(ft);
        } else if (fid == 2 && r.BeginStruct(ft)) {
          Fields(r, [&](int16_t unit, uint8_t ut) {
            micros = unit == 2;
            r.Skip(ut);
          });
        } else {
          r.Skip(ft);
        }
      });
      plain = plain && !utc && micros;
    } else if (kind == 10 && r.BeginStruct(t)) {
      int bits = 0;
      bool is_signed = false;
      Fields(r, [&](int16_t fid, uint8_t ft) {
        if (fid == 1) {
          bits = r.I8(ft);
        } else if (fid == 2) {
          is_signed = r.Bool(ft);
        } else {
          r.Skip(ft);
        }
      });
      plain = plain && is_signed && (bits == 32 || bits == 64);
    } else {
      r.Skip(t);
      plain = false;
    }
  });
  return plain;
}

}  // namespace

bool ParquetFooterFacts::has_column(std::string_view name) const {
  return std::find(columns.begin(), columns.end(), name) != columns.end();
}

bool ParquetFooterFacts::ProvesNoValueStartsWith(std::string_view prefix) const {
  if (rows == 0) return true;
  if (prefix.empty() || static_cast<uint8_t>(prefix.back()) == 0xFF) return false;
  std::string after(prefix);  // the first string greater than every string starting with prefix
  after.back() = static_cast<char>(after.back() + 1);
  if (stats.empty()) return false;
  for (const auto& group : stats) {
    if (!group) return false;
    // Values starting with prefix lie in [prefix, after); char_traits<char> compares bytes unsigned.
    const bool below = group->max.compare(prefix) < 0;
    const bool above = group->min.compare(after) >= 0;
    if (!below && !above) return false;
  }
  return true;
}

Result<std::optional<ParquetFooterFacts>> ReadParquetFooter(const RangeReader& reader, std::string_view stats_column) {
  return ReadParquetFooter(reader, stats_column, std::string());
}

Result<std::optional<ParquetFooterFacts>> ReadParquetFooter(const RangeReader& reader, std::string_view stats_column,
                                                            std::string tail) {
  const uint64_t size = reader.size();
  if (size < 12) return std::optional<ParquetFooterFacts>();
  uint64_t tail_size = std::min(size, kTailBytes);
  if (tail.size() != tail_size) {
    tail.assign(static_cast<size_t>(tail_size), '\0');
    TACO_RETURN_IF_ERROR(reader.ReadAt(size - tail_size, tail.size(), tail.data()));
  }
  if (tail.compare(tail.size() - 4, 4, "PAR1") != 0) return std::optional<ParquetFooterFacts>();
  const uint64_t footer_size = LittleU32(tail.data() + tail.size() - 8);
  if (footer_size + 12 > size || footer_size > kMaxFooterBytes) return std::optional<ParquetFooterFacts>();
  std::string footer;
  if (footer_size + 8 <= tail_size) {
    footer = tail.substr(static_cast<size_t>(tail_size - 8 - footer_size), static_cast<size_t>(footer_size));
  } else {
    footer.assign(static_cast<size_t>(footer_size), '\0');
    TACO_RETURN_IF_ERROR(reader.ReadAt(size - 8 - footer_size, footer.size(), footer.data()));
  }

  ParquetFooterFacts facts;
  CompactReader r(footer);
  bool has_rows = false, bad = false;
  int64_t rows = -1, group_sum = 0;
  int16_t id = 0;
  uint8_t t = 0;
  while (r.NextField(&id, &t)) {
    if (id == 2) {  // schema: the root, then a depth-first list; children of the root are top level
      uint8_t et = 0;
      const uint64_t n = r.List(t, &et);
      int64_t top_left = -1;   // children of the root still to come
      int64_t skip_nodes = 0;  // nodes below the current top-level column still to skip
      for (uint64_t i = 0; i < n && !r.failed(); ++i) {
        std::string name;
        int32_t children = 0;
        r.BeginElementStruct();
        Fields(r, [&](int16_t fid, uint8_t ft) {
          if (fid == 4) {
            name = std::string(r.Binary(ft));
          } else if (fid == 5) {
            children = r.I32(ft);
          } else if (fid == 6) {
            facts.plain_types = PlainConvertedType(r.I32(ft)) && facts.plain_types;
          } else if (fid == 10 && r.BeginStruct(ft)) {
            facts.plain_types = PlainLogicalType(r) && facts.plain_types;
          } else {
            r.Skip(ft);
          }
        });
        if (children < 0) bad = true;
        if (i == 0) {
          top_left = children;
        } else if (skip_nodes > 0) {
          --skip_nodes;
          skip_nodes += children;
        } else if (top_left > 0) {
          --top_left;
          facts.columns.push_back(std::move(name));
          skip_nodes = children;
        } else {
          bad = true;
        }
      }
    } else if (id == 3) {
      rows = r.I64(t);
      has_rows = true;
    } else if (id == 4) {  // row_groups
      uint8_t et = 0;
      const uint64_t n = r.List(t, &et);
      for (uint64_t g = 0; g < n && !r.failed(); ++g) {
        std::optional<ParquetFooterFacts::MinMax> group_stats;
        int64_t group_rows = -1;
        r.BeginElementStruct();
        Fields(r, [&](int16_t gid, uint8_t gt) {
          if (gid == 1) {  // columns: list<ColumnChunk>
            uint8_t ct = 0;
            const uint64_t m = r.List(gt, &ct);
            for (uint64_t c = 0; c < m && !r.failed(); ++c) {
              r.BeginElementStruct();
              Fields(r, [&](int16_t cid, uint8_t cit) {
                if (cid == 3 && r.BeginStruct(cit)) {
                  bool matches = false;
                  std::optional<ParquetFooterFacts::MinMax> s;
                  ParseColumnMeta(r, stats_column, &matches, &s);
                  if (matches) group_stats = std::move(s);
                } else if (cid != 3) {
                  r.Skip(cit);
                }
              });
            }
          } else if (gid == 3) {
            group_rows = r.I64(gt);
          } else {
            r.Skip(gt);
          }
        });
        if (group_rows < 0 || group_rows > INT64_MAX - group_sum) {
          bad = true;
        } else {
          group_sum += group_rows;
        }
        facts.stats.push_back(std::move(group_stats));
      }
    } else {
      r.Skip(t);
    }
  }
  if (r.failed() || bad || !has_rows || rows < 0 || rows != group_sum) return std::optional<ParquetFooterFacts>();
  facts.rows = static_cast<uint64_t>(rows);
  facts.schema = ParquetSchemaColumns(footer);
  return std::optional<ParquetFooterFacts>(std::move(facts));
}

}  // namespace taco::table
