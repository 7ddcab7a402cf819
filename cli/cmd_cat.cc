// `taco cat PATH KEY...`: the bytes of the FILE sample reached by the keys, on stdout.
#include <cstdio>

#include "cli_common.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct CatArgs {
  std::string path;
  std::vector<std::string> keys;
};

int RunCat(const CatArgs& args) {
  auto ds = Dataset::Open(args.path);
  if (!ds.ok()) return ReportError(ds.status());
  auto node = (*ds)->ReadPath(ParseSampleKeys(args.keys));
  if (!node.ok()) return ReportError(node.status());
  auto bytes = (*ds)->ReadBytes(*node);
  if (!bytes.ok()) return ReportError(bytes.status());
  if (std::fwrite(bytes->data(), 1, bytes->size(), stdout) != bytes->size() || std::fflush(stdout) != 0) {
    return ReportError(Status::IOError("stdout: write failed"));
  }
  return kExitOk;
}

void AddCatCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CatArgs>();
  CLI::App* cmd = app.add_subcommand("cat", "Write the bytes of a FILE sample to stdout");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  cmd->add_option("keys", args->keys, "Keys to follow, level by level: a sample id, or @N for the sample at position N (0-based); a bare number N is the id N when there is one, else position N when no id at that level is a number")->required();
  cmd->callback([args, &ctx] { ctx.exit_code = RunCat(*args); });
}

const CommandRegistration kRegistered(60, &AddCatCommand);

}  // namespace
}  // namespace taco::cli
