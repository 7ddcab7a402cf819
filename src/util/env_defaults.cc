#include "util/env_defaults.h"

#include <charconv>
#include <cstdlib>
#include <string_view>
#include <system_error>

#include "util/memory_budget.h"

namespace taco::util {
namespace {

// The value of `name`; "" when unset.
std::string_view Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string_view(v) : std::string_view();
}

// A whole decimal number (digits only) in [min, max]; nullopt otherwise.
std::optional<uint64_t> EnvDecimal(const char* name, uint64_t min, uint64_t max) {
  const std::string_view text = Env(name);
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < min || v > max) return std::nullopt;
  return v;
}

}  // namespace

std::string EnvBasePath() { return std::string(Env("TACO_BASE_PATH")); }

bool EnvUseCache() {
  const std::string_view v = Env("TACO_NO_CACHE");
  return v.empty() || v == "0";
}

std::string EnvCacheDir() {
  if (const std::string_view dir = Env("TACO_CACHE_DIR"); !dir.empty()) return std::string(dir);
  if (const std::string_view xdg = Env("XDG_CACHE_HOME"); !xdg.empty()) return std::string(xdg) + "/taco-cpp";
  const std::string_view home = Env("HOME");
  return (home.empty() ? std::string("/tmp") : std::string(home)) + "/.cache/taco-cpp";
}

std::optional<uint64_t> EnvMemoryLimit() {
  const std::string_view text = Env("TACO_MEMORY_LIMIT");
  if (text.empty()) return std::nullopt;
  return ParseMemorySize(text);
}

std::optional<size_t> EnvExtensionThreads() {
  auto v = EnvDecimal("TACO_EXT_THREADS", 1, 256);
  return v ? std::optional<size_t>(static_cast<size_t>(*v)) : std::nullopt;
}

std::optional<size_t> EnvCopyThreads() {
  auto v = EnvDecimal("TACO_COPY_THREADS", 1, 64);
  return v ? std::optional<size_t>(static_cast<size_t>(*v)) : std::nullopt;
}

std::optional<uint64_t> EnvCopyRunBytes() { return EnvDecimal("TACO_COPY_RUN_BYTES", 0, UINT64_MAX); }

std::optional<size_t> EnvVsitacoMaxPaths() {
  auto v = EnvDecimal("TACO_VSITACO_MAX_PATHS", 1, SIZE_MAX);
  return v ? std::optional<size_t>(static_cast<size_t>(*v)) : std::nullopt;
}

}  // namespace taco::util
