// Name -> computed extension, for the CLI's `--ext stac,istac,stats,...`.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gdal/gdal_util.h"
#include "taco/extensions.h"
#include "util/quote.h"

namespace taco::ext {

std::vector<std::string> KnownExtensionNames() { return {"stac", "istac", "stats", "stats-categorical"}; }

Result<std::vector<Field>> ComputeByName(std::string_view name, const std::string& raster_path,
                                         const ExtensionSettings& settings) {
  Result<std::vector<Field>> result = Status::Internal("unreachable");
  std::vector<Field> schema;
  if (name == "stac") {
    schema = StacSchema();
    result = Stac(raster_path, std::nullopt, std::nullopt);
  } else if (name == "istac") {
    schema = IstacSchema();
    result = Istac(raster_path, std::nullopt, std::nullopt);
  } else if (name == "stats" || name == "stats-categorical") {
    schema = GeotiffStatsSchema();
    GeotiffStatsOptions options;
    options.categorical = name == "stats-categorical";
    if (options.categorical) options.class_values = settings.categorical_classes;
    result = GeotiffStats(raster_path, options);
  } else {
    std::string known;
    for (const auto& n : KnownExtensionNames()) known += (known.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("--ext: unknown extension '" + std::string(name) + "' (known: " + known + ")");
  }
  // A sample GDAL cannot open as a raster (a folder, a CSV, ...) gets the schema's nulls;
  // other failures (unreadable pixels, bad CRS) are real errors.
  if (!result.ok() && internal::IsNotARaster(result.status())) {
    return schema;
  }
  return result;
}

std::vector<std::string> ExtensionSpecNames() {
  std::vector<std::string> names = KnownExtensionNames();
  names.emplace_back("majortom");
  return names;
}

Result<std::vector<ExtensionSpec>> ParseExtensionSpecs(const std::vector<std::string>& texts) {
  using util::Quote;
  const std::vector<std::string> known = ExtensionSpecNames();
  std::vector<ExtensionSpec> specs;
  std::set<std::string> seen;
  for (const std::string& list : texts) {
    size_t start = 0;
    while (true) {
      const size_t comma = list.find(',', start);
      ExtensionSpec s;
      s.text = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      const size_t colon = s.text.find(':');
      s.name = s.text.substr(0, colon);
      if (colon != std::string::npos) {
        s.glob = s.text.substr(colon + 1);
        if (s.glob.empty()) {
          return Status::InvalidArgument("extension " + Quote(s.text) + ": empty file pattern after ':'");
        }
      }
      if (std::find(known.begin(), known.end(), s.name) == known.end()) {
        std::string names;
        for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
        return Status::InvalidArgument("extension " + Quote(s.name) + " is unknown (known: " + names + ")");
      }
      if (s.name == "majortom" && !s.glob.empty()) {
        return Status::InvalidArgument("extension " + Quote(s.text) +
                                       ": majortom applies to tortillas, it takes no file pattern");
      }
      if (!seen.insert(s.text).second) return Status::InvalidArgument("extension " + Quote(s.text) + " given twice");
      specs.push_back(std::move(s));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return specs;
}

}  // namespace taco::ext
