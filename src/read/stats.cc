// Band statistics (FORMAT §6.9) over the current view: fetch the stats rows with one query,
// check their shape, aggregate in double, return float32.
#include "taco/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "table/engine.h"
#include "taco/dataset.h"

namespace taco {

using table::QuoteIdentifier;
using table::QuoteString;

namespace {

constexpr const char* kStatsColumns[] = {"geotiff:stats", "internal:stats"};
constexpr const char* kWeightColumn = "stac:tensor_shape";
constexpr size_t kContinuousWidth = 9;  // min, max, mean, std, valid%, p25, p50, p75, p95

struct StatsRows {
  std::vector<std::vector<std::vector<double>>> rows;  // [row][band][value]
  std::vector<double> weights;
  size_t bands = 0;
  size_t width = 0;  // values per band
};

std::string Where(const Dataset& ds, const StatsQuery& q) {
  std::string where = ds.path() + ": level " + std::to_string(q.level);
  if (q.level > 0 && q.id) where += " under '" + *q.id + "'";
  return where;
}

Result<std::vector<std::string>> ColumnsOf(Dataset& ds, const std::string& relation) {
  auto t = ds.QueryRaw("SELECT * FROM " + relation + " LIMIT 0");
  if (!t.ok()) return t.status().WithPrefix(ds.path());
  std::vector<std::string> names;
  for (const auto& c : t->columns) names.push_back(c.name);
  return names;
}

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (const auto& n : sorted) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool ToDouble(const Value& v, double* out) {
  if (v.is<float>()) *out = v.get<float>();
  else if (v.is<double>()) *out = v.get<double>();
  else if (v.is<int32_t>()) *out = v.get<int32_t>();
  else if (v.is<int64_t>()) *out = static_cast<double>(v.get<int64_t>());
  else return false;
  return true;
}

double WeightOf(const Value& shape) {
  if (!shape.is<ValueList>()) return 1.0;
  const ValueList& dims = shape.get<ValueList>();
  if (dims.size() < 2) return 1.0;
  double h = 0, w = 0;
  if (!ToDouble(dims[dims.size() - 2], &h) || !ToDouble(dims[dims.size() - 1], &w)) return 1.0;
  return h * w;
}

Status Validate(const Dataset& ds, const StatsQuery& q) {
  if (q.level < 0 || q.level >= ds.num_levels()) {
    return Status::NotFound(ds.path() + ": Level " + std::to_string(q.level) + " does not exist (available levels: 0 to " +
                            std::to_string(ds.num_levels() - 1) + ")");
  }
  if (q.level > 0 && !q.id) {
    return Status::InvalidArgument(ds.path() + ": id is required for level > 0 (level " + std::to_string(q.level) +
                                   " may differ between branches; name the level-" + std::to_string(q.level - 1) +
                                   " sample whose children to aggregate)");
  }
  if (q.bands.empty()) return Status::InvalidArgument(ds.path() + ": no band given");
  return Status::OK();
}

// The SQL selecting (stats, weight-or-NULL) rows for the query.
Result<std::string> StatsSql(Dataset& ds, const StatsQuery& q) {
  const std::string relation = q.level == 0 ? ds.view_name() : "level" + std::to_string(q.level);
  TACO_ASSIGN_OR_RETURN(std::vector<std::string> columns, ColumnsOf(ds, relation));
  std::string stats_col;
  for (const char* candidate : kStatsColumns) {
    if (Contains(columns, candidate)) {
      stats_col = candidate;
      break;
    }
  }
  if (stats_col.empty()) {
    return Status::InvalidArgument(ds.path() + ": Level " + std::to_string(q.level) +
                                   " does not contain statistics (expected one of: geotiff:stats, internal:stats; "
                                   "columns: " + JoinNames(columns) + ")");
  }
  const std::string weight = Contains(columns, kWeightColumn) ? QuoteIdentifier(kWeightColumn) : "NULL";
  if (q.level == 0) {
    return "SELECT " + QuoteIdentifier(stats_col) + ", " + weight + " FROM " + relation;
  }
  const std::string parent = q.level == 1 ? ds.view_name() : "level" + std::to_string(q.level - 1);
  TACO_ASSIGN_OR_RETURN(std::vector<std::string> parent_columns, ColumnsOf(ds, parent));
  for (const char* needed : {"id", "internal:current_id"}) {
    if (!Contains(parent_columns, needed)) {
      return Status::InvalidArgument(ds.path() + ": stats at level " + std::to_string(q.level) + " need column '" +
                                     needed + "' at level " + std::to_string(q.level - 1) +
                                     " (select from data_raw to keep it)");
    }
  }
  TACO_ASSIGN_OR_RETURN(Table found, ds.QueryRaw("SELECT count(*) FROM " + parent + " WHERE id = " + QuoteString(*q.id)));
  if (found.num_rows() != 1 || !found.columns[0].values[0].is<int64_t>() ||
      found.columns[0].values[0].get<int64_t>() == 0) {
    return Status::NotFound(ds.path() + ": no sample with id '" + *q.id + "' at level " + std::to_string(q.level - 1));
  }
  std::string on = "l." + QuoteIdentifier("internal:parent_id") + " = p." + QuoteIdentifier("internal:current_id");
  // Ids are per source file: concat and TACOCAT rows must also come from the same source.
  for (const char* source : {"internal:source_path", "internal:source_file"}) {
    if (Contains(columns, source) && Contains(parent_columns, source)) {
      on += " AND l." + QuoteIdentifier(source) + " = p." + QuoteIdentifier(source);
    }
  }
  const std::string child_weight = weight == "NULL" ? weight : "l." + weight;
  return "SELECT l." + QuoteIdentifier(stats_col) + ", " + child_weight + " FROM " + relation + " l JOIN " + parent +
         " p ON " + on + " WHERE p.id = " + QuoteString(*q.id);
}

Result<StatsRows> FetchRows(Dataset& ds, const StatsQuery& q) {
  TACO_RETURN_IF_ERROR(Validate(ds, q));
  TACO_ASSIGN_OR_RETURN(std::string sql, StatsSql(ds, q));
  auto table = ds.QueryRaw(sql);
  if (!table.ok()) return table.status().WithPrefix(ds.path());
  StatsRows out;
  const std::string where = Where(ds, q);
  const Column& stats = table->columns.at(0);
  const Column& shapes = table->columns.at(1);
  for (size_t r = 0; r < table->num_rows(); ++r) {
    const Value& cell = stats.values[r];
    if (!cell.is<ValueList>() || cell.get<ValueList>().empty()) continue;  // null/empty: dropped
    std::vector<std::vector<double>> bands;
    for (const Value& band : cell.get<ValueList>()) {
      std::vector<double> values;
      if (band.is<ValueList>()) {
        for (const Value& v : band.get<ValueList>()) {
          double d = std::numeric_limits<double>::quiet_NaN();
          if (!v.is_null() && !ToDouble(v, &d)) {
            return Status::InvalidArgument(where + ": statistics hold a non-numeric value");
          }
          values.push_back(d);
        }
      }
      bands.push_back(std::move(values));
    }
    if (out.rows.empty()) {
      out.bands = bands.size();
      out.width = bands.front().size();
    }
    size_t width = out.width;
    for (const auto& band : bands) {
      if (band.size() != out.width) width = band.size();
    }
    if (bands.size() != out.bands || width != out.width) {
      return Status::InvalidArgument(where + ": statistics are ragged: one row has " + std::to_string(out.bands) +
                                     " bands of " + std::to_string(out.width) + " values, another " +
                                     std::to_string(bands.size()) + " bands of " + std::to_string(width) +
                                     " values (mixed continuous/categorical?); cannot aggregate them");
    }
    out.rows.push_back(std::move(bands));
    out.weights.push_back(WeightOf(shapes.values[r]));
  }
  if (out.rows.empty()) return Status::InvalidArgument(where + ": no rows with statistics to aggregate");
  for (int b : q.bands) {
    if (b < 0 || static_cast<size_t>(b) >= out.bands) {
      return Status::InvalidArgument(ds.path() + ": Band " + std::to_string(b) + " out of range (available bands: 0 to " +
                                     std::to_string(out.bands - 1) + ")");
    }
  }
  return out;
}

Status CheckKind(const Dataset& ds, const StatsQuery& q, const StatsRows& rows, bool categorical) {
  const bool is_continuous = rows.width == kContinuousWidth;
  if (categorical == !is_continuous) return Status::OK();
  if (categorical) {
    return Status::InvalidArgument(Where(ds, q) + ": statistics are continuous (9 values per band), not categorical; "
                                   "use mean/std/min/max/percentiles");
  }
  return Status::InvalidArgument(Where(ds, q) + ": statistics are categorical (" + std::to_string(rows.width) +
                                 " class probabilities per band), not continuous; use categorical");
}

float Continuous(const StatsRows& s, StatsMeasure measure, size_t band) {
  double sum_w = 0, sum_wm = 0;
  for (size_t r = 0; r < s.rows.size(); ++r) {
    sum_w += s.weights[r];
    sum_wm += s.weights[r] * s.rows[r][band][2];
  }
  const double mean = sum_wm / sum_w;
  auto average_of = [&](size_t index) {
    double sum = 0;
    for (const auto& row : s.rows) sum += row[band][index];
    return sum / static_cast<double>(s.rows.size());
  };
  switch (measure) {
    case StatsMeasure::kMean: return static_cast<float>(mean);
    case StatsMeasure::kMin: {
      double m = std::numeric_limits<double>::infinity();
      for (const auto& row : s.rows) m = std::min(m, row[band][0]);
      return static_cast<float>(m);
    }
    case StatsMeasure::kMax: {
      double m = -std::numeric_limits<double>::infinity();
      for (const auto& row : s.rows) m = std::max(m, row[band][1]);
      return static_cast<float>(m);
    }
    case StatsMeasure::kStd: {
      // Pooled: sqrt(Σ[(w−1)·std² + w·(mean − M)²] / (Σw − 1)).
      double num = 0;
      for (size_t r = 0; r < s.rows.size(); ++r) {
        const double w = s.weights[r], sd = s.rows[r][band][3], d = s.rows[r][band][2] - mean;
        num += (w - 1) * sd * sd + w * d * d;
      }
      return static_cast<float>(std::sqrt(num / (sum_w - 1)));
    }
    case StatsMeasure::kP25: return static_cast<float>(average_of(5));
    case StatsMeasure::kP50: return static_cast<float>(average_of(6));
    case StatsMeasure::kP75: return static_cast<float>(average_of(7));
    case StatsMeasure::kP95: return static_cast<float>(average_of(8));
  }
  return std::numeric_limits<float>::quiet_NaN();
}

std::vector<float> Categorical(const StatsRows& s, size_t band) {
  double sum_w = 0;
  std::vector<double> acc(s.width, 0.0);
  for (size_t r = 0; r < s.rows.size(); ++r) {
    sum_w += s.weights[r];
    for (size_t k = 0; k < s.width; ++k) acc[k] += s.weights[r] * s.rows[r][band][k];
  }
  std::vector<float> out;
  for (double a : acc) out.push_back(static_cast<float>(a / sum_w));
  return out;
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

Result<std::vector<float>> ComputeStats(Dataset& dataset, StatsMeasure measure, const StatsQuery& query) {
  TACO_ASSIGN_OR_RETURN(StatsRows rows, FetchRows(dataset, query));
  TACO_RETURN_IF_ERROR(CheckKind(dataset, query, rows, /*categorical=*/false));
  std::vector<float> out;
  for (int b : query.bands) out.push_back(Continuous(rows, measure, static_cast<size_t>(b)));
  return out;
}

Result<std::vector<std::vector<float>>> ComputeCategoricalStats(Dataset& dataset, const StatsQuery& query) {
  TACO_ASSIGN_OR_RETURN(StatsRows rows, FetchRows(dataset, query));
  TACO_RETURN_IF_ERROR(CheckKind(dataset, query, rows, /*categorical=*/true));
  std::vector<std::vector<float>> out;
  for (int b : query.bands) out.push_back(Categorical(rows, static_cast<size_t>(b)));
  return out;
}

Result<StatsSummary> SummarizeStats(Dataset& dataset, const StatsQuery& query) {
  TACO_ASSIGN_OR_RETURN(StatsRows rows, FetchRows(dataset, query));
  StatsSummary summary;
  summary.categorical = rows.width != kContinuousWidth;
  for (int b : query.bands) {
    if (summary.categorical) summary.categorical_probabilities.push_back(Categorical(rows, static_cast<size_t>(b)));
  }
  if (!summary.categorical) {
    for (StatsMeasure m : kAllStatsMeasures) {
      std::vector<float> per_band;
      for (int b : query.bands) per_band.push_back(Continuous(rows, m, static_cast<size_t>(b)));
      summary.measures.push_back(std::move(per_band));
    }
  }
  return summary;
}

}  // namespace taco
