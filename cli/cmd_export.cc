// `taco export PATH... OUT [--sql Q] [--bbox minx,miny,maxx,maxy] [--datetime A/B] [--level N]
//  [--geometry-col C] [--time-col C] [--format auto|zip|folder]`: writes the selected level-0
// samples, each with its whole subtree, as a new dataset with taco:subset_of and
// taco:subset_date. Filters chain as in `taco filter` (--sql, then --bbox, then --datetime).
// Prints the path written.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include "cli_common.h"
#include "progress.h"
#include "selection.h"
#include "taco/convert.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct ExportArgs {
  std::vector<std::string> words;  // PATH... OUT
  Selection selection;
  std::string format = "auto";
};

int RunExport(const ExportArgs& args, const Context& ctx) {
  auto box = ParseBbox(args.selection.bbox);
  if (!box.ok()) return ReportError(box.status().WithPrefix("export"));
  const std::vector<std::string> paths(args.words.begin(), args.words.end() - 1);
  const std::string& out = args.words.back();
  auto opened = OpenSelected(paths, args.selection, *box, SqlOpenOptions(ctx.global));
  if (!opened.ok()) return ReportError(opened.status().WithPrefix("export"));
  const std::unique_ptr<Dataset> source = std::move(*opened);
  auto view = ApplySelection(*source, args.selection, *box);
  if (!view.ok()) return ReportError(view.status().WithPrefix("export"));
  const Dataset* current = *view ? view->get() : source.get();

  ExportOptions options;
  options.format = args.format == "zip"      ? OutputFormat::kZip
                   : args.format == "folder" ? OutputFormat::kFolder
                                             : OutputFormat::kAuto;
  options.source = source.get();
  options.open = SqlOpenOptions(ctx.global);
  Result<std::vector<std::string>> written = Status::Internal("not written");
  {
    ProgressBar bar("exporting", ProgressBar::Unit::kBytes, ProgressEnabled(ctx));
    options.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
    written = Export(*current, out, options);
  }
  if (!written.ok()) return ReportError(written.status().WithPrefix("export"));
  if (!ctx.global.quiet) {
    for (const std::string& path : *written) std::cout << path << "\n";
  }
  return kExitOk;
}

void AddExportCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Write the level-0 samples selected by --sql/--bbox/--datetime (whole subtrees) as a new dataset");
  cmd->add_option("path", args->words,
                  "Dataset path or URL, then OUT (.tacozip/.zip → ZIP, else FOLDER; must not exist). Several "
                  "paths are exported as one dataset (concat)")
      ->required()
      ->type_name("PATH... OUT")
      ->expected(2, -1);
  AddSelectionOptions(cmd, &args->selection);
  cmd->add_option("--format", args->format, "zip, folder, or auto (from OUT's extension)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "zip", "folder"}));
  cmd->callback([args, &ctx] { ctx.exit_code = RunExport(*args, ctx); });
}

const CommandRegistration kRegistered(110, &AddExportCommand);

}  // namespace
}  // namespace taco::cli
