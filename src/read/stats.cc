// Band statistics (taco/stats.h): the rows (stats_rows.cc), then the method's arithmetic on
// stored statistics (stats_pooled.cc) or on the pixels (stats_exact.cc); float32 out.
#include "taco/stats.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "read/stats_internal.h"
#include "taco/dataset.h"

namespace taco {

namespace {

using read::BandStats;
using read::StatsRows;

constexpr StatsMeasure kPercentiles[] = {StatsMeasure::kP25, StatsMeasure::kP50, StatsMeasure::kP75,
                                         StatsMeasure::kP95};

float RoundDown(double v) {
  float f = static_cast<float>(v);
  if (std::isfinite(v) && static_cast<double>(f) > v) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}

float RoundUp(double v) {
  float f = static_cast<float>(v);
  if (std::isfinite(v) && static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

std::optional<double> NumberOf(const nlohmann::ordered_json& j) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (!s.empty() && end == s.c_str() + s.size() && std::isfinite(v)) return v;
  }
  return std::nullopt;
}

// Class values and names from COLLECTION.json for `n` classes (taco/stats.h StatsSummary).
void ClassesFromCollection(const nlohmann::ordered_json& c, size_t n, std::vector<double>* values,
                           std::vector<std::string>* names) {
  if (!c.is_object()) return;
  if (auto it = c.find("geotiff:class_values"); it != c.end() && it->is_array() && it->size() == n) {
    std::vector<double> v;
    for (const auto& x : *it) {
      if (auto d = NumberOf(x); d && x.is_number()) v.push_back(*d);
    }
    if (v.size() == n) *values = std::move(v);
  }
  auto it = c.find("labels:classes");
  if (it == c.end() || !it->is_array() || it->size() != n) return;
  std::vector<double> v;
  std::vector<std::string> s;
  for (const auto& x : *it) {
    if (!x.is_object()) return;
    if (auto name = x.find("name"); name != x.end() && name->is_string()) s.push_back(name->get<std::string>());
    if (auto cat = x.find("category"); cat != x.end()) {
      if (auto d = NumberOf(*cat)) v.push_back(*d);
    }
  }
  if (s.size() == n) *names = std::move(s);
  if (values->empty() && v.size() == n) *values = std::move(v);
}

void AddMeasures(StatsSummary& summary, const std::vector<BandStats>& bands, bool with_bounds) {
  const size_t measures = std::size(kAllStatsMeasures);
  summary.measures.assign(measures, {});
  if (with_bounds) {
    summary.low.assign(measures, {});
    summary.high.assign(measures, {});
  }
  for (size_t m = 0; m < measures; ++m) {
    for (const BandStats& b : bands) {
      summary.measures[m].push_back(static_cast<float>(b.values[m]));
      if (with_bounds) {
        summary.low[m].push_back(RoundDown(b.low[m]));
        summary.high[m].push_back(RoundUp(b.high[m]));
      }
    }
  }
}

Result<StatsSummary> Summarize(Dataset& dataset, const StatsQuery& query) {
  StatsSummary summary;
  summary.method = query.method;
  const bool exact = query.method == StatsMethod::kExact;
  TACO_ASSIGN_OR_RETURN(StatsRows rows, read::FetchStatsRows(dataset, query, /*need_stats=*/!exact));
  summary.categorical = rows.width != 0 && rows.width != read::kContinuousWidth;
  if (summary.categorical) {
    ClassesFromCollection(dataset.collection(), rows.width, &summary.class_values, &summary.class_names);
  }
  if (exact) {
    std::vector<double> classes = summary.class_values;
    TACO_ASSIGN_OR_RETURN(read::ExactResult r, read::ExactStats(dataset, query, rows, summary.categorical, classes));
    summary.samples = rows.gdal_paths.size();
    if (summary.categorical) {
      if (r.class_values != summary.class_values) summary.class_names.clear();
      summary.class_values = r.class_values;
      for (const auto& probs : r.probabilities) {
        summary.categorical_probabilities.emplace_back(probs.begin(), probs.end());
      }
    } else {
      AddMeasures(summary, r.continuous, /*with_bounds=*/false);
    }
    return summary;
  }
  summary.samples = rows.rows.size();
  if (summary.categorical) {
    for (int b : query.bands) {
      std::vector<double> probs = read::CategoricalBand(rows, static_cast<size_t>(b));
      summary.categorical_probabilities.emplace_back(probs.begin(), probs.end());
    }
    return summary;
  }
  const bool pooled = query.method == StatsMethod::kPooled;
  std::vector<BandStats> bands;
  for (int b : query.bands) {
    bands.push_back(pooled ? read::PooledBand(rows, static_cast<size_t>(b))
                           : read::UpstreamBand(rows, static_cast<size_t>(b)));
  }
  AddMeasures(summary, bands, pooled);
  // Which values are estimates (taco/stats.h).
  bool all_sizes = true, all_valid = true;
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    all_sizes = all_sizes && rows.pixels_known[r];
    for (int b : query.bands) all_valid = all_valid && rows.rows[r][static_cast<size_t>(b)][4] >= 100.0;
  }
  const bool several = rows.rows.size() > 1;
  if (pooled) {
    if (several && !all_sizes) summary.approximate = {StatsMeasure::kMean, StatsMeasure::kStd};
  } else {
    if (several && (!all_sizes || !all_valid)) summary.approximate.push_back(StatsMeasure::kMean);
    summary.approximate.push_back(StatsMeasure::kStd);
  }
  for (StatsMeasure m : kPercentiles) summary.approximate.push_back(m);
  return summary;
}

Status CheckKind(const Dataset& ds, const StatsQuery& q, const StatsSummary& s, bool categorical) {
  if (categorical == s.categorical) return Status::OK();
  if (categorical) {
    return Status::InvalidArgument(read::StatsWhere(ds, q) +
                                   ": statistics are continuous (9 values per band), not categorical; "
                                   "use mean/std/min/max/percentiles");
  }
  return Status::InvalidArgument(
      read::StatsWhere(ds, q) + ": statistics are categorical (" +
      std::to_string(s.categorical_probabilities.empty() ? 0 : s.categorical_probabilities[0].size()) +
      " class probabilities per band), not continuous; use categorical");
}

}  // namespace

