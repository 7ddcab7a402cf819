// Band statistics of a dataset view: aggregated from the per-sample `geotiff:stats` column
// (FORMAT §6.9; older files: `internal:stats`, same layout), or computed from the pixels.
//
// Stored layout: each row holds one inner list per band, 9 values `[min, max, mean, std,
// valid%, p25, p50, p75, p95]` (continuous) or N != 9 class probabilities (categorical).
// Rows with null/empty stats are dropped. The writer (src/ext/geotiff_stats.cc) computes
// them over the VALID pixels of the sample (not NaN, not the band's NoData): std is the
// population std, valid% = 100·valid/(H·W), and pK is the centre of the first of 100 equal
// buckets of [min, max] whose cumulative count reaches K% of the valid pixels, so the true
// rank-K% value (below) lies within half a bucket, (max−min)/200, of the stored pK.
//
// Which rows (the same for every method):
//  * level 0: the rows of the CURRENT VIEW (after Sql()/filters). Upstream tacoreader always
//    aggregates the whole stored level0 and ignores filters (FORMAT §10.2); we honour the view.
//  * level L > 0 with `id` only: the children (rows of `levelL`) of the row(s) with that id at
//    level L-1 (level 0: taken from the current view; deeper: the stored level).
//  * level L > 0 with `file`: the rows of `levelL` whose id equals `file` under the view's
//    level-0 rows (each row of the view joined down level by level), e.g. `image.tif` of every
//    sample; with `id` too, only those whose level L-1 parent has that id.
//  * level L > 0 without id or file: InvalidArgument "id is required for level > 0".
//  Joins are `internal:parent_id = internal:current_id` and, when both sides have them, equal
//  `internal:source_path` (concat) and `internal:source_file` (TACOCAT), so ids of different
//  sources never mix.
//
// Methods (StatsQuery::method), continuous statistics:
//  * kPooled (default): n_i = the valid pixels of sample i = H·W·valid%/100 (H·W: the last
//    two entries of `stac:tensor_shape`; samples without it are taken as 1 pixel, i.e. all
//    samples the same size). mean = Σn·mean/N and std = sqrt(Σn·(std² + (mean−M)²)/N) (law
//    of total variance): exact up to float32 rounding of the stored values. min = min of
//    mins, max = max of maxes: exact. Percentiles are APPROXIMATE: each sample's CDF is known
//    only at its knots (min→0, p25→.25, p50→.5, p75→.75, p95→.95, max→1, each knot ± half a
//    bucket); the pooled CDF is bracketed by the n-weighted sums of the per-sample lower and
//    upper step bounds, which gives an interval [low, high] that provably holds the true
//    pooled rank percentile (given the writer's rule above and the pixel counts n_i; float32
//    rounding is absorbed by widening each knot by 4 ulps of the sample's range). The value
//    returned is where the n-weighted mean of per-sample model CDFs crosses the level,
//    clamped to [low, high]; the model is linear between the knots p25..p95 and, in the tails
//    (min..p25, p95..max), exponential with the density of the neighbouring segment (linear
//    tails would spread the last 5% evenly up to a far max). A sample whose knots are not
//    ordered is taken as unknown between its min and max (linear model).
//  * kExact: reads every selected sample's raster through GDAL (its `internal:gdal_vsi`
//    path; only FILE rows, and only rows with non-null stats when a stats column exists),
//    the requested bands, skipping NaN and NoData pixels like the writer. mean/std
//    (population)/min/max over all valid pixels; pK = the smallest valid pixel value v with
//    #(pixels ≤ v) ≥ K/100·N (the rank rule the writer's histogram approximates). Memory: one
//    count per distinct pixel value and band, at most kExactMaxDistinctValues per band (any
//    8- or 16-bit raster fits); more is InvalidArgument naming the limit. Categorical rows:
//    class probabilities over the distinct pixel values of all selected samples (sorted),
//    whose values are then known.
//  * kUpstream: tacoreader's arithmetic: weights H·W, mean = Σw·mean/Σw, std =
//    sqrt(Σ[(w−1)·std² + w·(mean − M)²]/(Σw − 1)), min/max as above, each percentile the
//    UNWEIGHTED average of the per-sample percentiles (not a percentile of the pixels).
// Categorical statistics: kPooled and kUpstream give Σw·p/Σw with w = H·W (as upstream;
// exact when every valid pixel holds a class and every sample is fully valid).
//
// Results are float32 (computed in double, then rounded; bounds rounded outwards), one
// value per requested band. Errors (InvalidArgument/NotFound, prefixed with the dataset path)
// keep upstream's words: "Level L does not exist", "id is required for level > 0", "Level L
// does not contain statistics", "Band B out of range", plus "ragged" when rows disagree on the
// number of bands or values per band, and a continuous/categorical mismatch.
#ifndef TACO_STATS_H_
#define TACO_STATS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "taco/dataset.h"
#include "taco/status.h"

