// Name -> computed extension, for the CLI's `--ext stac,istac,stats,...` and Python's
// compute_extension(): the registry of the SampleExtension classes (taco/extensions.h).
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gdal/gdal_util.h"
#include "taco/extensions.h"
#include "util/quote.h"

namespace taco::ext {

namespace {

// The --ext registry: each name makes the SampleExtension class that computes it, the same
// classes Python's extension API uses (taco/extensions.h), so that there is one mechanism.
struct RegistryEntry {
  std::string_view name;
  std::unique_ptr<SampleExtension> (*make)(const ExtensionSettings& settings);
};

std::unique_ptr<SampleExtension> MakeStats(bool categorical, const std::vector<double>& classes) {
  GeotiffStatsOptions options;
  options.categorical = categorical;
  if (categorical) options.class_values = classes;
  return std::make_unique<GeotiffStatsExtension>(std::move(options));
}

constexpr RegistryEntry kRegistry[] = {
    {"stac",
     [](const ExtensionSettings&) -> std::unique_ptr<SampleExtension> { return std::make_unique<StacExtension>(); }},
    {"istac",
     [](const ExtensionSettings&) -> std::unique_ptr<SampleExtension> { return std::make_unique<IstacExtension>(); }},
    {"stats", [](const ExtensionSettings&) { return MakeStats(false, {}); }},
    {"stats-categorical", [](const ExtensionSettings& s) { return MakeStats(true, s.categorical_classes); }},
};

}  // namespace

std::vector<std::string> KnownExtensionNames() {
  std::vector<std::string> names;
  for (const RegistryEntry& e : kRegistry) names.emplace_back(e.name);
  return names;
}

Result<std::vector<Field>> ComputeByName(std::string_view name, const std::string& raster_path,
                                         const ExtensionSettings& settings) {
  const RegistryEntry* entry = nullptr;
  for (const RegistryEntry& e : kRegistry) {
    if (e.name == name) entry = &e;
  }
  if (entry == nullptr) {
    std::string known;
    for (const auto& n : KnownExtensionNames()) known += (known.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("--ext: unknown extension '" + std::string(name) + "' (known: " + known + ")");
  }
  const std::unique_ptr<SampleExtension> extension = entry->make(settings);
  // The file as a FILE sample (its id only names it; nothing is read or stat'ed here).
  TACO_ASSIGN_OR_RETURN(Sample sample, Sample::FromScannedFile("raster", raster_path, 0));
  Result<std::vector<Field>> result = extension->Compute(sample);
  // A sample GDAL cannot open as a raster (a folder, a CSV, ...) gets the schema's nulls;
  // other failures (unreadable pixels, bad CRS) are real errors.
  if (!result.ok() && internal::IsNotARaster(result.status())) return extension->SchemaOnly();
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
