// `taco tacocat INPUT... [-o DIR] [--single-file] [--align]`: consolidate TACO ZIPs into
// DIR/.tacocat/ (FORMAT §5.2) or DIR/__TACOCAT__ (FORMAT §5.1). DIR defaults to the inputs'
// common directory. Prints the path written. On a terminal, a "consolidating" bar counts the
// inputs read, then the levels written.
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.h"
#include "progress.h"
#include "taco/tacocat.h"

namespace taco::cli {
namespace {

struct TacocatArgs {
  std::vector<std::string> inputs;
  std::string output_dir;
  bool single_file = false;
  bool align = false;
};

int RunTacocat(const TacocatArgs& args, const Context& ctx) {
  TacocatOptions options;
  options.output_dir = args.output_dir;
  options.single_file = args.single_file;
  options.align_schemas = args.align;
  ProgressBar bar("consolidating", ProgressBar::Unit::kCount, ProgressEnabled(ctx));
  options.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
  // Warnings wait for the bar's line to end.
  std::vector<std::string> warnings;
  options.warn = [&warnings](const std::string& warning) { warnings.push_back(warning); };
  auto written = CreateTacocat(args.inputs, options);
  bar.Finish();
  for (const std::string& warning : warnings) std::cerr << "taco: warning: " << warning << "\n";
  if (!written.ok()) return ReportError(written.status().WithPrefix("tacocat"));
  if (!ctx.global.quiet) std::cout << *written << "\n";
  return kExitOk;
}

void AddTacocatCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<TacocatArgs>();
  CLI::App* cmd = app.add_subcommand(
      "tacocat",
      "Consolidate TACO ZIPs (e.g. the parts of `taco create --split-size`) into DIR/.tacocat/, or "
      "DIR/__TACOCAT__ with --single-file. Levels are concatenated in input order with "
      "internal:source_file (each input's path relative to DIR). Level-0 ids found in more than one input "
      "are reported (a reader refuses to resolve such an id: use @N). Prints the path written.");
  cmd->add_option("inputs", args->inputs, "Input TACO ZIP files (.tacozip/.zip)")->required();
  cmd->add_option("-o,--output", args->output_dir,
                  "Output directory (default: the inputs' common directory). It must contain the inputs (in it or "
                  "below it): the TACOCAT stores their paths relative to itself, so it can be moved together "
                  "with them; an index whose ZIPs moved is read with `taco --base-path DIR ...`");
  cmd->add_flag("--single-file", args->single_file, "Write the single-file __TACOCAT__ format");
  cmd->add_flag("--align", args->align,
                "Align differing level schemas by the union of their columns (missing values null) instead "
                "of requiring identical schemas");
  cmd->callback([args, &ctx] { ctx.exit_code = RunTacocat(*args, ctx); });
}

const CommandRegistration kRegistered(120, &AddTacocatCommand);

}  // namespace
}  // namespace taco::cli
