#include "table/parquet_crc.h"

#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "format/zip/crc32.h"
#include "table/thrift_compact.h"

namespace taco::table {
namespace {

using thrift::CompactReader;
using thrift::Fields;

struct ChunkRange {
  int64_t data_page = -1;
  int64_t dictionary_page = -1;
  int64_t size = -1;      // total_compressed_size
  bool negative = false;  // num_values or total_uncompressed_size < 0: a damaged footer
};

std::string Hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

void ParseColumnMeta(CompactReader& r, ChunkRange* c) {
  Fields(r, [&](int16_t id, uint8_t t) {
    if (id == 5 || id == 6) {      // num_values, total_uncompressed_size
      const int64_t v = r.I64(t);  // always consumed
      c->negative = c->negative || v < 0;
    } else if (id == 7) {
      c->size = r.I64(t);
    } else if (id == 9) {
      c->data_page = r.I64(t);
    } else if (id == 11) {
      c->dictionary_page = r.I64(t);
    } else {
      r.Skip(t);
    }
  });
}

// The column chunks of every row group, in order (groups[g][c]).
bool ParseChunks(std::string_view footer, std::vector<std::vector<ChunkRange>>* groups) {
  CompactReader r(footer);
  bool bad = false;
  int16_t id = 0;
  uint8_t t = 0;
  while (r.NextField(&id, &t)) {
    if (id != 4) {
      r.Skip(t);
      continue;
    }
    uint8_t et = 0;
    const uint64_t n = r.List(t, &et);
    if (n > 0 && et != thrift::kStruct) return false;
    for (uint64_t g = 0; g < n && !r.failed(); ++g) {
      std::vector<ChunkRange> chunks;
      r.BeginElementStruct();
      Fields(r, [&](int16_t gid, uint8_t gt) {
        if (gid != 1) {
          r.Skip(gt);
          return;
        }
        uint8_t ct = 0;
        const uint64_t m = r.List(gt, &ct);
        if (m > 0 && ct != thrift::kStruct) {
          bad = true;
          for (uint64_t c = 0; c < m && !r.failed(); ++c) r.Skip(ct, true);
          return;
        }
        for (uint64_t c = 0; c < m && !r.failed(); ++c) {
          ChunkRange range;
          r.BeginElementStruct();
          Fields(r, [&](int16_t cid, uint8_t cdt) {
            if (cid == 3 && r.BeginStruct(cdt)) {
              ParseColumnMeta(r, &range);
            } else if (cid != 3) {
              r.Skip(cdt);
            }
          });
          chunks.push_back(range);
        }
      });
      groups->push_back(std::move(chunks));
    }
  }
  return !r.failed() && !bad;
}

}  // namespace

std::string ParquetDamage(const PageCrcSummary& summary, const std::string& name) {
  if (summary.unwalkable.find("damaged Parquet") == std::string::npos) return "";
  const std::string prefix = name + ": ";
  return summary.unwalkable.rfind(prefix, 0) == 0 ? summary.unwalkable.substr(prefix.size()) : summary.unwalkable;
}

Result<PageCrcSummary> VerifyParquetPageCrcs(std::string_view file, const std::string& name) {
  PageCrcSummary summary;
  if (file.size() < 12 || file.substr(0, 4) != "PAR1" || file.substr(file.size() - 4) != "PAR1") {
    summary.unwalkable = name + ": not a Parquet file (no PAR1 magic at both ends)";
    return summary;
  }
  uint32_t footer_size = 0;
  std::memcpy(&footer_size, file.data() + file.size() - 8, 4);
  if (footer_size > file.size() - 12) {
    summary.unwalkable =
        name + ": damaged Parquet footer (length " + std::to_string(footer_size) + " does not fit in the file)";
    return summary;
  }
  const size_t footer_start = file.size() - 8 - footer_size;
  std::vector<std::vector<ChunkRange>> groups;
  if (!ParseChunks(file.substr(footer_start, footer_size), &groups)) {
    summary.unwalkable = name + ": damaged Parquet footer (its row groups cannot be read)";
    return summary;
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    for (size_t c = 0; c < groups[g].size(); ++c) {
      const ChunkRange& chunk = groups[g][c];
      auto where = [g, c] { return " (row group " + std::to_string(g) + ", column " + std::to_string(c); };
      const int64_t start = chunk.dictionary_page > 0 ? chunk.dictionary_page : chunk.data_page;
      if (chunk.negative) {
        summary.unwalkable = name + ": damaged Parquet footer" + where() + ": a negative value count or size)";
        return summary;
      }
      if (start < 4 || chunk.size < 0 || static_cast<uint64_t>(start) > footer_start ||
          static_cast<uint64_t>(chunk.size) > footer_start - static_cast<uint64_t>(start)) {
        summary.unwalkable = name + ": damaged Parquet footer" + where() + ": chunk range outside the data)";
        return summary;
      }
      std::string_view rest = file.substr(static_cast<size_t>(start), static_cast<size_t>(chunk.size));
      while (!rest.empty()) {
        const size_t at = static_cast<size_t>(rest.data() - file.data());
        CompactReader r(rest);
        int32_t compressed = -1;
        std::optional<uint32_t> crc;
        Fields(r, [&](int16_t id, uint8_t t) {
          if (id == 3) {
            compressed = r.I32(t);
          } else if (id == 4) {
            crc = static_cast<uint32_t>(r.I32(t));
          } else {
            r.Skip(t);
          }
        });
        if (r.failed() || compressed < 0 || static_cast<size_t>(compressed) > rest.size() - r.position()) {
          summary.unwalkable = name + ": damaged Parquet page header" + where() + ", byte " + std::to_string(at) + ")";
          return summary;
        }
        const std::string_view page = rest.substr(r.position(), static_cast<size_t>(compressed));
        ++summary.pages;
        if (crc) {
          const uint32_t computed = zip::Crc32(0, page.data(), page.size());
          if (computed != *crc) {
            return Status::Corruption(name + ": Parquet page CRC-32 mismatch" + where() + ", page at byte " +
                                      std::to_string(at) + "): stored " + Hex32(*crc) + ", computed " +
                                      Hex32(computed) + ": the file is damaged");
          }
          ++summary.checked;
        }
        rest.remove_prefix(r.position() + static_cast<size_t>(compressed));
      }
    }
  }
  return summary;
}

}  // namespace taco::table

namespace taco::table {

Result<PageCrcSummary> VerifyParquetPageCrcs(const RangeReader& reader) {
  if (reader.size() > kMaxVerifiedParquetBytes) {
    PageCrcSummary summary;
    summary.unwalkable = reader.name() + ": larger than " + std::to_string(kMaxVerifiedParquetBytes >> 20) +
                         " MiB: page CRCs not checked";
    return summary;
  }
  std::string bytes(static_cast<size_t>(reader.size()), '\0');
  if (!bytes.empty()) TACO_RETURN_IF_ERROR(reader.ReadAt(0, bytes.size(), bytes.data()));
  return VerifyParquetPageCrcs(bytes, reader.name());
}

}  // namespace taco::table
