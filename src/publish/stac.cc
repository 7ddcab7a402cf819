// STAC Collection 1.0.0 (EXPORTERS §4.1): no nulls, antimeridian boxes kept as W > E,
// container files as `enclosure` links with file:size / file:checksum (multihash sha2-256).
#include <set>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "publish/text.h"
#include "publish/writers.h"

namespace taco::publish {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kFileExt = "https://stac-extensions.github.io/file/v2.1.0/schema.json";
constexpr const char* kSciExt = "https://stac-extensions.github.io/scientific/v1.0.0/schema.json";
constexpr const char* kProjExt = "https://stac-extensions.github.io/projection/v1.1.0/schema.json";
constexpr const char* kEoExt = "https://stac-extensions.github.io/eo/v1.1.0/schema.json";
constexpr const char* kLabelExt = "https://stac-extensions.github.io/label/v1.0.1/schema.json";

bool StacToken(const std::string& s) {
  if (s.empty()) return false;
  for (unsigned char c : s) {
    if (!(std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == '+')) return false;
  }
  return true;
}

bool IsHttp(const std::string& s) { return s.rfind("http://", 0) == 0 || s.rfind("https://", 0) == 0; }

// "...Z" / "...+00:00", else null (STAC 1.0.0 wants UTC).
json StacTime(const std::string& t) {
  if (t.empty()) return nullptr;
  if (t.back() == 'Z' || (t.size() > 6 && t.compare(t.size() - 6, 6, "+00:00") == 0)) return t;
  return nullptr;
}

json BboxJson(const std::array<double, 4>& b) { return json::array({b[0], b[1], b[2], b[3]}); }

// "EPSG:32630" → 32630, else -1.
long EpsgCode(const std::string& crs) {
  std::string s = crs;
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (s.rfind("EPSG:", 0) != 0) return -1;
  char* end = nullptr;
  long v = std::strtol(s.c_str() + 5, &end, 10);
  return (end && *end == '\0' && v > 0) ? v : -1;
}

// Band wavelength in micrometres (eo:bands) from the band's unit, if known.
std::optional<double> Micrometres(double v, const std::string& unit) {
  if (unit == "nm" || unit == "nanometers" || unit == "nanometer") return v / 1000.0;
  if (unit == "um" || unit == "µm" || unit == "μm" || unit == "micrometers" || unit == "micrometer") return v;
  return std::nullopt;
}

}  // namespace

Status MissingFields(const std::string& file, const std::string& standard, const std::vector<std::string>& missing) {
  if (missing.empty()) return Status::OK();
  std::string msg = file + ": " + standard + " requires ";
  for (size_t i = 0; i < missing.size(); ++i) msg += (i ? "; and " : "") + missing[i];
  return Status::InvalidArgument(msg);
}

