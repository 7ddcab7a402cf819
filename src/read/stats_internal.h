// Internals of taco/stats.h: the selected rows (stats_rows.cc), the arithmetic on stored
// per-sample statistics (stats_pooled.cc) and the pixel pass (stats_exact.cc).
#ifndef TACO_READ_STATS_INTERNAL_H_
#define TACO_READ_STATS_INTERNAL_H_

#include <string>
#include <vector>

#include "taco/dataset.h"
#include "taco/stats.h"
#include "taco/status.h"

namespace taco::read {

inline constexpr size_t kContinuousWidth = 9;  // min, max, mean, std, valid%, p25, p50, p75, p95

// The rows a query selects (taco/stats.h "Which rows").
struct StatsRows {
  // Rows with non-empty stats: [row][band][value] and their H·W (1 when unknown).
  std::vector<std::vector<std::vector<double>>> rows;
  std::vector<double> pixels;
  std::vector<bool> pixels_known;  // stac:tensor_shape gave H·W
  size_t bands = 0;
  size_t width = 0;  // values per band (0: no stats column, kExact only)
  // kExact: the GDAL paths of the FILE rows to read (rows with stats only, when stored).
  std::vector<std::string> gdal_paths;
  // Per gdal_paths entry: the archive path its ZIP member must have ("DATA/a/b.tif"), or
  // "/<id>" when only the sample's id is known (checked as the last part of the name), ""
  // when neither is (not checked).
  std::vector<std::string> members;
  size_t rows_without_path = 0;  // rows with stats that are not FILEs with a GDAL path
};

// "<path>: level L[ under 'id'][ file 'f']": the prefix of errors about the selection.
std::string StatsWhere(const Dataset& ds, const StatsQuery& q);

// Validates the query and fetches its rows. `need_stats`: a missing stats column or no row
// with stats is an error (kPooled, kUpstream); kExact only needs GDAL paths. Band indexes are
// checked against the stored bands when there are stats.
Result<StatsRows> FetchStatsRows(Dataset& ds, const StatsQuery& q, bool need_stats);

// One band's continuous statistics from stored rows: values in kAllStatsMeasures order;
// kPooled also fills low/high (NaN where exact).
struct BandStats {
  std::vector<double> values;
  std::vector<double> low, high;
};
BandStats PooledBand(const StatsRows& rows, size_t band);
BandStats UpstreamBand(const StatsRows& rows, size_t band);
// Σw·p/Σw with w = H·W.
std::vector<double> CategoricalBand(const StatsRows& rows, size_t band);

// The pixel pass of kExact over `rows.gdal_paths`, bands `q.bands` (0-based). Categorical:
// probabilities over `class_values` (empty: every distinct value of the selected bands).
struct ExactResult {
  std::vector<BandStats> continuous;               // [band]
  std::vector<std::vector<double>> probabilities;  // [band][class] when categorical
  std::vector<double> class_values;                // categorical: the distinct values
};
Result<ExactResult> ExactStats(const Dataset& ds, const StatsQuery& q, const StatsRows& rows, bool categorical,
                               const std::vector<double>& class_values);

}  // namespace taco::read

#endif  // TACO_READ_STATS_INTERNAL_H_