std::string_view StatsMeasureName(StatsMeasure measure) {
  switch (measure) {
    case StatsMeasure::kMean: return "mean";
    case StatsMeasure::kStd: return "std";
    case StatsMeasure::kMin: return "min";
    case StatsMeasure::kMax: return "max";
    case StatsMeasure::kP25: return "p25";
    case StatsMeasure::kP50: return "p50";
    case StatsMeasure::kP75: return "p75";
    case StatsMeasure::kP95: return "p95";
  }
  return "?";
}

bool IsPercentile(StatsMeasure measure) {
  return measure == StatsMeasure::kP25 || measure == StatsMeasure::kP50 || measure == StatsMeasure::kP75 ||
         measure == StatsMeasure::kP95;
}

std::string_view StatsMethodName(StatsMethod method) {
  switch (method) {
    case StatsMethod::kPooled: return "pooled";
    case StatsMethod::kExact: return "exact";
    case StatsMethod::kUpstream: return "upstream";
  }
  return "?";
}

Result<StatsMethod> ParseStatsMethod(std::string_view name) {
  for (StatsMethod m : {StatsMethod::kPooled, StatsMethod::kExact, StatsMethod::kUpstream}) {
    if (StatsMethodName(m) == name) return m;
  }
  return Status::InvalidArgument("statistics method '" + std::string(name) + "' is not one of pooled, exact, upstream");
}

Result<std::vector<float>> ComputeStats(Dataset& dataset, StatsMeasure measure, const StatsQuery& query) {
  TACO_ASSIGN_OR_RETURN(StatsSummary s, Summarize(dataset, query));
  TACO_RETURN_IF_ERROR(CheckKind(dataset, query, s, /*categorical=*/false));
  size_t index = 0;
  while (kAllStatsMeasures[index] != measure) ++index;
  return s.measures[index];
}

Result<std::vector<std::vector<float>>> ComputeCategoricalStats(Dataset& dataset, const StatsQuery& query) {
  TACO_ASSIGN_OR_RETURN(StatsSummary s, Summarize(dataset, query));
  TACO_RETURN_IF_ERROR(CheckKind(dataset, query, s, /*categorical=*/true));
  return s.categorical_probabilities;
}

Result<StatsSummary> SummarizeStats(Dataset& dataset, const StatsQuery& query) { return Summarize(dataset, query); }

}  // namespace taco
