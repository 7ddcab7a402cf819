// The row selection shared by `taco filter`, `taco export` and `taco stats`: --sql, --bbox, --datetime,
// --level, --geometry-col, --time-col, applied in that order to a dataset view.
#ifndef TACO_CLI_SELECTION_H_
#define TACO_CLI_SELECTION_H_

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli_common.h"
#include "taco/dataset.h"
#include "taco/status.h"

namespace taco::cli {

struct Selection {
  std::string sql;
  std::string bbox;
  std::string datetime;
  std::string geometry_col = "auto";
  std::string time_col = "auto";
  int level = 0;
};

using Box = std::array<double, 4>;

// `level_option`: the name of the option for Selection::level (`taco stats` has its own
// --level, the level it aggregates, and names this one --filter-level).
void AddSelectionOptions(CLI::App* cmd, Selection* selection, const std::string& level_option = "--level");

// "minx,miny,maxx,maxy" → the box; "" → nullopt. InvalidArgument naming --bbox otherwise.
Result<std::optional<Box>> ParseBbox(const std::string& text);

// The view of `source` selected by --sql, then `box`, then --datetime; null when nothing is
// selected (the source itself is the answer).
Result<std::unique_ptr<Dataset>> ApplySelection(const Dataset& source, const Selection& selection,
                                                const std::optional<Box>& box);

// The OpenOptions of a command that runs the user's SQL: DatasetOpenOptions plus --allow-external-sql.
OpenOptions SqlOpenOptions(const GlobalOptions& global);

// OpenRouted(paths, box, --datetime, options) (taco/dataset.h: a single TACOLLECTION.json opens
// only the parts whose taco:sources extents meet them), routing for the auto-detected
// geometry/time columns only; "-v" logs how many parts were skipped.
Result<std::unique_ptr<Dataset>> OpenSelected(const std::vector<std::string>& paths, const Selection& selection,
                                              const std::optional<Box>& box, const OpenOptions& options);

}  // namespace taco::cli

#endif  // TACO_CLI_SELECTION_H_
