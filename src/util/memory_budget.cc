#include "util/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

#include "util/env_defaults.h"

namespace taco::util {
namespace {

constexpr std::string_view kOverBudget = "the result needs more than the memory budget of ";
constexpr std::string_view kDuckDbOutOfMemory = "Out of Memory Error";

uint64_t RlimitBytes(int resource) {
  struct rlimit limit {};
  if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
    return std::numeric_limits<uint64_t>::max();
  }
  return static_cast<uint64_t>(limit.rlim_cur);
}

uint64_t CgroupBytes() {
  std::ifstream in("/sys/fs/cgroup/memory.max");
  std::string text;
  if (!(in >> text) || text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) {
    return std::numeric_limits<uint64_t>::max();
  }
  return std::strtoull(text.c_str(), nullptr, 10);
}

// Half of the memory there is; a quarter of an address-space or data limit, which also counts
// what is reserved but never touched (thread stacks, allocator arenas, DuckDB's buffers).
uint64_t SystemBudget() {
  uint64_t memory = std::numeric_limits<uint64_t>::max();
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) memory = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  const uint64_t address_space = std::min(RlimitBytes(RLIMIT_AS), RlimitBytes(RLIMIT_DATA));
  return std::min(std::min(memory, CgroupBytes()) / 2, address_space / 4);
}

}  // namespace

std::optional<uint64_t> ParseMemorySize(std::string_view text) {
  size_t i = 0;
  uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string unit;
  for (; i < text.size(); ++i) unit += static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
  int shift = 0;
  if (!unit.empty() && unit != "B") {
    const std::string_view prefixes = "KMGT";
    const size_t p = prefixes.find(unit[0]);
    if (p == std::string_view::npos) return std::nullopt;
    const std::string rest = unit.substr(1);
    if (!rest.empty() && rest != "B" && rest != "IB") return std::nullopt;
    shift = 10 * static_cast<int>(p + 1);
  }
  if (shift > 0 && value > (std::numeric_limits<uint64_t>::max() >> shift)) return std::nullopt;
  return value << shift;
}

uint64_t MemoryBudget() {
  if (auto size = EnvMemoryLimit()) return *size;
  static const uint64_t system = SystemBudget();
  return system;
}

Status OverMemoryBudget(std::string_view what, uint64_t rows, uint64_t budget) {
  return Status::NotSupported(std::string(what) + ": " + std::string(kOverBudget) + std::to_string(budget >> 20) +
                              " MiB (" + std::to_string(rows) +
                              " rows read when it was reached; set TACO_MEMORY_LIMIT to change it, or ask for "
                              "fewer rows)");
}

bool IsOverMemoryBudget(const Status& status) {
  return status.code() == StatusCode::kNotSupported && (status.message().find(kOverBudget) != std::string::npos ||
                                                        status.message().find(kDuckDbOutOfMemory) != std::string::npos);
}

}  // namespace taco::util
