// `taco cat PATH KEY...`: the bytes of the FILE sample reached by the keys, on stdout,
// streamed in chunks (bounded memory for samples of any size) and CRC-checked (ZIP).
#include <cstdio>

#include "cli_common.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct CatArgs {
  std::string path;
  std::vector<std::string> keys;
  bool no_crc = false;
};

int RunCat(const CatArgs& args, const Context& ctx) {
  OpenOptions options = DatasetOpenOptions(ctx.global);
  options.verify_crc = !args.no_crc;
  auto ds = Dataset::Open(args.path, options);
  if (!ds.ok()) return ReportError(ds.status());
  auto node = (*ds)->ReadPath(ParseSampleKeys(args.keys));
  if (!node.ok()) return ReportError(node.status());
  Status st = (*ds)->StreamBytes(*node, [](std::string_view piece) {
    if (std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size()) {
      return Status::IOError("stdout: write failed");
    }
    return Status::OK();
  });
  if (st.ok() && std::fflush(stdout) != 0) st = Status::IOError("stdout: write failed");
  if (!st.ok()) return ReportError(st);
  return kExitOk;
}

void AddCatCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CatArgs>();
  CLI::App* cmd = app.add_subcommand(
      "cat",
      "Write the bytes of a FILE sample to stdout (streamed; for a ZIP, the member's CRC-32 is checked and a "
      "mismatch is reported after the bytes, exit 2)");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  cmd->add_option("keys", args->keys,
                  "Keys to follow, level by level: a sample id, or @N for the sample at position N (0-based); a bare "
                  "number N is the id N when there is one, else position N when no id at that level is a number")
      ->required();
  cmd->add_flag("--no-crc", args->no_crc, "Do not check the ZIP member's CRC-32 (saves one pass over the bytes)");
  cmd->callback([args, &ctx] { ctx.exit_code = RunCat(*args, ctx); });
}

const CommandRegistration kRegistered(60, &AddCatCommand);

}  // namespace
}  // namespace taco::cli
