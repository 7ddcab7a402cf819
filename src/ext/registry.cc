// Name -> computed extension, for the CLI's `--ext stac,istac,stats,...`.
#include <string>
#include <vector>

#include "gdal/gdal_util.h"
#include "taco/extensions.h"

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

}  // namespace taco::ext
