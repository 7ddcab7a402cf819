// `taco filter PATH [--sql QUERY] [--bbox minx,miny,maxx,maxy] [--datetime A/B|A]
//  [--level N] [--geometry-col C] [--time-col C] [--format ...] [--json]`: the surviving
// level-0 rows (internal columns hidden except internal:gdal_vsi). Applied in this order:
// --sql (over `data`/`data_raw`), then --bbox, then --datetime; --level applies to the
// spatial and temporal filters (level > 0 cascades to level 0, FORMAT §6.7).
#include <cstdlib>
#include <iostream>
#include <optional>

#include "cli_common.h"
#include "table_output.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct FilterArgs {
  std::string path;
  std::string sql;
  std::string bbox;
  std::string datetime;
  std::string geometry_col = "auto";
  std::string time_col = "auto";
  int level = 0;
  FormatOptions format;
};

Result<std::vector<double>> ParseBbox(const std::string& text) {
  std::vector<double> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    double v = std::strtod(part.c_str(), &end);
    if (part.empty() || end == part.c_str() || *end != '\0') {
      return Status::InvalidArgument("--bbox '" + text + "': expected minx,miny,maxx,maxy (4 numbers)");
    }
    out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.size() != 4) return Status::InvalidArgument("--bbox '" + text + "': expected minx,miny,maxx,maxy (4 numbers)");
  return out;
}

int RunFilter(const FilterArgs& args) {
  auto format = args.format.Resolve();
  if (!format.ok()) return ReportError(format.status());
  std::optional<std::vector<double>> bbox;
  if (!args.bbox.empty()) {
    auto parsed = ParseBbox(args.bbox);
    if (!parsed.ok()) return ReportError(parsed.status());
    bbox = *parsed;
  }
  auto opened = Dataset::Open(args.path);
  if (!opened.ok()) return ReportError(opened.status());
  std::unique_ptr<Dataset> ds = std::move(*opened);
  auto step = [&ds](Result<std::unique_ptr<Dataset>> next) -> Status {
    if (!next.ok()) return next.status();
    ds = std::move(*next);
    return Status::OK();
  };
  Status st;
  if (!args.sql.empty()) st = step(ds->Sql(args.sql));
  if (st.ok() && bbox) st = step(ds->FilterBbox((*bbox)[0], (*bbox)[1], (*bbox)[2], (*bbox)[3], args.geometry_col, args.level));
  if (st.ok() && !args.datetime.empty()) st = step(ds->FilterDatetime(args.datetime, args.time_col, args.level));
  if (!st.ok()) return ReportError(st);
  auto rows = ds->Data();
  if (!rows.ok()) return ReportError(rows.status());
  PrintTable(*rows, *format, std::cout);
  return kExitOk;
}

void AddFilterCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<FilterArgs>();
  CLI::App* cmd = app.add_subcommand("filter", "Level-0 samples matching --sql, --bbox and --datetime (chained)");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  cmd->add_option("--sql", args->sql, "SQL over data/data_raw, applied first");
  cmd->add_option("--bbox", args->bbox, "minx,miny,maxx,maxy: geometry meets the box (closed)");
  cmd->add_option("--datetime", args->datetime, "A/B or A (ISO-8601, UTC calendar dates, inclusive)");
  cmd->add_option("--level", args->level, "Level the bbox/datetime filters test (cascades to level 0)");
  cmd->add_option("--geometry-col", args->geometry_col, "Geometry column (default: auto)");
  cmd->add_option("--time-col", args->time_col, "Time column (default: auto)");
  AddFormatOptions(cmd, &args->format);
  cmd->callback([args, &ctx] { ctx.exit_code = RunFilter(*args); });
}

const CommandRegistration kRegistered(80, &AddFilterCommand);

}  // namespace
}  // namespace taco::cli
