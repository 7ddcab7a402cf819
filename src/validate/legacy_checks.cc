// ValidateLegacy (see legacy_checks.h).
#include "validate/legacy_checks.h"

#include <gdal.h>

#include <sys/stat.h>
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "format/legacy/legacy_layout.h"
#include "io/location.h"
#include "table/engine.h"
#include "taco/io.h"
#include "validate/reporter.h"

namespace taco::validate {
namespace {

using format::LegacyHeader;

std::string N(uint64_t v) { return std::to_string(v); }

bool ValidUtf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
    if (n == 9 || (n > 0 && i + n >= s.size())) return false;
    for (size_t k = 1; k <= n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    }
    i += n + 1;
  }
  return true;
}

std::optional<int64_t> AsInt(const Value& v) {
  if (v.is<int64_t>()) return v.get<int64_t>();
  if (v.is<int32_t>()) return v.get<int32_t>();
  return std::nullopt;
}

std::optional<double> AsNumber(const Value& v) {
  if (auto i = AsInt(v)) return static_cast<double>(*i);
  if (v.is<double>()) return v.get<double>();
  if (v.is<float>()) return v.get<float>();
  return std::nullopt;
}

bool KnownFormat(const std::string& f) {
  static std::once_flag once;
  std::call_once(once, [] { GDALAllRegister(); });
  return f == "BYTES" || f == "TORTILLA" || GDALGetDriverByName(f.c_str()) != nullptr;
}

struct Checker {
  Reporter& rep;
  ValidationReport& report;
  table::Engine& engine;
  std::set<std::string> notes;

  void Warn(const std::string& s) {
    if (notes.insert(s).second) report.notes.push_back("warning: " + s);
  }

  // One tortilla at [base, base + length) of `reader` (top level: base 0, the file).
  // Returns the ids of its items (for cross-part uniqueness).
  std::vector<std::string> Tortilla(const RangeReader& reader, uint64_t base, uint64_t length, const std::string& where,
                                    bool top, LegacyHeader* out_header) {
    std::vector<std::string> ids;
    auto prefix = reader.Read(base, static_cast<size_t>(std::min<uint64_t>(length, format::kLegacyHeaderSize)));
    if (!prefix.ok()) {
      rep.Add(top ? "legacy-header" : "legacy-nested", where, prefix.status().message(), "a readable header");
      return ids;
    }
    auto parsed = format::ParseLegacyHeader(*prefix, length, where);
    if (!parsed.ok()) {
      std::string message = parsed.status().message();
      if (message.rfind(where + ": ", 0) == 0) message = message.substr(where.size() + 2);
      rep.Add(top ? "legacy-header" : "legacy-nested", where, message,
              top ? "a 200-byte Tortilla/TACO v1 header (magic #y or WX) within the file"
                  : "a standalone Tortilla (magic #y or WX, footer inside the item)");
      return ids;
    }
    const LegacyHeader& h = *parsed;
    if (out_header) *out_header = h;
    if (!h.free_bytes_zero) Warn(where + ": free header bytes are not all zero");
    const uint64_t fend = h.footer_offset + h.footer_length;
    if (top && !h.is_taco && fend != length) {
      rep.Add("legacy-file-end", where, "FO + FL = " + N(fend) + ", file size " + N(length),
              "a Tortilla ends at FO + FL");
    }
    if (!top && fend != length) {
      rep.Add("legacy-nested", where, "FO + FL = " + N(fend) + ", item length " + N(length),
              "a nested Tortilla ends at FO + FL");
    }
    if (top && h.is_taco) {
      if (h.collection_offset != fend) {
        rep.Add("legacy-file-end", where, "CO = " + N(h.collection_offset) + ", FO + FL = " + N(fend), "CO == FO + FL");
      }
      if (h.collection_offset + h.collection_length != length) {
        rep.Add("legacy-file-end", where,
                "CO + CL = " + N(h.collection_offset + h.collection_length) + ", size " + N(length),
                "CO + CL == file size");
      }
      auto json = reader.Read(base + h.collection_offset, static_cast<size_t>(h.collection_length));
      if (json.ok()) {
        nlohmann::json j = nlohmann::json::parse(*json, nullptr, false);
        if (!ValidUtf8(*json) || j.is_discarded() || !j.is_object() || !j.contains("id")) {
          rep.Add("legacy-collection", where + " COLLECTION", Quoted(json->substr(0, 60)),
                  "UTF-8 JSON object with at least 'id'");
        }
      }
    }
    auto footer = reader.Read(base + h.footer_offset, static_cast<size_t>(h.footer_length));
    if (!footer.ok()) {
      rep.Add("legacy-footer", where, footer.status().message(), "a readable footer");
      return ids;
    }
    if (footer->size() < 12 || footer->compare(0, 4, "PAR1") != 0 ||
        footer->compare(footer->size() - 4, 4, "PAR1") != 0) {
      rep.Add("legacy-footer", where + " footer [" + N(h.footer_offset) + ", +" + N(h.footer_length) + ")",
              "bytes that do not start and end with PAR1", "a Parquet file");
      return ids;
    }
    auto rows = engine.ReadParquet(MemoryReader(std::move(*footer), where + " footer"));
    if (!rows.ok()) {
      rep.Add("legacy-footer", where + " footer", rows.status().message(), "a readable Parquet file");
      return ids;
    }
    return Items(reader, base, h, *rows, where, top);
  }

