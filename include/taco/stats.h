// Band statistics of a dataset, aggregated from the per-sample `geotiff:stats` column
// (FORMAT §6.9; older files: `internal:stats`, same layout).
//
// Each row holds one inner list per band: 9 values `[min, max, mean, std, valid%, p25, p50,
// p75, p95]` (continuous) or N != 9 class probabilities (categorical). Rows with null/empty
// stats are dropped; each row weighs H·W, the product of the last two entries of
// `stac:tensor_shape` (1 when it has fewer than 2 entries or is null; every weight is 1 when
// the column is absent).
//
// Which rows (level 0): the rows of the CURRENT VIEW (after Sql()/filters). Upstream
// tacoreader always aggregates the whole stored level0 and ignores filters (FORMAT §10.2);
// we deliberately honour the view. Level L > 0 needs an id: the children (rows of `levelL`)
// of the row(s) with that id at level L-1 (level 0: taken from the current view; deeper:
// the stored level), joined on `internal:parent_id = internal:current_id` and, when both
// sides have them, equal `internal:source_path` (concat) and `internal:source_file`
// (TACOCAT), so ids of different sources never mix.
//
// Results are float32 (computed in double, then rounded), one value per requested band.
// Errors (InvalidArgument/NotFound, prefixed with the dataset path) keep upstream's words:
// "Level L does not exist", "id is required for level > 0", "Level L does not contain
// statistics", "Band B out of range", plus "ragged" when rows disagree on the number of
// bands or values per band, and a continuous/categorical mismatch.
#ifndef TACO_STATS_H_
#define TACO_STATS_H_

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

struct StatsQuery {
  std::vector<int> bands;         // at least one
  int level = 0;
  std::optional<std::string> id;  // required when level > 0; ignored at level 0
};

// stats_mean/std/min/max/p25/p50 (= median)/p75/p95: one value per band of `query.bands`.
Result<std::vector<float>> ComputeStats(Dataset& dataset, StatsMeasure measure, const StatsQuery& query);
// stats_categorical: per band of `query.bands`, the weighted class probabilities.
Result<std::vector<std::vector<float>>> ComputeCategoricalStats(Dataset& dataset, const StatsQuery& query);

// Everything at once (one query), for the CLI: continuous rows fill `measures`
// ([measure in kAllStatsMeasures order][band]); categorical rows fill `categorical`.
struct StatsSummary {
  bool categorical = false;
  std::vector<std::vector<float>> measures;
  std::vector<std::vector<float>> categorical_probabilities;  // [band][class]
};
Result<StatsSummary> SummarizeStats(Dataset& dataset, const StatsQuery& query);

}  // namespace taco

#endif  // TACO_STATS_H_
