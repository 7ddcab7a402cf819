// `taco read PATH KEY... [--format ...] [--json]`: follows the keys (ids or @N, see
// ParseSampleKey in taco/dataset.h) level by level. A FILE prints its GDAL path alone on one
// line (--json: an object with id, type, level, gdal_path); a FOLDER prints its children like
// `taco ls`.
#include <iostream>

#include "cli_common.h"
#include "table_output.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct ReadArgs {
  std::string path;
  std::vector<std::string> keys;
  FormatOptions format;
};

int RunRead(const ReadArgs& args) {
  auto format = args.format.Resolve();
  if (!format.ok()) return ReportError(format.status());
  auto ds = Dataset::Open(args.path);
  if (!ds.ok()) return ReportError(ds.status());
  auto node = (*ds)->ReadPath(ParseSampleKeys(args.keys));
  if (!node.ok()) return ReportError(node.status());
  if (node->children) {
    PrintTable(node->children->Data(), *format, std::cout);
  } else if (*format == OutputFormat::kJson) {
    PrintJson({{"id", node->id}, {"type", node->type}, {"level", node->level}, {"gdal_path", node->gdal_path}});
  } else {
    std::cout << node->gdal_path << "\n";
  }
  return kExitOk;
}

void AddReadCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ReadArgs>();
  CLI::App* cmd = app.add_subcommand(
      "read",
      "Navigate by id or position: the GDAL path of a FILE, or a FOLDER's children. KEY is a sample id, or @N "
      "for the sample at position N (0-based); a bare number N is the id N when there is one, else position N "
      "when no id at that level is a number (otherwise refused: use @N).");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  cmd->add_option("keys", args->keys, "Keys to follow, level by level: ids or @N")->required();
  AddFormatOptions(cmd, &args->format);
  cmd->callback([args, &ctx] { ctx.exit_code = RunRead(*args); });
}

const CommandRegistration kRegistered(50, &AddReadCommand);

}  // namespace
}  // namespace taco::cli
