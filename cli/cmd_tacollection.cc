// `taco tacollection INPUT... -o FILE [--no-validate]`: the TACOLLECTION.json of TACO ZIPs
// (FORMAT §5.3): summed pit counts, merged extents, taco:sources. Prints the path written.
#include <iostream>

#include "cli_common.h"
#include "taco/tacocat.h"

namespace taco::cli {
namespace {

struct TacollectionArgs {
  std::vector<std::string> inputs;
  std::string output;
  bool no_validate = false;
};

int RunTacollection(const TacollectionArgs& args, const Context& ctx) {
  TacollectionOptions options;
  options.validate_pit = !args.no_validate;
  options.validate_fields = !args.no_validate;
  Status st = CreateTacollection(args.inputs, args.output, options);
  if (!st.ok()) return ReportError(st.WithPrefix("tacollection"));
  if (!ctx.global.quiet) std::cout << args.output << "\n";
  return kExitOk;
}

void AddTacollectionCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<TacollectionArgs>();
  CLI::App* cmd = app.add_subcommand(
      "tacollection",
      "Write the TACOLLECTION.json of TACO ZIPs: the first collection with summed pit counts, merged "
      "spatial/temporal extents and taco:sources. Prints the path written.");
  cmd->add_option("inputs", args->inputs, "Input TACO ZIP files (.tacozip/.zip)")->required();
  cmd->add_option("-o,--output", args->output, "Output JSON file (must not exist)")->required();
  cmd->add_flag("--no-validate", args->no_validate, "Do not require identical pit and field schemas across inputs");
  cmd->callback([args, &ctx] { ctx.exit_code = RunTacollection(*args, ctx); });
}

const CommandRegistration kRegistered(130, &AddTacollectionCommand);

}  // namespace
}  // namespace taco::cli
