// Arithmetic on stored per-sample statistics (taco/stats.h, methods kPooled and kUpstream).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "read/stats_internal.h"

namespace taco::read {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Indexes in a stored continuous band.
constexpr size_t kMin = 0, kMax = 1, kMean = 2, kStd = 3, kValid = 4;
constexpr size_t kPercentileIndex[] = {5, 6, 7, 8};
constexpr double kPercentileLevel[] = {0.25, 0.5, 0.75, 0.95};

size_t MeasureIndex(StatsMeasure m) {
  size_t i = 0;
  for (StatsMeasure x : kAllStatsMeasures) {
    if (x == m) return i;
    ++i;
  }
  return 0;
}

// Valid pixels of row r: H·W·valid%/100 (H·W alone when valid% is missing).
double ValidPixels(const StatsRows& s, size_t r, size_t band) {
  const double valid = s.rows[r][band][kValid];
  if (!std::isfinite(valid) || valid <= 0) return s.pixels[r];
  const double n = s.pixels[r] * valid / 100.0;
  // Known sizes give whole pixel counts; float32 valid% is rounded to the nearest count.
  return s.pixels_known[r] && n >= 1 ? std::round(n) : n;
}

// One sample's CDF knots (min, p25, p50, p75, p95, max) at levels 0, .25, .5, .75, .95, 1.
struct Knots {
  double x[6];
  bool ordered;
};
constexpr double kKnotLevel[6] = {0, 0.25, 0.5, 0.75, 0.95, 1};

Knots KnotsOf(const std::vector<double>& v) {
  Knots k{{v[kMin], v[kPercentileIndex[0]], v[kPercentileIndex[1]], v[kPercentileIndex[2]], v[kPercentileIndex[3]],
           v[kMax]},
          true};
  for (int i = 0; i < 6; ++i) {
    if (!std::isfinite(k.x[i])) k.ordered = false;
  }
  for (int i = 0; i + 1 < 6 && k.ordered; ++i) {
    if (k.x[i] > k.x[i + 1]) k.ordered = false;
  }
  return k;
}

// The piecewise-linear CDF through the knots (linear from min to max when unordered).
double LinearCdf(const Knots& k, double x) {
  if (!k.ordered) {
    if (x < k.x[0]) return 0;
    if (x >= k.x[5]) return 1;
    return (x - k.x[0]) / (k.x[5] - k.x[0]);
  }
  if (x < k.x[0]) return 0;
  if (x >= k.x[5]) return 1;
  for (int j = 0; j < 5; ++j) {
    if (x < k.x[j + 1]) {
      return kKnotLevel[j] + (kKnotLevel[j + 1] - kKnotLevel[j]) * (x - k.x[j]) / (k.x[j + 1] - k.x[j]);
    }
  }
  return 1;
}

// The estimate's model of one sample's CDF: linear between p25 and p95; in the tails
// (min..p25, p95..max) exponential with the density of the neighbouring segment, so that a
// long tail to a far min/max keeps its 25% / 5% close to the quartile as real data does
// (linear tails put them far out), with the rest of the tail's mass at min / max.
double ModelCdf(const Knots& k, double x) {
  if (!k.ordered || x < k.x[1] || x >= k.x[4]) {
    if (!k.ordered) return LinearCdf(k, x);
    if (x < k.x[0]) return 0;
    if (x >= k.x[5]) return 1;
    if (x < k.x[1]) {
      const double scale = k.x[2] - k.x[1];  // .25 / density at p25
      return scale > 0 ? 0.25 * std::exp(-(k.x[1] - x) / scale) : 0.0;
    }
    const double scale = (k.x[4] - k.x[3]) / 4;  // .05 / density at p95
    return scale > 0 ? 1 - 0.05 * std::exp(-(x - k.x[4]) / scale) : 1.0;
  }
  return LinearCdf(k, x);
}

struct Event {
  double x;
  double mass;
};

// The first event position where the running mass reaches `target`, or `fallback`.
double FirstReaching(std::vector<Event>& events, double target, double fallback) {
  // NaN sorts last (a strict weak order even then).
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.x < b.x || (!std::isnan(a.x) && std::isnan(b.x)); });
  double mass = 0;
  for (size_t i = 0; i < events.size();) {
    const double x = events[i].x;
    // `<=` on a sorted range; a NaN position (refused by FetchStatsRows) still advances.
    do {
      mass += events[i++].mass;
    } while (i < events.size() && events[i].x == x);
    if (mass >= target) return x;
  }
  return fallback;
}

