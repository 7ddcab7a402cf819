// Shared pieces of the `taco` command line: global options, error reporting, output.
//
// Exit codes (DESIGN §4): 0 success, 1 a check failed (validate), 2 bad usage or input.
// Errors go to stderr as one line "taco: <what failed>: <why>".
#ifndef TACO_CLI_CLI_COMMON_H_
#define TACO_CLI_CLI_COMMON_H_

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "taco/dataset.h"
#include "taco/status.h"

namespace taco::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;

struct GlobalOptions {
  bool verbose = false;                 // -v / --verbose
  bool debug = false;                   // --debug
  bool quiet = false;                   // -q / --quiet
  bool allow_external_rasters = false;  // --allow-external-rasters (OpenOptions field of the same name)
  // --allow-external-sql: SQL may read local files besides the dataset
  // (OpenOptions::allow_external_sql; selection.h SqlOpenOptions).
  bool allow_external_sql = false;
  std::string base_path;  // --base-path (OpenOptions::base_path)
  bool no_cache = false;  // --no-cache (OpenOptions::use_cache = false)
};

// The OpenOptions every command opens datasets with: --base-path and --no-cache over the
// library's defaults (which follow TACO_BASE_PATH and TACO_NO_CACHE).
OpenOptions DatasetOpenOptions(const GlobalOptions& global);

// The running command: its exit code is set by the subcommand callback.
struct Context {
  GlobalOptions global;
  int exit_code = kExitOk;
};

// Prints "taco: <message>" to stderr and returns kExitBadInput.
int ReportError(const Status& status);
// Prints `j` pretty (indent 2) to stdout followed by a newline.
void PrintJson(const nlohmann::ordered_json& j);
// Progress/diagnostic line on stderr unless --quiet.
void Note(const Context& ctx, const std::string& line);

// `taco info PATH [--json]` (cmd_info.cc); also used by `taco demo`.
int PrintInfo(const std::string& path, bool json, const OpenOptions& options = {});

// Each subcommand file (cmd_<name>.cc) registers itself with a static
//   static const CommandRegistration kRegistered(<order>, &Add<Name>Command);
// main() adds the commands to the app in `order` (the order of `taco --help`).
using CommandAdder = void (*)(CLI::App& app, Context& ctx);
struct CommandRegistration {
  CommandRegistration(int order, CommandAdder adder);
};
// The registered adders, sorted by order.
std::vector<CommandAdder> RegisteredCommands();

}  // namespace taco::cli

#endif  // TACO_CLI_CLI_COMMON_H_