Result<std::string> WriteStacCollection(const Model& m) {
  std::vector<std::string> missing;
  if (m.description.empty()) missing.push_back("'description', which the collection lacks (set it in COLLECTION.json)");
  if (m.licenses.empty()) missing.push_back("'license', and the collection has no licenses");
  TACO_RETURN_IF_ERROR(MissingFields("stac-collection.json", "STAC Collection 1.0.0", missing));

  json c = json::object();
  c["type"] = "Collection";
  c["stac_version"] = "1.0.0";
  std::vector<std::string> extensions;
  c["stac_extensions"] = json::array();
  c["id"] = m.id;
  if (m.title_given) c["title"] = m.title;
  c["description"] = m.description;
  std::vector<std::string> keywords = m.keywords;
  for (const auto& t : m.tasks) {
    if (std::find(keywords.begin(), keywords.end(), t) == keywords.end()) keywords.push_back(t);
  }
  if (!keywords.empty()) c["keywords"] = keywords;
  if (!m.dataset_version.empty()) c["version"] = m.dataset_version;

  // Licence: one SPDX-like token as is; several → "various"; otherwise "proprietary" + links.
  bool license_links = false;
  if (m.licenses.size() == 1 && StacToken(m.licenses[0])) {
    c["license"] = m.licenses[0];
    license_links = LookupLicense(m.licenses[0]).spdx.empty();
  } else {
    c["license"] = m.licenses.size() > 1 ? "various" : "proprietary";
    license_links = true;
  }

  json providers = json::array();
  for (const auto& p : m.providers) {
    json pj = json::object();
    pj["name"] = p.name;
    std::string description;
    if (!p.organization.empty() && p.organization != p.name) description = p.organization;
    if (!description.empty()) pj["description"] = description;
    json roles = json::array();
    for (const auto& r : p.roles) {
      if (r == "producer" || r == "licensor" || r == "processor" || r == "host") roles.push_back(r);
    }
    if (!roles.empty()) pj["roles"] = roles;
    if (IsHttp(p.url)) pj["url"] = p.url;
    providers.push_back(std::move(pj));
  }
  if (!providers.empty()) c["providers"] = providers;

  json boxes = json::array();
  boxes.push_back(BboxJson(m.bbox.value_or(std::array<double, 4>{-180, -90, 180, 90})));
  for (const auto& p : m.partitions) {
    if (p.bbox) boxes.push_back(BboxJson(*p.bbox));
  }
  json intervals = json::array({json::array({StacTime(m.time_start), StacTime(m.time_end)})});
  for (const auto& p : m.partitions) {
    if (!p.start.empty() || !p.end.empty()) intervals.push_back(json::array({StacTime(p.start), StacTime(p.end)}));
  }
  c["extent"] = {{"spatial", {{"bbox", boxes}}}, {"temporal", {{"interval", intervals}}}};

  json summaries = json::object();
  std::vector<long> epsg;
  bool all_epsg = !m.crs.empty();
  for (const auto& v : m.crs) {
    long code = EpsgCode(v.value);
    if (code < 0) all_epsg = false;
    epsg.push_back(code);
  }
  if (all_epsg) {
    summaries["proj:epsg"] = epsg;
    extensions.push_back(kProjExt);
  }
  if (!m.gsd.empty()) {
    json g = json::array();
    for (const auto& v : m.gsd) g.push_back(std::stod(v.value));
    summaries["gsd"] = g;
  }
  if (!m.bands.empty()) {
    json bands = json::array();
    for (const auto& b : m.bands) {
      json bj = json::object();
      if (!b.name.empty()) bj["name"] = b.name;
      if (!b.common_name.empty()) bj["common_name"] = b.common_name;
      if (!b.description.empty()) bj["description"] = b.description;
      if (b.center_wavelength) {
        if (auto um = Micrometres(*b.center_wavelength, b.unit)) bj["center_wavelength"] = *um;
      }
      if (b.fwhm) {
        if (auto um = Micrometres(*b.fwhm, b.unit)) bj["full_width_half_max"] = *um;
      }
      bands.push_back(std::move(bj));
    }
    summaries["eo:bands"] = bands;
    extensions.push_back(kEoExt);
  }
  if (!m.label_classes.empty()) {
    json names = json::array();
    for (const auto& l : m.label_classes) names.push_back(l.name);
    summaries["label:classes"] = json::array({{{"classes", names}}});
    extensions.push_back(kLabelExt);
  }
  if (!m.splits.empty()) {
    json s = json::array();
    for (const auto& v : m.splits) s.push_back(v.value);
    summaries["taco:split"] = s;
  }
  if (!summaries.empty()) c["summaries"] = summaries;

  // Scientific extension.
  if (!m.pub.doi.empty()) c["sci:doi"] = m.pub.doi;
  if (!m.publications.empty()) {
    json pubs = json::array();
    for (const auto& p : m.publications) {
      json pj = json::object();
      if (!p.doi.empty()) pj["doi"] = p.doi;
      if (!p.citation.empty()) pj["citation"] = p.citation;
      pubs.push_back(std::move(pj));
    }
    c["sci:publications"] = pubs;
  }
  if (!m.pub.doi.empty() || !m.publications.empty()) {
    c["sci:citation"] = PlainCitation(m);
    extensions.push_back(kSciExt);
  }

  // TACO facts (STAC allows extra fields).
  c["taco:format"] = m.format;
  c["taco:samples"] = m.samples();
  json levels = json::array();
  for (const auto& l : m.levels) {
    levels.push_back({{"level", l.level}, {"samples", l.samples()}, {"padding", l.padding_rows}});
  }
  c["taco:levels"] = levels;
  if (!m.taco_version.empty()) c["taco:version"] = m.taco_version;
  if (!m.subset_of.empty()) c["taco:subset_of"] = m.subset_of;

  json links = json::array();
  for (const auto& l : m.licenses) {
    LicenseInfo info = LookupLicense(l);
    if (!info.url().empty()) {
      links.push_back({{"rel", "license"}, {"href", info.url()}, {"type", "text/html"}, {"title", info.spdx}});
    }
  }
  (void)license_links;
  if (!m.pub.doi.empty()) links.push_back({{"rel", "cite-as"}, {"href", DoiUrl(m.pub.doi)}});
  if (!m.pub.landing_url.empty()) {
    links.push_back({{"rel", "about"}, {"href", m.pub.landing_url}, {"type", "text/html"}, {"title", "Landing page"}});
  }
  links.push_back({{"rel", "describedby"}, {"href", "index.html"}, {"type", "text/html"}, {"title", "Dataset page"}});
  links.push_back(
      {{"rel", "describedby"}, {"href", "croissant.json"}, {"type", "application/ld+json"}, {"title", "Croissant"}});
  bool any_file = false;
  for (const auto& f : m.files) {
    if (!f.contained_in.empty() || f.sha256.empty()) continue;
    std::string href = m.download_url(f.name);
    json link = {{"rel", "enclosure"},   {"href", href.empty() ? f.name : href},
                 {"type", f.media_type}, {"title", f.name},
                 {"file:size", f.size},  {"file:checksum", "1220" + f.sha256}};
    links.push_back(std::move(link));
    any_file = true;
  }
  if (any_file) extensions.push_back(kFileExt);
  c["links"] = links;
  std::sort(extensions.begin(), extensions.end());
  c["stac_extensions"] = extensions;
  return c.dump(2) + "\n";
}

}  // namespace taco::publish
