// What `taco` says when it is not given a command it knows: bare `taco`, `taco help
// [COMMAND]`, a misspelt command (`taco lss` → did you mean 'ls'?), and the pointer to
// `taco <command> --help` after a usage error inside a command.
#ifndef TACO_CLI_USAGE_H_
#define TACO_CLI_USAGE_H_

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace taco::cli {

// Edit distance with adjacent transpositions (optimal string alignment).
size_t EditDistance(const std::string& a, const std::string& b);

// The known name closest to `typed` (distance <= 2, and less than half of `typed`'s length
// rounded up, or `typed` a prefix of exactly one name); nullopt when none is close.
std::optional<std::string> NearestName(const std::string& typed, const std::vector<std::string>& names);

// Handles the command word before CLI11 sees it. Returns an exit code when `taco` is done
// (bare `taco`, `taco help ...`, an unknown command), nullopt to parse normally.
std::optional<int> HandleCommandWord(CLI::App& app, int argc, char** argv);

// "taco: <cmd>: <what> (see 'taco <cmd> --help')" for a parse error inside a command, or
// "taco: <what> (see 'taco --help')" outside one.
std::string UsageErrorLine(const CLI::App& app, const std::string& what);

}  // namespace taco::cli

#endif  // TACO_CLI_USAGE_H_
