#include "selection.h"

#include <cstdlib>
#include <vector>

#include "taco/log.h"

namespace taco::cli {

void AddSelectionOptions(CLI::App* cmd, Selection* s, const std::string& level_option) {
  cmd->add_option("--sql", s->sql, "SQL over data/data_raw, applied first");
  cmd->add_option("--bbox", s->bbox, "minx,miny,maxx,maxy: geometry meets the box (closed)");
  cmd->add_option("--datetime", s->datetime,
                  "A/B, A, ../B or A/.. (STAC syntax; ends YYYY, YYYY-MM, YYYY-MM-DD = whole period UTC, or "
                  "YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM] = instant, naive = UTC; inclusive; times of day count)");
  cmd->add_option(level_option, s->level, "Level the bbox/datetime filters test (cascades to level 0)");
  cmd->add_option("--geometry-col", s->geometry_col, "Geometry column (default: auto)");
  cmd->add_option("--time-col", s->time_col, "Time column (default: auto)");
}

Result<std::optional<Box>> ParseBbox(const std::string& text) {
  if (text.empty()) return std::optional<Box>();
  const Status bad = Status::InvalidArgument("--bbox '" + text + "': expected minx,miny,maxx,maxy (4 numbers)");
  std::vector<double> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    const double v = std::strtod(part.c_str(), &end);
    if (part.empty() || end == part.c_str() || *end != '\0') return bad;
    out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.size() != 4) return bad;
  return std::optional<Box>(Box{out[0], out[1], out[2], out[3]});
}

Result<std::unique_ptr<Dataset>> ApplySelection(const Dataset& source, const Selection& s,
                                                const std::optional<Box>& box) {
  std::unique_ptr<Dataset> view;
  auto current = [&]() -> const Dataset& { return view ? *view : source; };
  if (!s.sql.empty()) {
    TACO_ASSIGN_OR_RETURN(view, current().Sql(s.sql));
  }
  if (box) {
    TACO_ASSIGN_OR_RETURN(view,
                          current().FilterBbox((*box)[0], (*box)[1], (*box)[2], (*box)[3], s.geometry_col, s.level));
  }
  if (!s.datetime.empty()) {
    TACO_ASSIGN_OR_RETURN(view, current().FilterDatetime(s.datetime, s.time_col, s.level));
  }
  return view;
}

OpenOptions SqlOpenOptions(const GlobalOptions& global) {
  OpenOptions options = DatasetOpenOptions(global);
  options.allow_external_sql = global.allow_external_sql;
  return options;
}

Result<std::unique_ptr<Dataset>> OpenSelected(const std::vector<std::string>& paths, const Selection& s,
                                              const std::optional<Box>& box, const OpenOptions& options) {
  // Extents describe centroids and times: route only for the auto-detected columns.
  const std::optional<Box> route_box = s.geometry_col == "auto" ? box : std::nullopt;
  const std::string route_range = s.time_col == "auto" ? s.datetime : "";
  TACO_ASSIGN_OR_RETURN(RoutedOpen opened, OpenRouted(paths, route_box, route_range, options));
  if (opened.routing) {
    Log(LogLevel::kVerbose, "tacollection " + paths[0] + ": " + std::to_string(opened.routing->skipped) + " of " +
                                std::to_string(opened.routing->total) + " parts skipped (their extents miss" +
                                (route_box ? " --bbox" : "") + (route_box && !route_range.empty() ? " or" : "") +
                                (route_range.empty() ? "" : " --datetime") + ")");
  }
  return std::move(opened.dataset);
}

}  // namespace taco::cli
