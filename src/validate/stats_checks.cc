// Rule stats-values: every value of a non-null `geotiff:stats` / `internal:stats` row is a
// finite number (the writer never stores NaN or infinity; readers refuse such rows).
#include <cmath>
#include <string>

#include "validate/checks.h"

namespace taco::validate {
namespace {

constexpr const char* kRule = "stats-values";
constexpr const char* kStatsColumns[] = {"geotiff:stats", "internal:stats"};

// The first non-finite value of a stats cell as "band B value I is X", or "".
std::string FirstNonFinite(const Value& cell) {
  if (!cell.is<ValueList>()) return "";
  const ValueList& bands = cell.get<ValueList>();
  for (size_t b = 0; b < bands.size(); ++b) {
    if (!bands[b].is<ValueList>()) continue;
    const ValueList& values = bands[b].get<ValueList>();
    for (size_t i = 0; i < values.size(); ++i) {
      const Value& v = values[i];
      double d = 0;
      if (v.is<float>())
        d = v.get<float>();
      else if (v.is<double>())
        d = v.get<double>();
      else if (v.is_null())
        d = std::nan("");
      else
        continue;
      if (std::isfinite(d)) continue;
      const std::string what = std::isnan(d) ? (v.is_null() ? "null" : "NaN") : (d > 0 ? "+inf" : "-inf");
      return "band " + std::to_string(b) + " value " + std::to_string(i) + " is " + what;
    }
  }
  return "";
}

}  // namespace

void CheckStatsValues(const std::vector<Table>& levels, const Tree& tree, Reporter& rep) {
  for (size_t d = 0; d < levels.size(); ++d) {
    for (const char* name : kStatsColumns) {
      const int c = levels[d].FindColumn(name);
      if (c < 0) continue;
      const Column& column = levels[d].columns[static_cast<size_t>(c)];
      for (size_t r = 0; r < column.values.size(); ++r) {
        const std::string found = FirstNonFinite(column.values[r]);
        if (found.empty()) continue;
        rep.Add(kRule, tree.Where(d, r) + " " + name, found, "finite statistics (no NaN, infinity or null)");
      }
    }
  }
}

}  // namespace taco::validate
