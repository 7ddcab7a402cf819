// The legacy BLOB container: see legacy_container.h.
#include "format/legacy/legacy_container.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <thread>
#include <utility>

#include "io/location.h"

namespace taco::format::blob {
namespace {

constexpr int kMaxChain = 64;  // Parquet files in one chained footer
constexpr size_t kRemoteThreads = 8;

// Opening many parts (or nested tortillas) is worth a thread each where every open waits
// for a round trip; on a local disk they run inline.
bool PrefersParallelOpens(const std::string& path) {
  // The container's own choice of how to fetch its parts, asked of the io seam.
  return io::Location::Of(path).prefers_parallel_opens();
}

std::string LastComponent(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Runs f(i) for i in [0, n): inline when `parallel` is false, else on up to kRemoteThreads threads.
template <typename F>
void ForEach(size_t n, bool parallel, F f) {
  if (!parallel || n <= 1) {
    for (size_t i = 0; i < n; ++i) f(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (size_t t = 0; t < std::min(n, kRemoteThreads); ++t) {
    threads.emplace_back([&] {
      for (size_t i = next++; i < n; i = next++) f(i);
    });
  }
  for (auto& t : threads) t.join();
}

bool IsPandasIndexColumn(std::string_view name) {
  return StartsWith(name, "__index_level_") && name.size() > 16 && name.substr(name.size() - 2) == "__";
}

Status CheckParquetMagic(const std::string& bytes, const std::string& where) {
  if (bytes.size() < 12 || bytes.compare(0, 4, "PAR1") != 0 || bytes.compare(bytes.size() - 4, 4, "PAR1") != 0) {
    return Status::Corruption(where + " is not a Parquet file (no PAR1 at both ends)");
  }
  return Status::OK();
}

// "POINT (x y)" (any case and spacing) → WKB point, little-endian; nullopt when not a point.
std::optional<std::string> WktPointToWkb(std::string_view wkt) {
  std::string s(wkt);
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double x = 0, y = 0;
  char close = 0;
  int consumed = 0;
  if (std::sscanf(s.c_str(), " POINT ( %lf %lf %c%n", &x, &y, &close, &consumed) != 3 || close != ')') {
    return std::nullopt;
  }
  for (size_t i = static_cast<size_t>(consumed); i < s.size(); ++i) {
    if (!std::isspace(static_cast<unsigned char>(s[i]))) return std::nullopt;
  }
  std::string wkb(21, '\0');
  wkb[0] = 1;
  wkb[1] = 1;
  std::memcpy(&wkb[5], &x, 8);
  std::memcpy(&wkb[13], &y, 8);
  return wkb;
}

std::optional<int64_t> AsInt(const Value& v) {
  if (v.is<int64_t>()) return v.get<int64_t>();
  if (v.is<int32_t>()) return v.get<int32_t>();
  return std::nullopt;
}

// Seconds (int or float) → timestamp[us]; other values unchanged.
Value SecondsToTimestamp(const Value& v) {
  if (auto i = AsInt(v)) return TimestampUs{*i * 1000000};
  if (v.is<double>()) return TimestampUs{static_cast<int64_t>(std::llround(v.get<double>() * 1e6))};
  if (v.is<float>()) return TimestampUs{static_cast<int64_t>(std::llround(static_cast<double>(v.get<float>()) * 1e6))};
  return v;
}

bool IsNumeric(TypeId id) {
  return id == TypeId::kInt32 || id == TypeId::kInt64 || id == TypeId::kFloat || id == TypeId::kDouble;
}

// Widens `into` to hold values of `t` too; false when they cannot meet (then: string).
bool MergeType(DataType& into, const DataType& t) {
  if (into == t || t.id == TypeId::kNull) return true;
  if (into.id == TypeId::kNull) {
    into = t;
    return true;
  }
  if (IsNumeric(into.id) && IsNumeric(t.id)) {
    const bool floating =
        into.id == TypeId::kFloat || into.id == TypeId::kDouble || t.id == TypeId::kFloat || t.id == TypeId::kDouble;
    into = floating ? DataType::Double() : DataType::Int64();
    return true;
  }
  return false;
}

Value CastTo(const Value& v, const DataType& to) {
  if (v.is_null()) return v;
  switch (to.id) {
    case TypeId::kInt64:
      if (v.is<int32_t>()) return static_cast<int64_t>(v.get<int32_t>());
      return v;
    case TypeId::kDouble:
      if (v.is<int32_t>()) return static_cast<double>(v.get<int32_t>());
      if (v.is<int64_t>()) return static_cast<double>(v.get<int64_t>());
      if (v.is<float>()) return static_cast<double>(v.get<float>());
      return v;
    case TypeId::kString:
      if (v.is<std::string>()) return v;
      return v.ToString();
    default: return v;
  }
}

// The next (offset, length) of a chained footer: the `pointer` key-value of `bytes`.
Result<std::optional<std::pair<uint64_t, uint64_t>>> NextFooter(const PointerOf& pointer_of, const std::string& bytes,
                                                                const std::string& where) {
  TACO_ASSIGN_OR_RETURN(std::optional<std::string> value, pointer_of(bytes, where));
  if (!value) return std::optional<std::pair<uint64_t, uint64_t>>();
  return ParseFooterPointer(*value, where);
}

}  // namespace

Result<Part> OpenPart(const std::string& given) {
  Part p;
  p.given = given;
  p.vsi = ToVsiPath(given);
  p.file_name = LastComponent(p.vsi);
  auto reader = OpenRangeReader(given);
  if (!reader.ok()) {
    if (reader.status().code() == StatusCode::kNotFound) return Status::NotFound(given + ": no such file");
    return reader.status();
  }
  p.reader = *reader;
  const uint64_t size = p.reader->size();
  TACO_ASSIGN_OR_RETURN(std::string prefix,
                        p.reader->Read(0, static_cast<size_t>(std::min<uint64_t>(size, kLegacyHeaderSize))));
  TACO_ASSIGN_OR_RETURN(p.header, ParseLegacyHeader(prefix, size, given));
  const LegacyHeader& h = p.header;
  if (h.is_taco && h.collection_offset == h.footer_offset + h.footer_length) {
    // Every writer appends the COLLECTION right after the footer: one read for both.
    TACO_ASSIGN_OR_RETURN(std::string both,
                          p.reader->Read(h.footer_offset, static_cast<size_t>(h.footer_length + h.collection_length)));
    p.collection = both.substr(static_cast<size_t>(h.footer_length));
    both.resize(static_cast<size_t>(h.footer_length));
    p.footer = std::move(both);
  } else {
    TACO_ASSIGN_OR_RETURN(p.footer, p.reader->Read(h.footer_offset, static_cast<size_t>(h.footer_length)));
    if (h.is_taco) {
      TACO_ASSIGN_OR_RETURN(p.collection,
                            p.reader->Read(h.collection_offset, static_cast<size_t>(h.collection_length)));
    }
  }
  TACO_RETURN_IF_ERROR(CheckParquetMagic(p.footer, given + ": the footer [" + std::to_string(h.footer_offset) + ", +" +
                                                       std::to_string(h.footer_length) + ")"));
  return p;
}

// The parts of the set `first` belongs to, `first` included (opened), in part order.
Result<std::vector<Part>> OpenSet(Part first, LegacyInfo& info) {
  std::vector<Part> parts;
  const uint64_t dp = first.header.partitions;
  std::optional<PartName> name = ParsePartName(first.given);
  if (dp <= 1 || !name) {
    if (dp > 1) {
      info.notes.push_back(first.given + ": the header says " + std::to_string(dp) +
                           " parts, but the name does not follow NAME.NNNN.part.EXT: only this file is read");
    }
    if (name) first.number = name->number;
    parts.push_back(std::move(first));
    return parts;
  }
  if (dp > 9999)
    return Status::Corruption(first.given + ": the header says " + std::to_string(dp) + " parts (at most 9999)");
  const int n = static_cast<int>(dp);
  bool one_based = false;
  if (name->number == n) {
    one_based = true;
  } else if (name->number != 0) {
    one_based = !io::PathExists(FormatPartName(*name, 0)) && io::PathExists(FormatPartName(*name, n));
  }
  if (name->number < (one_based ? 1 : 0) || name->number > (one_based ? n : n - 1)) {
    return Status::Corruption(first.given + ": part number " + std::to_string(name->number) + " is outside 0000.." +
                              std::to_string(n - 1) + " for DP " + std::to_string(n));
  }
  info.one_based = one_based;
  if (one_based) info.notes.push_back("parts are numbered from 0001 (the spec's numbering; every writer used 0000)");
  const int base = one_based ? 1 : 0;
  std::vector<Result<Part>> opened(static_cast<size_t>(n), Status::Internal("not opened"));
  const int given_index = name->number - base;
  opened[static_cast<size_t>(given_index)] = std::move(first);
  ForEach(static_cast<size_t>(n), PrefersParallelOpens(name->stem), [&](size_t i) {
    if (static_cast<int>(i) == given_index) return;
    opened[i] = OpenPart(FormatPartName(*name, static_cast<int>(i) + base));
  });
  for (int i = 0; i < n; ++i) {
    Result<Part>& r = opened[static_cast<size_t>(i)];
    const std::string path = FormatPartName(*name, i + base);
    if (!r.ok()) {
      if (r.status().code() == StatusCode::kNotFound) {
        return Status::NotFound(path + ": missing part " + std::to_string(i + base) + " of " + std::to_string(n) +
                                " (the header of " + opened[static_cast<size_t>(given_index)]->given + " says DP " +
                                std::to_string(n) + ")");
      }
      return r.status();
    }
    r->number = i + base;
    if (r->header.partitions != dp) {
      return Status::Corruption(path + ": its header says " + std::to_string(r->header.partitions) +
                                " parts, the set has " + std::to_string(dp));
    }
    if (!parts.empty() && parts.front().header.is_taco != r->header.is_taco) {
      return Status::Corruption(path + ": mixes Tortilla and TACO parts in one set");
    }
    parts.push_back(std::move(*r));
  }
  return parts;
}

Result<Presented> Present(const Table& raw, const Holder& at, const Part& part, int64_t first_id,
                          std::vector<std::string>& notes) {
  const std::string where = part.given + (at.path.empty() ? "" : ": sample '" + at.path + "'") + ": footer";
  for (const char* required : {"tortilla:id", "tortilla:offset", "tortilla:length"}) {
    if (raw.FindColumn(required) < 0) return Status::Corruption(where + " has no column '" + required + "'");
  }
  const bool has_format = raw.FindColumn("tortilla:file_format") >= 0;
  if (!has_format && at.driver.empty()) {
    return Status::Corruption(where + " has no column 'tortilla:file_format'");
  }
  const size_t n = raw.num_rows();
  Presented out;
  Column id{"id", DataType::String(), {}}, type{"type", DataType::String(), {}};
  Column offset{"internal:offset", DataType::Int64(), {}}, size{"internal:size", DataType::Int64(), {}};
  Column current{"internal:current_id", DataType::Int64(), {}}, parent{"internal:parent_id", DataType::Int64(), {}};
  Column source{"internal:source_file", DataType::String(), {}};
  const Column& ids = raw.column("tortilla:id");
  const Column& offsets = raw.column("tortilla:offset");
  const Column& lengths = raw.column("tortilla:length");
  std::vector<Value> absolute(n);
  for (size_t i = 0; i < n; ++i) {
    const Value& idv = ids.values[i];
    if (idv.is_null()) return Status::Corruption(where + " row " + std::to_string(i) + " has a null tortilla:id");
    const std::string sid = idv.is<std::string>() ? idv.get<std::string>() : idv.ToString();
    std::string format = at.driver;
    if (has_format) {
      const Value& f = raw.column("tortilla:file_format").values[i];
      format = f.is<std::string>() ? f.get<std::string>() : "";
    }
    auto off = AsInt(offsets.values[i]);
    auto len = AsInt(lengths.values[i]);
    const std::string item = where + " item '" + sid + "'";
    if (!off || !len || *off < 0 || *len < 0) {
      return Status::Corruption(item + " has a missing or negative tortilla:offset/tortilla:length");
    }
    const uint64_t abs = at.base + static_cast<uint64_t>(*off);
    if (static_cast<uint64_t>(*off) > at.limit - at.base || static_cast<uint64_t>(*len) > at.limit - abs) {
      return Status::Corruption(item + " [" + std::to_string(*off) + ", +" + std::to_string(*len) +
                                ") ends past the end of its " + (at.path.empty() ? "file" : "tortilla") + " (" +
                                std::to_string(at.limit - at.base) + " bytes)");
    }
    id.values.emplace_back(sid);
    type.values.emplace_back(std::string(EqualsNoCase(format, "TORTILLA") ? "FOLDER" : "FILE"));
    offset.values.emplace_back(static_cast<int64_t>(abs));
    size.values.emplace_back(*len);
    absolute[i] = static_cast<int64_t>(abs);
    const int64_t cid = first_id + static_cast<int64_t>(i);
    current.values.emplace_back(cid);
    parent.values.emplace_back(at.parent_id < 0 ? cid : at.parent_id);
    source.values.emplace_back(part.file_name);
    out.paths.push_back(at.path.empty() ? sid : at.path + "/" + sid);
  }
  out.rows.columns.push_back(std::move(id));
  out.rows.columns.push_back(std::move(type));
  bool bad_centroid = false;
  for (const Column& c : raw.columns) {
    if (IsPandasIndexColumn(c.name) || c.name == "id" || c.name == "type" || StartsWith(c.name, "internal:") ||
        c.name == "geometry") {
      continue;
    }
    Column col = c;
    if (c.name == "tortilla:offset") {
      col.type = DataType::Int64();
      col.values = absolute;
    } else if (c.name == "tortilla:length") {
      col.type = DataType::Int64();
      for (Value& v : col.values) v = CastTo(v, col.type);
    } else if (c.name == "stac:centroid" && c.type.id == TypeId::kString) {
      col.type = DataType::Binary();
      for (Value& v : col.values) {
        if (v.is_null()) continue;
        auto wkb = WktPointToWkb(v.get<std::string>());
        if (!wkb) bad_centroid = true;
        v = wkb ? Value(Binary{*wkb}) : Value();
      }
    } else if ((c.name == "stac:time_start" || c.name == "stac:time_end" || c.name == "stac:time_middle") &&
               (IsNumeric(c.type.id) || c.type.id == TypeId::kNull)) {
      col.type = DataType::TimestampUs();
      for (Value& v : col.values) v = SecondsToTimestamp(v);
    } else if (c.type.id == TypeId::kNull) {
      col.type = DataType::Null();
    }
    out.rows.columns.push_back(std::move(col));
  }
  if (!has_format) {
    out.rows.columns.push_back(Column{"tortilla:file_format", DataType::String(), std::vector<Value>(n, at.driver)});
  }
  if (bad_centroid) notes.push_back(where + ": a stac:centroid that is not 'POINT (lon lat)' is shown as null");
  out.rows.columns.push_back(std::move(offset));
  out.rows.columns.push_back(std::move(size));
  out.rows.columns.push_back(std::move(current));
  out.rows.columns.push_back(std::move(parent));
  out.rows.columns.push_back(std::move(source));
  return out;
}

// Concatenates tables by column name (first-seen order), widening types; a column missing
// from a table is null there.
Table UnionLevel(std::vector<Table>& pieces, std::vector<std::string>& notes, int level) {
  Table out;
  std::unordered_map<std::string, size_t> index;
  std::set<std::string> stringified;
  for (const Table& t : pieces) {
    for (const Column& c : t.columns) {
      auto it = index.find(c.name);
      if (it == index.end()) {
        index.emplace(c.name, out.columns.size());
        out.columns.push_back(Column{c.name, c.type, {}});
      } else if (!MergeType(out.columns[it->second].type, c.type)) {
        out.columns[it->second].type = DataType::String();
        stringified.insert(c.name);
      }
    }
  }
  for (const std::string& name : stringified) {
    notes.push_back("level " + std::to_string(level) + " column '" + name +
                    "' has different types in different footers: shown as text");
  }
  for (Table& t : pieces) {
    const size_t n = t.num_rows();
    std::vector<bool> filled(out.columns.size(), false);
    for (Column& c : t.columns) {
      const size_t k = index.at(c.name);
      filled[k] = true;
      Column& dst = out.columns[k];
      for (Value& v : c.values) dst.values.push_back(dst.type == c.type ? std::move(v) : CastTo(v, dst.type));
    }
    for (size_t k = 0; k < out.columns.size(); ++k) {
      if (!filled[k]) out.columns[k].values.resize(out.columns[k].values.size() + n);
    }
  }
  return out;
}

// The further Parquet files of part `p`'s chained footer (empty when it is not chained).
Result<std::vector<std::string>> FollowChain(const Part& p, const PointerOf& pointer_of) {
  std::vector<std::string> chain;
  std::set<uint64_t> seen = {p.header.footer_offset};
  std::string where = p.given + ": footer";
  TACO_ASSIGN_OR_RETURN(auto next, NextFooter(pointer_of, p.footer, where));
  while (next) {
    const auto [offset, length] = *next;
    where = p.given + ": chained footer at " + std::to_string(offset);
    if (!seen.insert(offset).second) return Status::Corruption(where + " was already read (a cycle)");
    if (static_cast<int>(chain.size()) >= kMaxChain) {
      return Status::Corruption(p.given + ": a chained footer of more than " + std::to_string(kMaxChain) + " files");
    }
    if (offset < kLegacyHeaderSize || length > p.reader->size() || offset > p.reader->size() - length) {
      return Status::Corruption(where + ": [" + std::to_string(offset) + ", +" + std::to_string(length) +
                                ") is outside the file");
    }
    TACO_ASSIGN_OR_RETURN(std::string bytes, p.reader->Read(offset, static_cast<size_t>(length)));
    TACO_RETURN_IF_ERROR(CheckParquetMagic(bytes, where));
    TACO_ASSIGN_OR_RETURN(next, NextFooter(pointer_of, bytes, where));
    chain.push_back(std::move(bytes));
  }
  return chain;
}

// Reads the header and footer of each FOLDER row of `level` (a presented table).
std::vector<NestedFooter> ReadNested(const Table& level, const std::vector<std::string>& paths,
                                     const std::vector<Part>& parts,
                                     const std::unordered_map<std::string, size_t>& by_file) {
  const bool parallel = !parts.empty() && PrefersParallelOpens(parts.front().given);
  std::vector<NestedFooter> nested;
  const Column& types = level.column("type");
  const Column& offsets = level.column("internal:offset");
  const Column& sizes = level.column("internal:size");
  const Column& ids = level.column("internal:current_id");
  const Column& files = level.column("internal:source_file");
  for (size_t i = 0; i < level.num_rows(); ++i) {
    if (types.values[i].get<std::string>() != "FOLDER") continue;
    NestedFooter f;
    f.holder.part = by_file.at(files.values[i].get<std::string>());
    f.holder.base = static_cast<uint64_t>(offsets.values[i].get<int64_t>());
    f.holder.limit = f.holder.base + static_cast<uint64_t>(sizes.values[i].get<int64_t>());
    f.holder.parent_id = ids.values[i].get<int64_t>();
    f.holder.path = paths[i];
    nested.push_back(std::move(f));
  }
  ForEach(nested.size(), parallel, [&](size_t k) {
    NestedFooter& f = nested[k];
    const Part& part = parts[f.holder.part];
    const std::string where =
        part.given + ": sample '" + f.holder.path + "' (TORTILLA at byte " + std::to_string(f.holder.base) + ")";
    const uint64_t length = f.holder.limit - f.holder.base;
    auto prefix = part.reader->Read(f.holder.base, static_cast<size_t>(std::min<uint64_t>(length, kLegacyHeaderSize)));
    if (!prefix.ok()) {
      f.footer = prefix.status();
      return;
    }
    auto header = ParseLegacyHeader(*prefix, length, where);
    if (!header.ok()) {
      f.footer = header.status().code() == StatusCode::kNotSupported
                     ? header.status()
                     : Status::Corruption(header.status().message() + " (a nested item must be a Tortilla)");
      return;
    }
    f.holder.driver = header->p2 ? header->driver : "";
    auto bytes = part.reader->Read(f.holder.base + header->footer_offset, static_cast<size_t>(header->footer_length));
    if (!bytes.ok()) {
      f.footer = bytes.status();
      return;
    }
    Status magic = CheckParquetMagic(*bytes, where + ": its footer");
    f.footer = magic.ok() ? Result<std::string>(std::move(*bytes)) : Result<std::string>(magic);
  });
  return nested;
}

}  // namespace taco::format::blob

namespace taco {

std::string LegacyInfo::Describe() const {
  std::string out;
  const bool taco = flavor == LegacyFlavor::kTacoV1;
  if (layout == "P2") {
    out = taco ? "TACO v1 P2 (#y + collection)" : "Tortilla P2 (#y, driver " + driver + ")";
  } else {
    out = taco ? "TACO v1 (WX)" : "Tortilla 0.5 (#y)";
  }
  if (parts.size() > 1) out += ", " + std::to_string(parts.size()) + " parts";
  if (chained_footers > 0) out += ", chained footer of " + std::to_string(chained_footers + 1) + " files";
  return out;
}

}  // namespace taco
