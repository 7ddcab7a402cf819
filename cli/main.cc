// The `taco` command line (DESIGN §4). One file per subcommand (cmd_*.cc); public API only.
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "cli_common.h"
#include "taco/version.h"
#include "taco/writer.h"

int main(int argc, char** argv) {
  using namespace taco::cli;
  // First, before any thread exists: Ctrl-C / SIGTERM remove the temporary outputs.
  taco::RemoveTemporaryOutputsOnSignals();
  Context ctx;
  CLI::App app{"taco: build, check, query and stream TACO datasets (AI-ready Earth Observation data).\n"
               "Every command takes a dataset path or URL: .tacozip/.zip, a FOLDER dataset, .tacocat."};
  app.name("taco");
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("taco ") + taco::kLibraryVersion);
  app.add_flag("-v,--verbose", ctx.global.verbose, "Say more about what is done");
  app.add_flag("--debug", ctx.global.debug, "Print debugging details");
  app.add_flag("-q,--quiet", ctx.global.quiet, "Print only results and errors");
  bool no_cache = false;
  app.add_flag("--no-cache", no_cache, "Do not use or fill the disk cache of remote ZIP metadata (also TACO_NO_CACHE=1)");
  app.fallthrough();
  // Applied before parsing so that it holds whatever the position of the flag.
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--no-cache") setenv("TACO_NO_CACHE", "1", 1);
  }

  for (CommandAdder add : RegisteredCommands()) add(app, ctx);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    std::cout << "taco " << taco::kLibraryVersion << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::cerr << "taco: " << e.what() << " (see 'taco --help')\n";
    return kExitBadInput;
  } catch (const std::exception& e) {  // the library never throws; this is the last safety net
    std::cerr << "taco: internal error: " << e.what() << "\n";
    return kExitBadInput;
  }
  return ctx.exit_code;
}
