// TACOLLECTION.json read as a dataset: its parts, routed by their extents
// (taco/dataset.h IsTacollectionPath, RouteTacollection).
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "read/datetime_range.h"
#include "read/path_safety.h"
#include "taco/dataset.h"
#include "taco/io.h"
#include "util/iso_datetime.h"
#include "util/json_text.h"
#include "util/quote.h"

namespace taco {
namespace {

using nlohmann::ordered_json;
using util::Quote;

bool IsUrl(const std::string& path) { return path.find("://") != std::string::npos || path.rfind("/vsicurl", 0) == 0; }

// The JSON's directory (with trailing '/'), or "" for a bare file name.
std::string BaseOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// Closed intervals [a0, a1] and [b0, b1] share a point.
bool Overlap(double a0, double a1, double b0, double b1) { return a0 <= b1 && b0 <= a1; }

// Whether `spatial` ([w, s, e, n], w > e across the antimeridian) meets the box.
Result<bool> MeetsBox(const ordered_json& spatial, const std::array<double, 4>& box, const std::string& where) {
  if (!spatial.is_array() || spatial.size() != 4) {
    return Status::Corruption(where + ": spatial is not [west, south, east, north]");
  }
  double v[4];
  for (size_t i = 0; i < 4; ++i) {
    if (!spatial[i].is_number()) return Status::Corruption(where + ": spatial holds a non-number");
    v[i] = spatial[i].get<double>();
  }
  if (!Overlap(v[1], v[3], box[1], box[3])) return false;
  if (v[0] <= v[2]) return Overlap(v[0], v[2], box[0], box[2]);
  return Overlap(v[0], 180.0, box[0], box[2]) || Overlap(-180.0, v[2], box[0], box[2]);
}

Result<bool> MeetsRange(const ordered_json& temporal, const read::DateRange& range, const std::string& where) {
  if (!temporal.is_array() || temporal.size() != 2 || !temporal[0].is_string() || !temporal[1].is_string()) {
    return Status::Corruption(where + ": temporal is not [start, end] ISO-8601 strings");
  }
  int64_t start = 0, end = 0;
  if (!util::ParseIsoDatetime(temporal[0].get<std::string>(), &start) ||
      !util::ParseIsoDatetime(temporal[1].get<std::string>(), &end)) {
    return Status::Corruption(where + ": temporal " + temporal.dump() + " is not ISO-8601");
  }
  if (range.start_us && end < *range.start_us) return false;
  if (range.end_us && start > *range.end_us) return false;
  return true;
}

}  // namespace

bool IsTacollectionPath(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
}

Result<TacollectionParts> RouteTacollection(const std::string& path, const std::optional<std::array<double, 4>>& bbox,
                                            const std::string& datetime) {
  std::optional<read::DateRange> range;
  if (!datetime.empty()) {
    auto parsed = read::ParseDateRange(datetime);
    if (!parsed.ok()) return parsed.status();
    range = *parsed;
  }
  if (bbox && ((*bbox)[0] > (*bbox)[2] || (*bbox)[1] > (*bbox)[3])) {
    return Status::InvalidArgument("bbox: minx > maxx or miny > maxy");
  }
  TACO_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
  auto parsed = util::ParseJsonText(text, path);
  if (!parsed.ok()) return Status::InvalidArgument(parsed.status().message());
  const ordered_json& collection = *parsed;
  const std::string what = path + ": TACOLLECTION";
  if (!collection.is_object() || !collection.contains("taco:sources") || !collection["taco:sources"].is_object() ||
      !collection["taco:sources"].contains("files") || !collection["taco:sources"]["files"].is_array()) {
    return Status::InvalidArgument(what +
                                   ": no taco:sources.files (a .json path is read as a TACOLLECTION; "
                                   "open a FOLDER dataset by its directory, not its COLLECTION.json)");
  }
  const ordered_json& sources = collection["taco:sources"];
  const ordered_json& files = sources["files"];
  if (files.empty()) return Status::InvalidArgument(what + ": taco:sources.files is empty");
  const ordered_json* extents =
      sources.contains("extents") && sources["extents"].is_array() ? &sources["extents"] : nullptr;
  const bool url = IsUrl(path);
  const std::string base = BaseOf(path);
  TacollectionParts out;
  out.total = files.size();
  for (size_t i = 0; i < files.size(); ++i) {
    if (!files[i].is_string())
      return Status::Corruption(what + ": taco:sources.files[" + std::to_string(i) + "] is not a string");
    const std::string file = files[i].get<std::string>();
    std::string problem = read::SourceFileProblem(file, url);
    if (!problem.empty()) {
      const std::string prefix = "internal:source_file ";
      if (problem.rfind(prefix, 0) == 0) problem = "taco:sources.files entry " + problem.substr(prefix.size());
      return Status::InvalidArgument(what + ": refused: " + problem);
    }
    if (IsTacollectionPath(file)) {
      return Status::InvalidArgument(what + ": refused: part " + Quote(file) +
                                     " is another .json (parts are containers)");
    }
    // The extent of this part: the entry whose "file" names it, else the i-th entry.
    const ordered_json* extent = nullptr;
    if (extents != nullptr) {
      for (const auto& e : *extents) {
        if (e.is_object() && e.contains("file") && e["file"] == file) extent = &e;
      }
      if (extent == nullptr && i < extents->size() && (*extents)[i].is_object() && !(*extents)[i].contains("file")) {
        extent = &(*extents)[i];
      }
    }
    bool keep = true;
    const std::string where = what + ": taco:sources.extents of " + Quote(file);
    if (extent != nullptr && bbox && extent->contains("spatial") && !(*extent)["spatial"].is_null()) {
      TACO_ASSIGN_OR_RETURN(keep, MeetsBox((*extent)["spatial"], *bbox, where));
    }
    if (keep && extent != nullptr && range && extent->contains("temporal") && !(*extent)["temporal"].is_null()) {
      TACO_ASSIGN_OR_RETURN(keep, MeetsRange((*extent)["temporal"], *range, where));
    }
    if (keep) {
      out.paths.push_back(base + file);
    } else {
      ++out.skipped;
    }
  }
  return out;
}

Result<RoutedOpen> OpenRouted(const std::vector<std::string>& paths, const std::optional<std::array<double, 4>>& bbox,
                              const std::string& datetime, const OpenOptions& options) {
  RoutedOpen out;
  if (paths.size() != 1 || !IsTacollectionPath(paths[0])) {
    TACO_ASSIGN_OR_RETURN(out.dataset, Dataset::OpenList(paths, options));
    out.opened = paths;
    return out;
  }
  TACO_ASSIGN_OR_RETURN(TacollectionParts parts, RouteTacollection(paths[0], bbox, datetime));
  if (parts.paths.empty()) {
    // Every part was skipped: the first one gives the (empty) selection its columns.
    TACO_ASSIGN_OR_RETURN(TacollectionParts all, RouteTacollection(paths[0], std::nullopt));
    if (all.paths.empty()) return Status::InvalidArgument(paths[0] + ": the TACOLLECTION lists no parts");
    out.opened = {all.paths.front()};
  } else {
    out.opened = parts.paths;
  }
  TACO_ASSIGN_OR_RETURN(out.dataset, Dataset::OpenList(out.opened, options));
  if (bbox || !datetime.empty()) out.routing = std::move(parts);
  return out;
}

}  // namespace taco
