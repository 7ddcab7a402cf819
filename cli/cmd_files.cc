// `taco files PATH [--sql Q] [--bbox ...] [--datetime ...] [--level N] [--format ...] [--json]`:
// one row per FILE sample below the selected level-0 samples (Dataset::Files): `path` (ids
// from level 0 down joined by '/'), `level`, the FILE's id and columns, `internal:gdal_vsi`
// (its GDAL path) and its ancestors' rows as `level0`, `level1`, ... Selection as in
// `taco filter` (--sql over data/data_raw first, then --bbox, then --datetime).
#include <iostream>

#include "cli_common.h"
#include "selection.h"
#include "table_output.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct FilesArgs {
  std::string path;
  Selection selection;
  std::string files_sql;
  FormatOptions format;
};

int RunFiles(const FilesArgs& args, const Context& ctx) {
  auto format = args.format.Resolve();
  if (!format.ok()) return ReportError(format.status());
  auto box = ParseBbox(args.selection.bbox);
  if (!box.ok()) return ReportError(box.status());
  auto opened = Dataset::Open(args.path, SqlOpenOptions(ctx.global));
  if (!opened.ok()) return ReportError(opened.status());
  auto view = ApplySelection(**opened, args.selection, *box);
  if (!view.ok()) return ReportError(view.status());
  auto files = (*view ? **view : **opened).Files();
  if (!files.ok()) return ReportError(files.status());
  std::unique_ptr<Dataset> selected;
  if (!args.files_sql.empty()) {
    auto q = (*files)->Sql(args.files_sql);
    if (!q.ok()) return ReportError(q.status());
    selected = std::move(*q);
  }
  auto rows = (selected ? *selected : **files).Data();
  if (!rows.ok()) return ReportError(rows.status());
  PrintTable(*rows, *format, std::cout);
  return kExitOk;
}

void AddFilesCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<FilesArgs>();
  CLI::App* cmd = app.add_subcommand(
      "files",
      "One row per FILE sample of the selected samples, whatever its depth: path (ids from level 0 down, "
      "joined by '/'), level, the FILE's id and columns, internal:gdal_vsi (its GDAL path), and its parent "
      "rows' columns as structs level0, level1, ... (e.g. level0.split). Correct for ZIP, FOLDER, TACOCAT and "
      "concatenations. Also `files` in `taco sql`.");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  AddSelectionOptions(cmd, &args->selection);
  cmd->add_option("--files-sql", args->files_sql,
                  "SQL over the file rows (as `data`), e.g. \"SELECT path, \\\"internal:gdal_vsi\\\" FROM data "
                  "WHERE id IN ('image.tif', 'mask.tif')\"");
  AddFormatOptions(cmd, &args->format);
  cmd->callback([args, &ctx] { ctx.exit_code = RunFiles(*args, ctx); });
}

const CommandRegistration kRegistered(55, &AddFilesCommand);

}  // namespace
}  // namespace taco::cli
