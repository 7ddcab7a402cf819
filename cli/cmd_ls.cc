// `taco ls PATH [KEY...] [--format table|csv|json] [--json]`: the rows at a position of the
// tree: level 0 without keys; after keys (position or id, level by level) the children of
// the FOLDER reached, or the row of the FILE reached. Internal columns are hidden except
// internal:gdal_vsi.
#include <iostream>

#include "cli_common.h"
#include "table_output.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct LsArgs {
  std::string path;
  std::vector<std::string> keys;
  FormatOptions format;
};

int RunLs(const LsArgs& args, const Context& ctx) {
  auto format = args.format.Resolve();
  if (!format.ok()) return ReportError(format.status());
  auto ds = Dataset::Open(args.path, DatasetOpenOptions(ctx.global));
  if (!ds.ok()) return ReportError(ds.status());
  Table rows;
  FormatOptions options = args.format;
  if (args.keys.empty()) {
    auto data = FetchRows(**ds, /*raw=*/false, &options);
    if (!data.ok()) return ReportError(data.status());
    rows = std::move(*data);
  } else {
    auto node = (*ds)->ReadPath(ParseSampleKeys(args.keys));
    if (!node.ok()) return ReportError(node.status());
    rows = node->children ? node->children->Data() : HideInternalColumns(node->row);
  }
  if (Status st = PrintTable(rows, options, std::cout); !st.ok()) return ReportError(st);
  return kExitOk;
}

void AddLsCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<LsArgs>();
  CLI::App* cmd =
      app.add_subcommand("ls", "List the samples at a position of the tree (KEY = id or @N; see `taco read --help`)");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  cmd->add_option("keys", args->keys,
                  "Keys to follow, level by level: a sample id, or @N for the sample at position N (0-based); a bare "
                  "number N is the id N when there is one, else position N when no id at that level is a number");
  AddFormatOptions(cmd, &args->format);
  cmd->callback([args, &ctx] { ctx.exit_code = RunLs(*args, ctx); });
}

const CommandRegistration kRegistered(40, &AddLsCommand);

}  // namespace
}  // namespace taco::cli