namespace taco {

enum class StatsMeasure { kMean, kStd, kMin, kMax, kP25, kP50, kP75, kP95 };
inline constexpr StatsMeasure kAllStatsMeasures[] = {StatsMeasure::kMean, StatsMeasure::kStd, StatsMeasure::kMin,
                                                     StatsMeasure::kMax,  StatsMeasure::kP25, StatsMeasure::kP50,
                                                     StatsMeasure::kP75,  StatsMeasure::kP95};
// "mean", "std", "min", "max", "p25", "p50", "p75", "p95".
std::string_view StatsMeasureName(StatsMeasure measure);
bool IsPercentile(StatsMeasure measure);

enum class StatsMethod { kPooled, kExact, kUpstream };
// "pooled", "exact", "upstream"; ParseStatsMethod is the inverse (InvalidArgument otherwise).
std::string_view StatsMethodName(StatsMethod method);
Result<StatsMethod> ParseStatsMethod(std::string_view name);

// kExact: distinct pixel values counted per band at most.
inline constexpr size_t kExactMaxDistinctValues = size_t{1} << 21;

struct StatsQuery {
  std::vector<int> bands;  // at least one
  int level = 0;
  std::optional<std::string> id;    // level > 0: the parent at level L-1; ignored at level 0
  std::optional<std::string> file;  // level > 0: the child id under every view row
  StatsMethod method = StatsMethod::kPooled;
};

// stats_mean/std/min/max/p25/p50 (= median)/p75/p95: one value per band of `query.bands`.
Result<std::vector<float>> ComputeStats(Dataset& dataset, StatsMeasure measure, const StatsQuery& query);
// stats_categorical: per band of `query.bands`, the class probabilities.
Result<std::vector<std::vector<float>>> ComputeCategoricalStats(Dataset& dataset, const StatsQuery& query);

// Everything at once (one query), for the CLI.
struct StatsSummary {
  StatsMethod method = StatsMethod::kPooled;
  size_t samples = 0;  // rows aggregated (kExact: rasters read)
  bool categorical = false;
  // Continuous: [measure in kAllStatsMeasures order][band].
  std::vector<std::vector<float>> measures;
  // The measures that are estimates, not exact (kPooled: the percentiles; kUpstream: the
  // percentiles, which are averages; kExact: none).
  std::vector<StatsMeasure> approximate;
  // kPooled only: [measure][band] rigorous bounds of the true value; NaN for exact measures
  // (empty for other methods).
  std::vector<std::vector<float>> low, high;
  // Categorical: [band][class].
  std::vector<std::vector<float>> categorical_probabilities;
  // The pixel value and name of each class, when known: values from kExact's pixels, from
  // COLLECTION.json `geotiff:class_values` (written by `taco create --classes`), or from
  // `labels:classes[].category` when every category is a number and there is one class per
  // probability; names from `labels:classes[].name` when there is one per probability.
  // Empty: unknown (probabilities are by index, in the order the writer found the classes).
  std::vector<double> class_values;
  std::vector<std::string> class_names;
};
Result<StatsSummary> SummarizeStats(Dataset& dataset, const StatsQuery& query);

}  // namespace taco

#endif  // TACO_STATS_H_
