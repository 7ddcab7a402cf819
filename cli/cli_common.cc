#include "cli_common.h"

#include <iostream>

namespace taco::cli {

int ReportError(const Status& status) {
  std::cerr << "taco: " << status.message() << "\n";
  return kExitBadInput;
}

void PrintJson(const nlohmann::ordered_json& j) { std::cout << j.dump(2) << "\n"; }

void Note(const Context& ctx, const std::string& line) {
  if (!ctx.global.quiet) std::cerr << line << "\n";
}

}  // namespace taco::cli
