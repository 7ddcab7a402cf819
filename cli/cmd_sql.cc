// `taco sql PATH QUERY [--format table|csv|json] [--json]`: SQL over `data` (level 0 without
// internal columns except internal:gdal_vsi), `data_raw` (all columns) and `level0..levelN`;
// prints the result rows as they come from the query.
#include <iostream>

#include "cli_common.h"
#include "table_output.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct SqlArgs {
  std::string path;
  std::string query;
  FormatOptions format;
};

int RunSql(const SqlArgs& args) {
  auto format = args.format.Resolve();
  if (!format.ok()) return ReportError(format.status());
  auto ds = Dataset::Open(args.path);
  if (!ds.ok()) return ReportError(ds.status());
  auto view = (*ds)->Sql(args.query);
  if (!view.ok()) return ReportError(view.status());
  auto rows = (*view)->DataRaw();
  if (!rows.ok()) return ReportError(rows.status());
  PrintTable(*rows, *format, std::cout);
  return kExitOk;
}

void AddSqlCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<SqlArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sql", "Run SQL over a dataset: tables data, data_raw, files (one row per FILE sample: path, level, its "
             "columns, internal:gdal_vsi, level0.<column> of its parents, ...), level0..levelN");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  cmd->add_option("query", args->query, "SQL query, e.g. \"SELECT id FROM data\"")->required();
  AddFormatOptions(cmd, &args->format);
  cmd->callback([args, &ctx] { ctx.exit_code = RunSql(*args); });
}

const CommandRegistration kRegistered(70, &AddSqlCommand);

}  // namespace
}  // namespace taco::cli
