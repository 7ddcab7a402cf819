// Collection-level extensions (FORMAT §7.4): Labels, OpticalData (with sensor band tables),
// Publications, SplitStrategy. Each returns a COLLECTION.json fragment.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "taco/extensions.h"

namespace taco::ext {
namespace {

using json = nlohmann::ordered_json;

json OrNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

struct SensorTable {
  const char* sensor;
  std::vector<SpectralBand> bands;
};

// Centre wavelengths and full widths at half maximum in nm. Sentinel-2: the Sentinel-2A
// MSI spectral response (ESA); Landsat: the USGS band designations (OLI/TIRS, ETM+).
const std::vector<SensorTable>& Sensors() {
  static const std::vector<SensorTable> kSensors = [] {
    auto b = [](const char* name, const char* common, const char* desc, double centre, double fwhm) {
      return SpectralBand{name, common, desc, "nm", centre, fwhm};
    };
    const std::vector<SpectralBand> oli = {
        b("B01", "coastal", "Coastal aerosol (30 m)", 443.0, 16.0),
        b("B02", "blue", "Blue (30 m)", 482.0, 60.0),
        b("B03", "green", "Green (30 m)", 561.5, 57.0),
        b("B04", "red", "Red (30 m)", 654.5, 37.0),
        b("B05", "nir08", "Near infrared (30 m)", 865.0, 28.0),
        b("B06", "swir16", "Shortwave infrared 1 (30 m)", 1608.5, 85.0),
        b("B07", "swir22", "Shortwave infrared 2 (30 m)", 2200.5, 187.0),
        b("B08", "pan", "Panchromatic (15 m)", 589.5, 173.0),
        b("B09", "cirrus", "Cirrus (30 m)", 1373.5, 21.0),
        b("B10", "lwir11", "Thermal infrared 1, TIRS (100 m)", 10895.0, 590.0),
        b("B11", "lwir12", "Thermal infrared 2, TIRS (100 m)", 12005.0, 1010.0),
    };
    return std::vector<SensorTable>{
        {"sentinel2msi",
         {
             b("B01", "coastal", "Coastal aerosol (60 m)", 442.7, 21.0),
             b("B02", "blue", "Blue (10 m)", 492.4, 66.0),
             b("B03", "green", "Green (10 m)", 559.8, 36.0),
             b("B04", "red", "Red (10 m)", 664.6, 31.0),
             b("B05", "rededge", "Vegetation red edge 1 (20 m)", 704.1, 15.0),
             b("B06", "rededge", "Vegetation red edge 2 (20 m)", 740.5, 15.0),
             b("B07", "rededge", "Vegetation red edge 3 (20 m)", 782.8, 20.0),
             b("B08", "nir", "Near infrared (10 m)", 832.8, 106.0),
             b("B8A", "nir08", "Narrow near infrared (20 m)", 864.7, 21.0),
             b("B09", "nir09", "Water vapour (60 m)", 945.1, 20.0),
             b("B10", "cirrus", "Shortwave infrared, cirrus (60 m)", 1373.5, 31.0),
             b("B11", "swir16", "Shortwave infrared 1 (20 m)", 1613.7, 91.0),
             b("B12", "swir22", "Shortwave infrared 2 (20 m)", 2202.4, 175.0),
         }},
        {"landsat8oli", oli},
        {"landsat9oli", oli},
        {"landsat7etm",
         {
             b("B01", "blue", "Blue (30 m)", 485.0, 70.0),
             b("B02", "green", "Green (30 m)", 560.0, 80.0),
             b("B03", "red", "Red (30 m)", 660.0, 60.0),
             b("B04", "nir", "Near infrared (30 m)", 835.0, 130.0),
             b("B05", "swir16", "Shortwave infrared 1 (30 m)", 1650.0, 200.0),
             b("B06", "lwir", "Thermal infrared (60 m)", 11450.0, 2100.0),
             b("B07", "swir22", "Shortwave infrared 2 (30 m)", 2220.0, 260.0),
             b("B08", "pan", "Panchromatic (15 m)", 710.0, 380.0),
         }},
    };
  }();
  return kSensors;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::vector<std::string> KnownSensors() {
  std::vector<std::string> names;
  for (const auto& s : Sensors()) names.emplace_back(s.sensor);
  return names;
}

Result<std::vector<SpectralBand>> SensorBands(std::string_view sensor) {
  for (const auto& s : Sensors()) {
    if (sensor == s.sensor) return s.bands;
  }
  return Status::NotFound("optical:sensor: unknown sensor '" + std::string(sensor) +
                          "' (known: " + Join(KnownSensors()) + ")");
}

Result<nlohmann::ordered_json> OpticalData(std::string_view sensor) {
  std::string spec;
  for (char c : sensor) {
    if (c != ' ') spec.push_back(c);
  }
  const size_t open = spec.find('[');
  const std::string name = spec.substr(0, open);
  TACO_ASSIGN_OR_RETURN(std::vector<SpectralBand> all, SensorBands(name));
  if (open == std::string::npos) return OpticalData(name, all);
  if (spec.back() != ']' || spec.find('[', open + 1) != std::string::npos) {
    return Status::InvalidArgument("optical:sensor: bad band subset in '" + std::string(sensor) +
                                   "' (expected sensor[B02,B03,...])");
  }
  const std::string list = spec.substr(open + 1, spec.size() - open - 2);
  std::vector<SpectralBand> chosen;
  std::set<std::string> seen;
  size_t pos = 0;
  while (pos <= list.size()) {
    const size_t comma = std::min(list.find(',', pos), list.size());
    const std::string band = list.substr(pos, comma - pos);
    pos = comma + 1;
    auto it = std::find_if(all.begin(), all.end(), [&](const SpectralBand& b) { return b.name == band; });
    if (it == all.end()) {
      return Status::InvalidArgument("optical:sensor: " + name + " has no band '" + band + "'");
    }
    if (!seen.insert(band).second) {
      return Status::InvalidArgument("optical:sensor: band '" + band + "' listed twice");
    }
    chosen.push_back(*it);
  }
  return OpticalData(name, chosen);
}

Result<nlohmann::ordered_json> OpticalData(std::string_view sensor, const std::vector<SpectralBand>& bands) {
  if (sensor.empty()) return Status::InvalidArgument("optical:sensor: empty sensor name");
  if (bands.empty()) return Status::InvalidArgument("optical:bands: no bands for sensor '" + std::string(sensor) + "'");
  json list = json::array();
  for (size_t i = 0; i < bands.size(); ++i) {
    const SpectralBand& b = bands[i];
    if (b.name.empty()) return Status::InvalidArgument("optical:bands: band " + std::to_string(i) + " has no name");
    list.push_back({{"name", b.name},
                    {"index", static_cast<int32_t>(i)},
                    {"common_name", OrNull(b.common_name)},
                    {"description", OrNull(b.description)},
                    {"unit", OrNull(b.unit)},
                    {"center_wavelength", b.center_wavelength},
                    {"full_width_half_max", b.full_width_half_max}});
  }
  return json{{"optical:sensor", std::string(sensor)},
              {"optical:bands", std::move(list)},
              {"optical:num_bands", static_cast<int32_t>(bands.size())}};
}

Result<nlohmann::ordered_json> Labels(const std::vector<LabelClass>& classes, const std::string& description) {
  if (classes.empty()) return Status::InvalidArgument("labels:classes: no classes");
  json list = json::array();
  std::set<std::string> seen;
  for (const LabelClass& c : classes) {
    if (c.name.empty()) return Status::InvalidArgument("labels:classes: a class has an empty name");
    if (!seen.insert(c.name).second) {
      return Status::InvalidArgument("labels:classes: duplicate class name '" + c.name + "'");
    }
    list.push_back({{"name", c.name}, {"category", OrNull(c.category)}, {"description", OrNull(c.description)}});
  }
  return json{{"labels:classes", std::move(list)},
              {"labels:description", OrNull(description)},
              {"labels:num_classes", static_cast<int32_t>(classes.size())}};
}

Result<nlohmann::ordered_json> Publications(const std::vector<Publication>& publications) {
  json list = json::array();
  for (size_t i = 0; i < publications.size(); ++i) {
    const Publication& p = publications[i];
    if (p.doi.empty() || p.citation.empty()) {
      return Status::InvalidArgument("publications: entry " + std::to_string(i) + " needs a doi and a citation");
    }
    list.push_back({{"doi", p.doi}, {"citation", p.citation}, {"summary", OrNull(p.summary)}});
  }
  return json{{"publications", std::move(list)}};
}

Result<nlohmann::ordered_json> SplitStrategy(std::string_view name) {
  static const char* const kStrategies[] = {"random", "stratified", "manual", "other", "none", "unknown"};
  for (const char* s : kStrategies) {
    if (name == s) return json{{"split:strategy", std::string(name)}};
  }
  return Status::InvalidArgument(
      "split:strategy: must be one of random, stratified, manual, other, none, unknown; "
      "got '" +
      std::string(name) + "'");
}

}  // namespace taco::ext
