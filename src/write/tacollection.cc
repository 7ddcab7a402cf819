// TACOLLECTION (FORMAT §5.3): validation of pit/field schemas across inputs, summed pit
// counts, merged spatial/temporal extents and `taco:sources`.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include "model/metadata.h"
#include "taco/tacocat.h"
#include "util/exception_guard.h"
#include "util/file_copy.h"
#include "write/atomic_output.h"
#include "write/tacocat_internal.h"

namespace taco {
namespace write {
namespace {

using Json = nlohmann::ordered_json;

// ISO-8601 → microseconds since the epoch (UTC; naive = UTC). nullopt when unparsable.
std::optional<int64_t> ParseInstant(const std::string& text) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, used = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3 || used != 10) return std::nullopt;
  size_t i = 10;
  int64_t micros = 0;
  int64_t offset_seconds = 0;
  if (i < text.size() && (text[i] == 'T' || text[i] == 't' || text[i] == ' ')) {
    if (std::sscanf(text.c_str() + i + 1, "%2d:%2d:%2d%n", &h, &mi, &s, &used) != 3 || used != 8) return std::nullopt;
    i += 9;
    if (i < text.size() && text[i] == '.') {
      ++i;
      int digits = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        if (digits < 6) micros = micros * 10 + (text[i] - '0');
        ++digits;
        ++i;
      }
      if (digits == 0) return std::nullopt;
      for (int k = digits; k < 6; ++k) micros *= 10;
    }
    if (i < text.size() && (text[i] == 'Z' || text[i] == 'z')) {
      ++i;
    } else if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
      int oh = 0, om = 0;
      if (std::sscanf(text.c_str() + i + 1, "%2d:%2d%n", &oh, &om, &used) != 2 || used != 5) return std::nullopt;
      offset_seconds = (text[i] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
      i += 6;
    }
  }
  if (i != text.size()) return std::nullopt;
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  const int64_t seconds = static_cast<int64_t>(timegm(&tm)) - offset_seconds;
  return seconds * 1000000 + micros;
}

// "YYYY-MM-DDTHH:MM:SS[.ffffff]Z".
std::string FormatInstant(int64_t micros) {
  int64_t seconds = micros / 1000000;
  int64_t frac = micros % 1000000;
  if (frac < 0) {
    frac += 1000000;
    --seconds;
  }
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out = buf;
  if (frac != 0) {
    char f[16];
    std::snprintf(f, sizeof f, ".%06lld", static_cast<long long>(frac));
    out += f;
  }
  return out + "Z";
}

// [west, south, east, north] of a collection, or nullopt. Accepts [w,s,e,n] and [[w,s,e,n],...].
std::optional<std::array<double, 4>> SpatialOf(const Json& collection) {
  auto ext = collection.find("extent");
  if (ext == collection.end() || !ext->is_object()) return std::nullopt;
  auto sp = ext->find("spatial");
  if (sp == ext->end() || !sp->is_array()) return std::nullopt;
  const Json* box = &*sp;
  if (!box->empty() && (*box)[0].is_array()) box = &(*box)[0];
  if (box->size() != 4) return std::nullopt;
  std::array<double, 4> out{};
  for (size_t i = 0; i < 4; ++i) {
    if (!(*box)[i].is_number()) return std::nullopt;
    out[i] = (*box)[i].get<double>();
  }
  return out;
}

// [start, end] in microseconds, or nullopt. Accepts [a,b] and [[a,b],...]; a null end = start.
Result<std::optional<std::array<int64_t, 2>>> TemporalOf(const Json& collection, const std::string& name) {
  auto ext = collection.find("extent");
  if (ext == collection.end() || !ext->is_object()) return std::optional<std::array<int64_t, 2>>();
  auto tp = ext->find("temporal");
  if (tp == ext->end() || !tp->is_array()) return std::optional<std::array<int64_t, 2>>();
  const Json* pair = &*tp;
  if (!pair->empty() && (*pair)[0].is_array()) pair = &(*pair)[0];
  if (pair->size() != 2) return std::optional<std::array<int64_t, 2>>();
  std::optional<int64_t> start, end;
  for (int i = 0; i < 2; ++i) {
    const Json& v = (*pair)[static_cast<size_t>(i)];
    if (v.is_null()) continue;
    if (!v.is_string()) return Status::InvalidArgument(name + ": extent.temporal holds a non-string value " + v.dump());
    auto t = ParseInstant(v.get<std::string>());
    if (!t)
      return Status::InvalidArgument(name + ": extent.temporal value '" + v.get<std::string>() + "' is not ISO-8601");
    (i == 0 ? start : end) = t;
  }
  if (!start && !end) return std::optional<std::array<int64_t, 2>>();
  if (!start) start = end;
  if (!end) end = start;
  return std::optional<std::array<int64_t, 2>>(std::array<int64_t, 2>{*start, *end});
}

