// `taco validate PATH [--json]`: every rule of include/taco/validate.h checked; exit 0 when
// valid, 1 when violations are found, 2 when the input cannot be read.
//
// Human output (stdout): one line per violation
//   <rule>  <where>: <found> (expected <expected>)
// then "<rule>  ... and N more" for rules over the listing limit, then one summary line
// "<path>: valid <format> dataset" or "<path>: N violations (<rule> x, ...)".
// --json: {"path", "format", "valid", "violations": [{rule, where, found, expected}],
// "omitted": {rule: count}, "notes": [what could not be checked]}.
#include <iostream>
#include <map>
#include <memory>

#include "cli_common.h"
#include "progress.h"
#include "taco/validate.h"

namespace taco::cli {
namespace {

struct ValidateArgs {
  std::string path;
  bool json = false;
  bool tiff_profile = false;
  bool fast = false;
};

int RunValidate(const ValidateArgs& args, const Context& ctx) {
  ValidateOptions options;
  options.open = DatasetOpenOptions(ctx.global);
  options.tiff_profile = args.tiff_profile;
  options.check_data = !args.fast;
  // On a terminal: the member-crc pass (every byte of a ZIP read once) as a bar.
  ProgressBar bar("checking", ProgressBar::Unit::kBytes, ProgressEnabled(ctx));
  options.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
  auto report = Validate(args.path, options);
  bar.Finish();
  if (!report.ok()) return ReportError(report.status());
  const ValidationReport& r = *report;
  if (args.json) {
    nlohmann::ordered_json j;
    j["path"] = r.path;
    j["format"] = r.format;
    j["valid"] = r.ok();
    j["violations"] = nlohmann::ordered_json::array();
    for (const Violation& v : r.violations) {
      j["violations"].push_back({{"rule", v.rule}, {"where", v.where}, {"found", v.found}, {"expected", v.expected}});
    }
    j["omitted"] = nlohmann::ordered_json::object();
    for (const auto& [rule, count] : r.omitted) j["omitted"][rule] = count;
    j["notes"] = r.notes;
    // Found values come from the data: never let a bad byte abort the output.
    std::cout << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  } else {
    for (const Violation& v : r.violations) {
      std::cout << v.rule << "  " << v.where << ": " << v.found;
      if (!v.expected.empty()) std::cout << " (expected " << v.expected << ")";
      std::cout << "\n";
    }
    for (const auto& [rule, count] : r.omitted) std::cout << rule << "  ... and " << count << " more\n";
    if (r.ok()) {
      std::cout << r.path << ": valid " << r.format << " dataset\n";
    } else {
      std::map<std::string, uint64_t> per_rule;
      for (const Violation& v : r.violations) ++per_rule[v.rule];
      for (const auto& [rule, count] : r.omitted) per_rule[rule] += count;
      std::cout << r.path << ": " << r.total() << (r.total() == 1 ? " violation" : " violations") << " (";
      bool first = true;
      for (const auto& [rule, count] : per_rule) {
        std::cout << (first ? "" : ", ") << rule << " " << count;
        first = false;
      }
      std::cout << ")\n";
    }
    for (const std::string& note : r.notes) std::cout << "note: " << note << "\n";
  }
  return r.ok() ? kExitOk : kExitCheckFailed;
}

void AddValidateCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ValidateArgs>();
  CLI::App* cmd = app.add_subcommand("validate", "Check every rule of the TACO format; list each violation");
  cmd->add_option("path", args->path, "Dataset path or URL (.tacozip, FOLDER, .tacocat or __TACOCAT__)")->required();
  cmd->add_flag("--json", args->json, "Print JSON for programs");
  cmd->add_flag("--tiff-profile", args->tiff_profile,
                "Also check each GeoTIFF member against the TACO-optimised GeoTIFF profile (tiled, 512x512 blocks, "
                "ZSTD, TILE interleave, no overviews)");
  cmd->add_flag("--fast", args->fast,
                "Check the metadata only: skip reading every ZIP member to check its CRC-32 (member-crc)");
  cmd->callback([args, &ctx] { ctx.exit_code = RunValidate(*args, ctx); });
}

static const CommandRegistration kRegistered(100, &AddValidateCommand);

}  // namespace
}  // namespace taco::cli
