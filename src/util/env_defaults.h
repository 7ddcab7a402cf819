// The environment variables the library reads, all of them, and only here: each is the
// documented default of an option of the public API (docs/cli.md "Environment variables"),
// which a caller overrides by setting the option. No other file of src/ calls getenv.
//
// Contract: every function reads its variable at each call (cheap; no caching, so that a
// test or an embedding program may change the environment between calls), never fails, and
// ignores a value it cannot parse (the built-in default applies). Thread-safe as long as no
// other thread calls setenv/putenv at the same time (the C library's rule for getenv).
//
// | variable                    | default of                                       | built-in default               |
// |-----------------------------|--------------------------------------------------|--------------------------------|
// | TACO_BASE_PATH              | OpenOptions::base_path (TACOCAT)                 | the index's own directory      |
// | TACO_NO_CACHE               | OpenOptions::use_cache (RemoteCacheEnabled())     | cache on                       |
// | TACO_CACHE_DIR              | RemoteCacheDir()                                 | $XDG_CACHE_HOME/taco-cpp, else |
// |                             |                                                  | $HOME/.cache/taco-cpp          |
// | TACO_MEMORY_LIMIT           | the memory budget (util/memory_budget.h)         | from RAM, cgroup and rlimits   |
// | TACO_EXT_THREADS            | DirectoryOptions::extension_threads              | hardware concurrency           |
// | TACO_COPY_THREADS           | CreateOptions::copy_threads (runs read ahead)    | 4                              |
// | TACO_COPY_RUN_BYTES         | CreateOptions::copy_run_bytes                    | 8 MiB                          |
// | TACO_VSITACO_MAX_PATHS      | paths registered by InProcessGdalPath at once    | 65536                          |
// TACO_ALLOW_EXTERNAL_RASTERS is a GDAL configuration option (CPLGetConfigOption, which also
// reads the environment; gdal/sample_raster.h), not read here.
#ifndef TACO_UTIL_ENV_DEFAULTS_H_
#define TACO_UTIL_ENV_DEFAULTS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace taco::util {

// TACO_BASE_PATH; "" when unset.
std::string EnvBasePath();
// False when TACO_NO_CACHE is set to a non-empty value other than "0"; else true.
bool EnvUseCache();
// TACO_CACHE_DIR when non-empty, else $XDG_CACHE_HOME/taco-cpp, else $HOME/.cache/taco-cpp
// (/tmp/.cache/taco-cpp without HOME).
std::string EnvCacheDir();
// TACO_MEMORY_LIMIT as a size (util/memory_budget.h ParseMemorySize); nullopt when unset,
// empty or unparsable.
std::optional<uint64_t> EnvMemoryLimit();
// TACO_EXT_THREADS when a decimal in 1..256; nullopt otherwise.
std::optional<size_t> EnvExtensionThreads();
// TACO_COPY_THREADS when a decimal in 1..64; nullopt otherwise.
std::optional<size_t> EnvCopyThreads();
// TACO_COPY_RUN_BYTES when a decimal (0 allowed: one read per range); nullopt otherwise.
std::optional<uint64_t> EnvCopyRunBytes();
// TACO_VSITACO_MAX_PATHS when a decimal > 0; nullopt otherwise.
std::optional<size_t> EnvVsitacoMaxPaths();

}  // namespace taco::util

#endif  // TACO_UTIL_ENV_DEFAULTS_H_
