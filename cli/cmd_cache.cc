// `taco cache info|clear`: the disk cache of remote ZIP metadata (taco/io.h).
#include <iostream>

#include "cli_common.h"
#include "taco/io.h"

namespace taco::cli {
namespace {

struct CacheArgs {
  bool json = false;
};

int RunInfo(const CacheArgs& args, const Context& ctx) {
  const bool enabled = DatasetOpenOptions(ctx.global).use_cache;
  auto info = GetRemoteCacheInfo();
  if (!info.ok()) return ReportError(info.status());
  if (args.json) {
    nlohmann::ordered_json j;
    j["dir"] = info->dir;
    j["entries"] = info->entries;
    j["bytes"] = info->bytes;
    j["enabled"] = enabled;
    PrintJson(j);
    return kExitOk;
  }
  std::cout << "cache directory: " << info->dir << "\n"
            << "entries: " << info->entries << "\n"
            << "bytes: " << info->bytes << "\n"
            << "enabled: " << (enabled ? "yes" : "no (TACO_NO_CACHE / --no-cache)") << "\n";
  return kExitOk;
}

int RunClear(const Context& ctx) {
  auto removed = ClearRemoteCache();
  if (!removed.ok()) return ReportError(removed.status());
  Note(ctx, "removed " + std::to_string(*removed) + " cache entries from " + RemoteCacheDir());
  return kExitOk;
}

void AddCacheCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CacheArgs>();
  CLI::App* cmd = app.add_subcommand("cache", "Inspect or clear the disk cache of remote ZIP metadata");
  cmd->require_subcommand(1);
  CLI::App* info = cmd->add_subcommand("info", "Where the cache is, how many entries and bytes it holds");
  info->add_flag("--json", args->json, "Print JSON");
  info->callback([args, &ctx] { ctx.exit_code = RunInfo(*args, ctx); });
  CLI::App* clear = cmd->add_subcommand("clear", "Remove every cache entry");
  clear->callback([&ctx] { ctx.exit_code = RunClear(ctx); });
}

const CommandRegistration kRegistered(150, &AddCacheCommand);

}  // namespace
}  // namespace taco::cli
