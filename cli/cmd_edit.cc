// `taco edit DATASET [--set KEY=VALUE]... [--unset KEY]... [--collection FILE.json]
//  [--metadata FILE --level N] [-o OUT | --in-place]`: replace collection fields or one
// level's metadata columns (taco/edit.h). Without -o the dataset is replaced atomically;
// --in-place (local ZIP) appends the new metadata and rewrites the header last.
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "taco/edit.h"

namespace taco::cli {
namespace {

struct EditArgs {
  std::string path;
  std::vector<std::string> set;
  EditOptions options;
};

int RunEdit(EditArgs& args, const Context& ctx) {
  for (const std::string& kv : args.set) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return ReportError(Status::InvalidArgument("edit: --set '" + kv + "' is not KEY=VALUE"));
    }
    args.options.set.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  args.options.open = DatasetOpenOptions(ctx.global);
  auto written = Edit(args.path, args.options);
  if (!written.ok()) return ReportError(written.status().WithPrefix("edit"));
  if (!ctx.global.quiet) {
    for (const std::string& p : *written) std::cout << p << "\n";
  }
  return kExitOk;
}

void AddEditCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<EditArgs>();
  CLI::App* cmd = app.add_subcommand(
      "edit",
      "Replace COLLECTION fields or a level's metadata columns of a ZIP, FOLDER or Tortilla / TACO v1 dataset. The "
      "dataset is rewritten atomically (a FOLDER: only the files whose bytes changed, each renamed into place; "
      "COLLECTION.json last) or written to -o OUT; --in-place (local ZIP) appends the new metadata and "
      "updates TACO_HEADER last, so a crash leaves the old or the new dataset, never a broken one");
  cmd->add_option("path", args->path, "Dataset path")->required();
  cmd->add_option("--set", args->set, "Collection field KEY=VALUE (VALUE as JSON when it parses, else a string)")
      ->allow_extra_args(false);
  cmd->add_option("--unset", args->options.unset, "Remove a collection field")->allow_extra_args(false);
  cmd->add_option("--collection", args->options.collection_file, "JSON object whose keys replace collection fields");
  cmd->add_option("--metadata", args->options.metadata_file,
                  "CSV / Parquet / JSON Lines keyed by 'id' (or 'path': ids from the root joined by '/'); other "
                  "columns replace or add extension columns at --level");
  cmd->add_option("--level", args->options.level, "Level the --metadata columns belong to (default 0)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("-o,--output", args->options.output, "Write the edited dataset here instead of replacing it");
  cmd->add_flag("--in-place", args->options.in_place,
                "Local ZIP only: append the new metadata and rewrite the 157-byte header last (no data copied)");
  cmd->callback([args, &ctx] { ctx.exit_code = RunEdit(*args, ctx); });
}

const CommandRegistration kRegistered(145, &AddEditCommand);

}  // namespace
}  // namespace taco::cli