Result<const Json*> PitOf(const OpenedSource& s) {
  auto pit = s.collection.find("taco:pit_schema");
  if (pit == s.collection.end() || !pit->is_object() || !pit->contains("root") || !(*pit)["root"].is_object()) {
    return Status::InvalidArgument(s.source.path + ": COLLECTION.json has no taco:pit_schema with a root");
  }
  return &*pit;
}

Status ComparePit(const Json& first, const Json& other, const std::string& first_name, const std::string& name) {
  auto differs = [&](const std::string& what) {
    return Status::InvalidArgument(name + ": taco:pit_schema differs from " + first_name + ": " + what);
  };
  const Json root_type = first["root"].value("type", Json());
  if (other["root"].value("type", Json()) != root_type) {
    return differs("root.type is " + other["root"].value("type", Json()).dump() + ", expected " + root_type.dump());
  }
  const Json h1 = first.value("hierarchy", Json::object());
  const Json h2 = other.value("hierarchy", Json::object());
  std::set<std::string> k1, k2;
  for (const auto& [k, v] : h1.items()) k1.insert(k);
  for (const auto& [k, v] : h2.items()) k2.insert(k);
  if (k1 != k2) return differs("hierarchy depths differ (" + h2.dump() + " vs " + h1.dump() + ")");
  for (const auto& [depth, patterns] : h1.items()) {
    const Json& others = h2[depth];
    if (!patterns.is_array() || !others.is_array() || patterns.size() != others.size()) {
      return differs("depth " + depth + " has " + std::to_string(others.size()) + " patterns, expected " +
                     std::to_string(patterns.size()));
    }
    for (size_t p = 0; p < patterns.size(); ++p) {
      for (const char* key : {"type", "id"}) {
        if (patterns[p].value(key, Json()) != others[p].value(key, Json())) {
          return differs("depth " + depth + " pattern " + std::to_string(p) + " " + key + " is " +
                         others[p].value(key, Json()).dump() + ", expected " + patterns[p].value(key, Json()).dump());
        }
      }
    }
  }
  return Status::OK();
}

int64_t CountOf(const Json& j) { return j.is_number_integer() ? j.get<int64_t>() : 0; }

// Merged field schema: first input's entries, then entries with new names, per level.
Json MergeFieldSchemas(const std::vector<OpenedSource>& sources) {
  Json merged = Json::object();
  for (const auto& s : sources) {
    const Json fs = s.collection.value("taco:field_schema", Json::object());
    if (!fs.is_object()) continue;
    for (const auto& [level, fields] : fs.items()) {
      if (!merged.contains(level)) merged[level] = Json::array();
      if (!fields.is_array()) continue;
      for (const auto& f : fields) {
        const bool known = std::any_of(merged[level].begin(), merged[level].end(), [&](const Json& g) {
          return g.is_array() && !g.empty() && f.is_array() && !f.empty() && g[0] == f[0];
        });
        if (!known) merged[level].push_back(f);
      }
    }
  }
  return merged;
}

}  // namespace

