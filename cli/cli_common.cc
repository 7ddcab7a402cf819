#include "cli_common.h"

#include <algorithm>
#include <iostream>
#include <utility>

namespace taco::cli {

namespace {
std::vector<std::pair<int, CommandAdder>>& Registry() {
  static std::vector<std::pair<int, CommandAdder>> registry;
  return registry;
}
}  // namespace

CommandRegistration::CommandRegistration(int order, CommandAdder adder) { Registry().emplace_back(order, adder); }

std::vector<CommandAdder> RegisteredCommands() {
  auto entries = Registry();
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<CommandAdder> out;
  for (const auto& e : entries) out.push_back(e.second);
  return out;
}

int ReportError(const Status& status) {
  std::cerr << "taco: " << status.message() << "\n";
  return kExitBadInput;
}

void PrintJson(const nlohmann::ordered_json& j) {
  // Strings from the data (Parquet cells, COLLECTION.json) may hold bytes that are not UTF-8.
  std::cout << j.dump(2, ' ', /*ensure_ascii=*/false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

OpenOptions DatasetOpenOptions(const GlobalOptions& global) {
  OpenOptions options;
  options.base_path = global.base_path;
  if (global.no_cache) options.use_cache = false;
  return options;
}

void Note(const Context& ctx, const std::string& line) {
  if (!ctx.global.quiet) std::cerr << line << "\n";
}

}  // namespace taco::cli
