// `taco convert IN OUT [--format auto|zip|folder]`: a ZIP becomes a FOLDER and a FOLDER a ZIP
// (auto); every sample's bytes, the extension columns and the collection are kept. OUT must
// not exist. Prints the path written.
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "progress.h"
#include "taco/convert.h"
#include "taco/legacy.h"
#include "taco/writer.h"

namespace taco::cli {
namespace {

struct ConvertArgs {
  std::string in;
  std::string out;
  std::string format = "auto";
  std::string part_size;
  std::string split_size;
};

// Legacy inputs or outputs (Tortilla 0.5 / TACO v1, taco/legacy.h): LEGACY.md §13 mapping;
// what was invented or dropped goes to stderr as "note: ..." lines (kept in the output's
// collection too).
int RunLegacyConvert(const ConvertArgs& args, const Context& ctx) {
  LegacyConvertOptions options;
  options.open = DatasetOpenOptions(ctx.global);
  options.target = args.format == "zip"        ? ConvertTarget::kZip
                   : args.format == "folder"   ? ConvertTarget::kFolder
                   : args.format == "tortilla" ? ConvertTarget::kTortilla
                   : args.format == "taco-v1"  ? ConvertTarget::kTacoV1
                                               : ConvertTarget::kAuto;
  if (!args.part_size.empty()) {
    auto size = ParseSize(args.part_size);
    if (!size.ok()) return ReportError(size.status().WithPrefix("--part-size"));
    options.part_size = *size;
  }
  if (!args.split_size.empty()) {
    auto size = ParseSize(args.split_size);
    if (!size.ok()) return ReportError(size.status().WithPrefix("--split-size"));
    options.split_size = *size;
  }
  std::vector<std::string> notes;
  Result<std::vector<std::string>> written = Status::Internal("not written");
  {
    ProgressBar bar("converting", ProgressBar::Unit::kBytes, ProgressEnabled(ctx));
    options.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
    written = ConvertLegacy(args.in, args.out, options, &notes);
  }
  if (!written.ok()) return ReportError(written.status().WithPrefix("convert"));
  if (!ctx.global.quiet) {
    for (const std::string& note : notes) std::cerr << "note: " << note << "\n";
    for (const std::string& path : *written) std::cout << path << "\n";
  }
  return kExitOk;
}

int RunConvert(const ConvertArgs& args, const Context& ctx) {
  if (args.format == "tortilla" || args.format == "taco-v1" || !args.part_size.empty() || IsLegacyPath(args.in) ||
      IsLegacyPath(args.out)) {
    return RunLegacyConvert(args, ctx);
  }
  if (!args.split_size.empty()) {
    return ReportError(Status::InvalidArgument("convert: --split-size applies to legacy inputs (ZIP output in parts)"));
  }
  ConvertOptions options;
  options.open = DatasetOpenOptions(ctx.global);
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
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "Convert a dataset between ZIP, FOLDER and the legacy Tortilla / TACO v1 files (bytes and metadata kept)");
  cmd->add_option("in", args->in, "Input dataset (ZIP, FOLDER or URL)")->required();
  cmd->add_option("out", args->out, "Output path; must not exist")->required();
  cmd->add_option("--format", args->format,
                  "zip, folder, tortilla, taco-v1, or auto (the other container of the input; for legacy inputs "
                  "or outputs: from OUT's extension, .tortilla/.taco/.tacozip/.zip, else folder)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "zip", "folder", "tortilla", "taco-v1"}));
  cmd->add_option("--part-size", args->part_size,
                  "Tortilla/TACO v1 output: parts of at most SIZE data bytes, named NAME.NNNN.part.EXT (from 0000)");
  cmd->add_option("--split-size", args->split_size,
                  "Legacy input to ZIP: ZIPs of at most SIZE data bytes plus .tacocat/ (default: one ZIP)");
  cmd->callback([args, &ctx] { ctx.exit_code = RunConvert(*args, ctx); });
}

const CommandRegistration kRegistered(140, &AddConvertCommand);

}  // namespace
}  // namespace taco::cli