Result<Json> BuildTacollectionFromSources(const std::vector<OpenedSource>& sources,
                                          const TacollectionOptions& options) {
  if (sources.empty()) return Status::InvalidArgument("no input datasets given");
  const OpenedSource& first = sources.front();
  TACO_ASSIGN_OR_RETURN(const Json* first_pit, PitOf(first));
  if (!first.collection.contains("taco:field_schema")) {
    return Status::InvalidArgument(first.source.path + ": COLLECTION.json has no taco:field_schema");
  }
  Json out = first.collection;
  Json pit = *first_pit;
  int64_t root_n = 0;
  const bool has_hierarchy = pit.contains("hierarchy") && pit["hierarchy"].is_object();
  if (has_hierarchy) {
    for (auto& [depth, patterns] : pit["hierarchy"].items()) {
      if (!patterns.is_array()) continue;
      for (auto& p : patterns) p["n"] = 0;
    }
  }

  std::vector<std::array<double, 4>> boxes;
  std::optional<std::array<int64_t, 2>> temporal;
  Json ids = Json::array(), files = Json::array(), extents = Json::array();
  for (const OpenedSource& s : sources) {
    const std::string& name = s.source.path;
    TACO_ASSIGN_OR_RETURN(const Json* other_pit, PitOf(s));
    if (!s.collection.contains("taco:field_schema")) {
      return Status::InvalidArgument(name + ": COLLECTION.json has no taco:field_schema");
    }
    if (options.validate_pit) TACO_RETURN_IF_ERROR(ComparePit(*first_pit, *other_pit, first.source.path, name));
    if (options.validate_fields && s.collection["taco:field_schema"] != first.collection["taco:field_schema"]) {
      return Status::InvalidArgument(name + ": taco:field_schema differs from " + first.source.path +
                                     " (columns or types of the levels are not the same)");
    }
    root_n += CountOf((*other_pit)["root"].value("n", Json()));
    if (has_hierarchy && other_pit->contains("hierarchy") && (*other_pit)["hierarchy"].is_object()) {
      for (auto& [depth, patterns] : pit["hierarchy"].items()) {
        if (!patterns.is_array()) continue;
        const Json theirs = (*other_pit)["hierarchy"].value(depth, Json::array());
        for (size_t p = 0; p < patterns.size() && p < theirs.size(); ++p) {
          patterns[p]["n"] = CountOf(patterns[p]["n"]) + CountOf(theirs[p].value("n", Json()));
        }
      }
    }

    Json entry = {{"file", s.source.file_name}, {"id", s.collection.value("id", Json())}};
    if (auto sp = SpatialOf(s.collection)) {
      entry["spatial"] = {(*sp)[0], (*sp)[1], (*sp)[2], (*sp)[3]};
      boxes.push_back(*sp);
    }
    TACO_ASSIGN_OR_RETURN(auto tp, TemporalOf(s.collection, name));
    if (tp) {
      entry["temporal"] = {FormatInstant((*tp)[0]), FormatInstant((*tp)[1])};
      if (!temporal) {
        temporal = tp;
      } else {
        (*temporal)[0] = std::min((*temporal)[0], (*tp)[0]);
        (*temporal)[1] = std::max((*temporal)[1], (*tp)[1]);
      }
    }
    ids.push_back(s.collection.value("id", Json()));
    files.push_back(s.source.file_name);
    extents.push_back(std::move(entry));
  }
  if (root_n == 0) return Status::InvalidArgument("the inputs hold no samples (taco:pit_schema root.n sums to 0)");
  pit["root"]["n"] = root_n;

  Json extent = Json::object();
  // Merged on the longitude circle (west > east across the antimeridian), as create does
  // for one dataset (model/metadata.h).
  const std::array<double, 4> spatial = model::MergeBoxes(boxes);
  extent["spatial"] = {spatial[0], spatial[1], spatial[2], spatial[3]};
  extent["temporal"] = temporal ? Json{FormatInstant((*temporal)[0]), FormatInstant((*temporal)[1])} : Json();
  out["extent"] = std::move(extent);
  out["taco:pit_schema"] = std::move(pit);
  if (!options.validate_fields) out["taco:field_schema"] = MergeFieldSchemas(sources);
  out["taco:sources"] = {{"count", sources.size()}, {"ids", ids}, {"files", files}, {"extents", extents}};
  return out;
}

}  // namespace write

static Result<nlohmann::ordered_json> BuildTacollectionUnguarded(const std::vector<std::string>& inputs,
                                                                 const TacollectionOptions& options) {
  TACO_ASSIGN_OR_RETURN(std::vector<write::TacocatSource> sources, write::SourcesFromPaths(inputs));
  std::vector<write::OpenedSource> opened;
  for (const auto& s : sources) {
    TACO_ASSIGN_OR_RETURN(write::OpenedSource o, write::OpenSource(s));
    opened.push_back(std::move(o));
  }
  return write::BuildTacollectionFromSources(opened, options);
}

// The library boundary: nothing a dependency throws escapes (util/exception_guard.h).
Result<nlohmann::ordered_json> BuildTacollection(const std::vector<std::string>& inputs,
                                                 const TacollectionOptions& options) {
  return util::GuardExceptions("tacollection", [&] { return BuildTacollectionUnguarded(inputs, options); });
}

Status CreateTacollection(const std::vector<std::string>& inputs, const std::string& output,
                          const TacollectionOptions& options) {
  if (output.empty()) return Status::InvalidArgument("tacollection: the output path is empty");
  TACO_ASSIGN_OR_RETURN(nlohmann::ordered_json collection, BuildTacollection(inputs, options));
  TACO_ASSIGN_OR_RETURN(auto out, AtomicOutput::Begin(output, /*is_directory=*/false));
  std::string text =
      collection.dump(4, ' ', /*ensure_ascii=*/false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  TACO_RETURN_IF_ERROR(WriteNewFile(out->temp_path(), text));
  return out->Commit();
}

}  // namespace taco
