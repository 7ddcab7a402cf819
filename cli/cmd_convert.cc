// `taco convert IN OUT [--format auto|zip|folder]`: a ZIP becomes a FOLDER and a FOLDER a ZIP
// (auto); every sample's bytes, the extension columns and the collection are kept. OUT must
// not exist. Prints the path written.
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "progress.h"
#include "taco/convert.h"

namespace taco::cli {
namespace {

struct ConvertArgs {
  std::string in;
  std::string out;
  std::string format = "auto";
};

int RunConvert(const ConvertArgs& args, const Context& ctx) {
  ConvertOptions options;
  options.format = args.format == "zip"      ? OutputFormat::kZip
                   : args.format == "folder" ? OutputFormat::kFolder
                                             : OutputFormat::kAuto;
  Result<std::vector<std::string>> written = Status::Internal("not written");
  {
    ProgressBar bar("converting", ProgressBar::Unit::kBytes, ProgressEnabled(ctx));
    options.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
    written = Convert(args.in, args.out, options);
  }
  if (!written.ok()) return ReportError(written.status().WithPrefix("convert"));
  if (!ctx.global.quiet) {
    for (const std::string& path : *written) std::cout << path << "\n";
  }
  return kExitOk;
}

void AddConvertCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* cmd = app.add_subcommand("convert", "Convert a dataset between ZIP and FOLDER (bytes and metadata kept)");
  cmd->add_option("in", args->in, "Input dataset (ZIP, FOLDER or URL)")->required();
  cmd->add_option("out", args->out, "Output path; must not exist")->required();
  cmd->add_option("--format", args->format, "zip, folder, or auto (the other container of the input)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "zip", "folder"}));
  cmd->callback([args, &ctx] { ctx.exit_code = RunConvert(*args, ctx); });
}

const CommandRegistration kRegistered(140, &AddConvertCommand);

}  // namespace
}  // namespace taco::cli
