// The OpticalData collection extension (FORMAT §7.4): `optical:bands` (a list of band
// objects {name, index, common_name, description, unit, center_wavelength,
// full_width_half_max}) and `optical:num_bands`, checked against each other and against the
// band counts of the `geotiff:stats` columns.
#include <map>
#include <optional>
#include <string>

#include "validate/checks.h"

namespace taco::validate {
namespace {

using nlohmann::ordered_json;

constexpr const char* kRule = "optical-bands";
const std::string kWhere = std::string(kCollectionMember) + " ";

std::string Number(const ordered_json& v) { return v.dump(); }

// Band counts of every non-null `geotiff:stats` row, over all levels: count -> rows.
std::map<size_t, uint64_t> StatsBandCounts(const std::vector<Table>& levels) {
  std::map<size_t, uint64_t> counts;
  for (const Table& t : levels) {
    const int c = t.FindColumn("geotiff:stats");
    if (c < 0) continue;
    for (const Value& v : t.columns[static_cast<size_t>(c)].values) {
      if (v.is<ValueList>() && !v.get<ValueList>().empty()) ++counts[v.get<ValueList>().size()];
    }
  }
  return counts;
}

// The bands' own rules; returns how many bands there are (nullopt when not a list).
std::optional<size_t> CheckBands(const ordered_json& bands, Reporter& rep) {
  const std::string at = kWhere + "optical:bands";
  if (!bands.is_array()) {
    rep.Add(kRule, at, std::string("a JSON ") + bands.type_name(), "a list of band objects");
    return std::nullopt;
  }
  std::map<std::string, size_t> first_of;
  for (size_t i = 0; i < bands.size(); ++i) {
    const std::string where = at + "[" + std::to_string(i) + "]";
    const ordered_json& b = bands[i];
    if (!b.is_object()) {
      rep.Add(kRule, where, std::string("a JSON ") + b.type_name(), "a band object {name, center_wavelength, ...}");
      continue;
    }
    const auto name = b.find("name");
    if (name == b.end() || !name->is_string() || name->get_ref<const std::string&>().empty()) {
      rep.Add(kRule, where + ".name", name == b.end() ? "missing" : name->dump(), "a non-empty band name");
    } else {
      const std::string& n = name->get_ref<const std::string&>();
      auto [it, inserted] = first_of.emplace(n, i);
      if (!inserted) {
        rep.Add(kRule, where + ".name", Quoted(n) + " again",
                "unique band names (" + Quoted(n) + " is band " + std::to_string(it->second) + ")");
      }
    }
    for (const char* key : {"center_wavelength", "full_width_half_max"}) {
      const auto v = b.find(key);
      if (v == b.end() || v->is_null()) continue;
      if (!v->is_number() || !(v->get<double>() > 0)) {
        rep.Add(kRule, where + "." + key, Number(*v), "a positive number (micrometres) or null");
      }
    }
  }
  return bands.size();
}

}  // namespace

void CheckOpticalBands(const ordered_json& c, const std::vector<Table>& levels, Reporter& rep) {
  std::optional<size_t> count;
  if (c.contains("optical:bands") && !c.at("optical:bands").is_null()) count = CheckBands(c.at("optical:bands"), rep);
  if (!c.contains("optical:num_bands") || c.at("optical:num_bands").is_null()) return;
  const ordered_json& n = c.at("optical:num_bands");
  const std::string at = kWhere + "optical:num_bands";
  if (!n.is_number_integer() || n.get<int64_t>() < 0) {
    rep.Add(kRule, at, n.dump(), "a non-negative integer");
    return;
  }
  const size_t num = static_cast<size_t>(n.get<int64_t>());
  if (count && *count != num) {
    rep.Add(kRule, at, std::to_string(num), std::to_string(*count) + " (the number of optical:bands)");
  }
  // An image + mask layout has stats with other band counts too: the declared count must be
  // one of them.
  const std::map<size_t, uint64_t> stats = StatsBandCounts(levels);
  if (stats.empty() || stats.count(num) > 0) return;
  std::string found;
  for (const auto& [bands, rows] : stats) {
    found += (found.empty() ? "" : ", ") + std::to_string(bands) + " bands in " + std::to_string(rows) +
             (rows == 1 ? " row" : " rows");
  }
  rep.Add(kRule, at, std::to_string(num) + " but geotiff:stats has " + found,
          "the band count of the GeoTIFFs (some geotiff:stats row with " + std::to_string(num) + " bands)");
}

}  // namespace taco::validate
