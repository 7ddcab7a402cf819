#include "usage.h"

#include <algorithm>
#include <iostream>
#include <string_view>

#include "cli_common.h"

namespace taco::cli {
namespace {

// Flags of `taco` itself that may come before the command word.
bool IsGlobalFlag(std::string_view arg) {
  for (std::string_view f : {"-v", "--verbose", "--debug", "-q", "--quiet", "--no-cache", "--allow-external-rasters"}) {
    if (arg == f) return true;
  }
  return false;
}

std::vector<std::string> CommandNames(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

}  // namespace

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> NearestName(const std::string& typed, const std::vector<std::string>& names) {
  std::optional<std::string> best;
  size_t best_distance = 0;
  const size_t limit = std::min<size_t>(2, (typed.size() + 1) / 2);
  for (const std::string& name : names) {
    const size_t d = EditDistance(typed, name);
    if (d <= limit && (!best || d < best_distance)) {
      best = name;
      best_distance = d;
    }
  }
  if (best) return best;
  std::optional<std::string> prefixed;
  for (const std::string& name : names) {
    if (!typed.empty() && name.compare(0, typed.size(), typed) == 0) {
      if (prefixed) return std::nullopt;  // ambiguous
      prefixed = name;
    }
  }
  return prefixed;
}

std::optional<int> HandleCommandWord(CLI::App& app, int argc, char** argv) {
  int at = 1;
  while (at < argc && IsGlobalFlag(argv[at])) ++at;
  if (at < argc && argv[at][0] == '-') return std::nullopt;  // --help, --version, a bad flag: CLI11's job
  if (at == argc) {
    std::cout << app.help();
    return kExitBadInput;
  }
  const std::vector<std::string> names = CommandNames(app);
  std::string word = argv[at];
  if (word == "help") {
    if (at + 1 == argc) {
      std::cout << app.help();
      return kExitOk;
    }
    word = argv[at + 1];
    if (std::find(names.begin(), names.end(), word) != names.end()) {
      std::cout << app.get_subcommand(word)->help("taco");
      return kExitOk;
    }
  } else if (std::find(names.begin(), names.end(), word) != names.end()) {
    return std::nullopt;
  }
  std::string line = "taco: unknown command '" + word + "'";
  if (auto near = NearestName(word, names)) line += " (did you mean '" + *near + "'?)";
  std::cerr << line << "\n\n" << app.help();
  return kExitBadInput;
}

std::string UsageErrorLine(const CLI::App& app, const std::string& what) {
  std::vector<CLI::App*> used = const_cast<CLI::App&>(app).get_subcommands();
  if (!used.empty()) {
    const std::string name = used.front()->get_name();
    return "taco: " + name + ": " + what + " (see 'taco " + name + " --help')";
  }
  return "taco: " + what + " (see 'taco --help')";
}

}  // namespace taco::cli