  std::vector<std::string> Items(const RangeReader& reader, uint64_t base, const LegacyHeader& h, const Table& t,
                                 const std::string& where, bool top) {
    std::vector<std::string> ids;
    bool missing = false;
    for (const char* c : {"tortilla:id", "tortilla:offset", "tortilla:length", "tortilla:file_format"}) {
      if (t.FindColumn(c) >= 0) continue;
      if (std::string(c) == "tortilla:file_format" && h.p2) continue;
      rep.Add("legacy-column", where + " footer", "no column '" + std::string(c) + "'", "the core columns");
      missing = true;
    }
    if (missing) return ids;
    struct Range {
      uint64_t off, len;
      std::string id;
    };
    std::vector<Range> ranges;
    std::set<std::string> seen;
    const bool has_format = t.FindColumn("tortilla:file_format") >= 0;
    for (size_t i = 0; i < t.num_rows(); ++i) {
      const Value& idv = t.column("tortilla:id").values[i];
      const std::string id = idv.is<std::string>() ? idv.get<std::string>() : idv.ToString();
      const std::string at = where + " item '" + id + "'";
      if (idv.is_null()) rep.Add("legacy-column", where + " row " + N(i), "null tortilla:id", "an id");
      if (!seen.insert(id).second) rep.Add("legacy-id", at, "id repeated in one footer", "unique ids");
      ids.push_back(id);
      auto off = AsInt(t.column("tortilla:offset").values[i]);
      auto len = AsInt(t.column("tortilla:length").values[i]);
      if (!off || !len || *off < 0 || *len < 0) {
        rep.Add("legacy-column", at,
                "offset " + CellText(t.column("tortilla:offset").values[i]) + ", length " +
                    CellText(t.column("tortilla:length").values[i]),
                "non-null offset and length >= 0");
        continue;
      }
      const uint64_t o = static_cast<uint64_t>(*off), l = static_cast<uint64_t>(*len);
      if (o < format::kLegacyHeaderSize || o > h.footer_offset || l > h.footer_offset - o) {
        rep.Add("legacy-item-range", at, "[" + N(o) + ", +" + N(l) + ")",
                "inside the pile [200, FO = " + N(h.footer_offset) + ")");
        continue;
      }
      ranges.push_back({o, l, id});
      std::string format = h.driver;
      if (has_format) {
        const Value& f = t.column("tortilla:file_format").values[i];
        format = f.is<std::string>() ? f.get<std::string>() : "";
      }
      if (!KnownFormat(format)) {
        rep.Add("legacy-file-format", at, Quoted(format), "BYTES, TORTILLA or a GDAL driver name (gdalinfo --formats)");
      }
      if (format == "TORTILLA") Tortilla(reader, base + o, l, at, false, nullptr);
      Values(t, i, at);
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.off < b.off; });
    uint64_t expect = format::kLegacyHeaderSize;
    for (const Range& r : ranges) {
      if (r.off < expect && r.off != expect) {
        rep.Add("legacy-item-range", where + " item '" + r.id + "'", "[" + N(r.off) + ", +" + N(r.len) + ")",
                "no overlap with the previous item (which ends at " + N(expect) + ")");
      } else if (r.off > expect) {
        Warn(where + ": a gap of " + N(r.off - expect) + " bytes before item '" + r.id + "'");
      }
      expect = std::max(expect, r.off + r.len);
    }
    if (!ranges.empty() && expect != h.footer_offset) {
      Warn(where + ": the items end at " + N(expect) + ", the footer starts at " + N(h.footer_offset));
    }
    (void)top;
    return ids;
  }

  void Values(const Table& t, size_t i, const std::string& at) {
    static const std::regex kPoint(R"(^POINT \(-?\d+(\.\d+)? -?\d+(\.\d+)?\)$)");
    if (int c = t.FindColumn("tortilla:data_split"); c >= 0) {
      const Value& v = t.columns[static_cast<size_t>(c)].values[i];
      if (!v.is_null() && (!v.is<std::string>() || (v.get<std::string>() != "train" && v.get<std::string>() != "test" &&
                                                    v.get<std::string>() != "validation"))) {
        rep.Add("legacy-value", at + " tortilla:data_split", CellText(v), "train, test, validation or null");
      }
    }
    if (int c = t.FindColumn("stac:geotransform"); c >= 0) {
      const Value& v = t.columns[static_cast<size_t>(c)].values[i];
      if (!v.is_null() && (!v.is<ValueList>() || v.get<ValueList>().size() != 6)) {
        rep.Add("legacy-value", at + " stac:geotransform", CellText(v), "6 numbers");
      }
    }
    if (int c = t.FindColumn("stac:raster_shape"); c >= 0) {
      const Value& v = t.columns[static_cast<size_t>(c)].values[i];
      bool ok = v.is_null() || (v.is<ValueList>() && v.get<ValueList>().size() == 2);
      if (ok && !v.is_null()) {
        for (const Value& d : v.get<ValueList>()) ok = ok && AsInt(d) && *AsInt(d) > 0;
      }
      if (!ok) rep.Add("legacy-value", at + " stac:raster_shape", CellText(v), "2 integers > 0 [rows, cols]");
    }
    const int s = t.FindColumn("stac:time_start"), e = t.FindColumn("stac:time_end");
    if (s >= 0 && e >= 0) {
      auto a = AsNumber(t.columns[static_cast<size_t>(s)].values[i]);
      auto b = AsNumber(t.columns[static_cast<size_t>(e)].values[i]);
      if (a && b && *a > *b)
        rep.Add("legacy-value", at + " stac:time_start",
                N(static_cast<uint64_t>(*a)) + " > time_end " + N(static_cast<uint64_t>(*b)), "time_start <= time_end");
    }
    if (int c = t.FindColumn("stac:centroid"); c >= 0) {
      const Value& v = t.columns[static_cast<size_t>(c)].values[i];
      if (!v.is_null() && (!v.is<std::string>() || !std::regex_match(v.get<std::string>(), kPoint))) {
        rep.Add("legacy-value", at + " stac:centroid", CellText(v), "WKT 'POINT (lon lat)'");
      }
    }
  }
};

}  // namespace