// Percentile `level` of the pooled pixels: [estimate, low, high].
std::array<double, 3> PooledPercentile(const std::vector<Knots>& knots, const std::vector<double>& n, double total,
                                       double level) {
  std::vector<Event> upper, lower;  // step bounds of the per-sample CDFs, weighted by n
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  for (size_t i = 0; i < knots.size(); ++i) {
    const Knots& k = knots[i];
    const double magnitude = std::max(std::fabs(k.x[0]), std::fabs(k.x[5]));
    const double slack = 4.0 * std::ldexp(magnitude, -24) + std::numeric_limits<double>::denorm_min();
    lowest = std::min(lowest, k.x[0] - slack);
    highest = std::max(highest, k.x[5] + slack);
    if (!k.ordered) {
      upper.push_back({k.x[0] - slack, n[i]});
      lower.push_back({k.x[5] + slack, n[i]});
      continue;
    }
    // The true rank-p value lies in [pK − half, pK + half] (the writer's bucket).
    const double half = (k.x[5] - k.x[0]) / 200.0 + slack;
    upper.push_back({k.x[0] - slack, 0.25 * n[i]});
    lower.push_back({k.x[5] + slack, 0.05 * n[i]});
    for (int j = 1; j <= 4; ++j) {
      const double step = (j == 4 ? 1.0 : kKnotLevel[j + 1]) - kKnotLevel[j];
      upper.push_back({k.x[j] - half, step * n[i]});
      lower.push_back({k.x[j] + half, (kKnotLevel[j] - kKnotLevel[j - 1]) * n[i]});
    }
  }
  const double target = level * total;
  // F ≤ U: the quantile is at or after the first x where U reaches the level; F ≥ L: at or
  // before the first x where L does. Rounding of the sums is taken against us.
  const double low = FirstReaching(upper, target * (1 - 1e-12), lowest);
  const double high = std::max(low, FirstReaching(lower, target * (1 + 1e-12), highest));
  auto pooled = [&](double x) {
    double sum = 0;
    for (size_t i = 0; i < knots.size(); ++i) sum += n[i] * ModelCdf(knots[i], x);
    return sum / total;
  };
  double a = low, b = high;
  double estimate;
  if (pooled(a) >= level) {
    estimate = a;
  } else if (pooled(b) < level) {
    estimate = b;
  } else {
    for (int it = 0; it < 60 && b - a > 0; ++it) {
      const double mid = a + (b - a) / 2;
      if (mid <= a || mid >= b) break;
      (pooled(mid) >= level ? b : a) = mid;
    }
    estimate = b;
  }
  return {estimate, low, high};
}

}  // namespace

BandStats PooledBand(const StatsRows& s, size_t band) {
  const size_t measures = std::size(kAllStatsMeasures);
  BandStats out{std::vector<double>(measures, kNaN), std::vector<double>(measures, kNaN),
                std::vector<double>(measures, kNaN)};
  std::vector<double> n(s.rows.size());
  std::vector<Knots> knots;
  double total = 0, sum_nm = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (size_t r = 0; r < s.rows.size(); ++r) {
    const std::vector<double>& v = s.rows[r][band];
    n[r] = ValidPixels(s, r, band);
    total += n[r];
    sum_nm += n[r] * v[kMean];
    lo = std::min(lo, v[kMin]);
    hi = std::max(hi, v[kMax]);
    knots.push_back(KnotsOf(v));
  }
  const double mean = sum_nm / total;
  double sum_var = 0;
  for (size_t r = 0; r < s.rows.size(); ++r) {
    const std::vector<double>& v = s.rows[r][band];
    const double d = v[kMean] - mean;
    sum_var += n[r] * (v[kStd] * v[kStd] + d * d);
  }
  out.values[MeasureIndex(StatsMeasure::kMean)] = mean;
  out.values[MeasureIndex(StatsMeasure::kStd)] = std::sqrt(sum_var / total);
  out.values[MeasureIndex(StatsMeasure::kMin)] = lo;
  out.values[MeasureIndex(StatsMeasure::kMax)] = hi;
  const StatsMeasure percentiles[] = {StatsMeasure::kP25, StatsMeasure::kP50, StatsMeasure::kP75, StatsMeasure::kP95};
  for (size_t p = 0; p < 4; ++p) {
    const auto [estimate, low, high] = PooledPercentile(knots, n, total, kPercentileLevel[p]);
    const size_t m = MeasureIndex(percentiles[p]);
    out.values[m] = estimate;
    out.low[m] = low;
    out.high[m] = high;
  }
  return out;
}

BandStats UpstreamBand(const StatsRows& s, size_t band) {
  const size_t measures = std::size(kAllStatsMeasures);
  BandStats out{std::vector<double>(measures, kNaN), {}, {}};
  double sum_w = 0, sum_wm = 0;
  for (size_t r = 0; r < s.rows.size(); ++r) {
    sum_w += s.pixels[r];
    sum_wm += s.pixels[r] * s.rows[r][band][kMean];
  }
  const double mean = sum_wm / sum_w;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, num = 0;
  for (size_t r = 0; r < s.rows.size(); ++r) {
    const std::vector<double>& v = s.rows[r][band];
    lo = std::min(lo, v[kMin]);
    hi = std::max(hi, v[kMax]);
    // Pooled sample std: sqrt(Σ[(w−1)·std² + w·(mean − M)²] / (Σw − 1)).
    const double w = s.pixels[r], d = v[kMean] - mean;
    num += (w - 1) * v[kStd] * v[kStd] + w * d * d;
  }
  out.values[MeasureIndex(StatsMeasure::kMean)] = mean;
  out.values[MeasureIndex(StatsMeasure::kStd)] = std::sqrt(num / (sum_w - 1));
  out.values[MeasureIndex(StatsMeasure::kMin)] = lo;
  out.values[MeasureIndex(StatsMeasure::kMax)] = hi;
  const StatsMeasure percentiles[] = {StatsMeasure::kP25, StatsMeasure::kP50, StatsMeasure::kP75, StatsMeasure::kP95};
  for (size_t p = 0; p < 4; ++p) {
    double sum = 0;  // the unweighted average of the per-sample percentiles
    for (const auto& row : s.rows) sum += row[band][kPercentileIndex[p]];
    out.values[MeasureIndex(percentiles[p])] = sum / static_cast<double>(s.rows.size());
  }
  return out;
}

std::vector<double> CategoricalBand(const StatsRows& s, size_t band) {
  double sum_w = 0;
  std::vector<double> acc(s.width, 0.0);
  for (size_t r = 0; r < s.rows.size(); ++r) {
    sum_w += s.pixels[r];
    for (size_t k = 0; k < s.width; ++k) acc[k] += s.pixels[r] * s.rows[r][band][k];
  }
  for (double& a : acc) a /= sum_w;
  return acc;
}

}  // namespace taco::read
