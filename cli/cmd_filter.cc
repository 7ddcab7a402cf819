// `taco filter PATH... [--sql QUERY] [--bbox minx,miny,maxx,maxy] [--datetime A/B|A]
//  [--level N] [--geometry-col C] [--time-col C] [--format ...] [--json]`: the surviving
// level-0 rows (internal columns hidden except internal:gdal_vsi). Applied in this order:
// --sql (over `data`/`data_raw`), then --bbox, then --datetime; --level applies to the
// spatial and temporal filters (level > 0 cascades to level 0, FORMAT §6.7).
#include <cstdlib>
#include <iostream>
#include <optional>
#include <vector>

#include "cli_common.h"
#include "selection.h"
#include "table_output.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct FilterArgs {
  std::vector<std::string> paths;
  Selection selection;
  FormatOptions format;
};

int RunFilter(const FilterArgs& args, const Context& ctx) {
  auto format = args.format.Resolve();
  if (!format.ok()) return ReportError(format.status());
  auto box = ParseBbox(args.selection.bbox);
  if (!box.ok()) return ReportError(box.status());
  auto opened = OpenSelected(args.paths, args.selection, *box, SqlOpenOptions(ctx.global));
  if (!opened.ok()) return ReportError(opened.status());
  auto view = ApplySelection(**opened, args.selection, *box);
  if (!view.ok()) return ReportError(view.status());
  FormatOptions options = args.format;
  auto rows = FetchRows(*view ? **view : **opened, /*raw=*/false, &options);
  if (!rows.ok()) return ReportError(rows.status());
  if (Status st = PrintTable(*rows, options, std::cout); !st.ok()) return ReportError(st);
  return kExitOk;
}

void AddFilterCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<FilterArgs>();
  CLI::App* cmd = app.add_subcommand("filter", "Level-0 samples matching --sql, --bbox and --datetime (chained)");
  cmd->add_option("path", args->paths,
                  "Dataset path or URL; several are filtered as one dataset (concat). A TACOLLECTION.json opens its "
                  "parts as one, only those whose extents meet --bbox/--datetime (-v tells how many were skipped)")
      ->required();
  AddSelectionOptions(cmd, &args->selection);
  AddFormatOptions(cmd, &args->format);
  cmd->callback([args, &ctx] { ctx.exit_code = RunFilter(*args, ctx); });
}

const CommandRegistration kRegistered(80, &AddFilterCommand);

}  // namespace
}  // namespace taco::cli