Result<ValidationReport> ValidateLegacy(const std::string& path, const ValidateOptions& options) {
  ValidationReport report;
  report.path = path;
  Reporter rep(options.max_per_rule);
  TACO_ASSIGN_OR_RETURN(auto engine, table::Engine::Open());
  Checker check{rep, report, *engine, {}};
  TACO_ASSIGN_OR_RETURN(RangeReaderPtr first, OpenRangeReader(path));
  // The set of parts (LEGACY.md §12.3 rule 8).
  std::vector<std::string> paths = {path};
  LegacyHeader h0;
  std::string first_prefix;
  {
    auto prefix = first->Read(0, static_cast<size_t>(std::min<uint64_t>(first->size(), format::kLegacyHeaderSize)));
    if (prefix.ok()) {
      auto parsed = format::ParseLegacyHeader(*prefix, first->size(), path);
      if (parsed.ok()) h0 = *parsed;
    }
  }
  auto name = format::ParsePartName(path);
  report.format = std::string("legacy ") + (h0.is_taco ? "TACO v1" : "Tortilla") + (h0.p2 ? " P2" : "");
  if (h0.partitions > 1 && name && h0.partitions <= 9999) {
    const int n = static_cast<int>(h0.partitions);
    struct stat st;
    // A remote part 0 is not probed (a request): the sets every writer made start at 0000.
    const bool zero =
        !io::Location::Of(path).is_local_filesystem() || ::stat(format::FormatPartName(*name, 0).c_str(), &st) == 0;
    const int base = zero ? 0 : 1;
    if (!zero) check.Warn("parts are numbered from 0001 (every writer used 0000)");
    paths.clear();
    for (int i = 0; i < n; ++i) paths.push_back(format::FormatPartName(*name, i + base));
    report.format += ", " + std::to_string(n) + " parts";
  } else if (h0.partitions > 1) {
    rep.Add("legacy-parts", path, "DP " + N(h0.partitions) + " but the name is not NAME.NNNN.part.EXT",
            "parts named NAME.0000.part.EXT ... (DP - 1)");
  }
  std::set<std::string> all_ids;
  std::string collection;
  for (size_t i = 0; i < paths.size(); ++i) {
    auto reader = paths[i] == path ? Result<RangeReaderPtr>(first) : OpenRangeReader(paths[i]);
    if (!reader.ok()) {
      rep.Add("legacy-parts", paths[i], "missing (" + reader.status().message() + ")",
              "every part 0.." + N(paths.size() - 1));
      continue;
    }
    LegacyHeader h;
    h.partitions = UINT64_MAX;  // stays so when the header cannot be read (already reported)
    std::vector<std::string> ids = check.Tortilla(**reader, 0, (*reader)->size(), paths[i], true, &h);
    if (h.partitions == UINT64_MAX) continue;
    if (paths.size() > 1 && h.partitions != paths.size()) {
      rep.Add("legacy-parts", paths[i], "DP " + N(h.partitions), "DP == the number of parts (" + N(paths.size()) + ")");
    }
    for (const std::string& id : ids) {
      if (paths.size() > 1 && !all_ids.insert(id).second) {
        rep.Add("legacy-id", paths[i] + " item '" + id + "'", "id also in another part", "ids unique across parts");
      }
    }
    if (h.is_taco) {
      auto json = (*reader)->Read(h.collection_offset, static_cast<size_t>(h.collection_length));
      if (json.ok()) {
        if (i == 0)
          collection = *json;
        else if (*json != collection)
          rep.Add("legacy-parts", paths[i] + " COLLECTION", "different bytes", "the same COLLECTION in every part");
      }
    }
  }
  rep.MoveInto(&report);
  return report;
}

}  // namespace taco::validate
