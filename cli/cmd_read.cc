// `taco read PATH KEY... [--each] [--format ...] [--json]`.
//  * One path (the keys followed level by level, or one KEY holding ids joined by '/'): a
//    FILE prints its GDAL path alone on one line (--json: an object with id, type, level,
//    gdal_path); a FOLDER prints its children like `taco ls`.
//  * Many paths (--each, or any KEY holding a '/'): each KEY is one path ("tile_1/mask.tif",
//    "@3/@0"), resolved in one process with the dataset opened once; prints a table with
//    one row per KEY: key, id, type, level, gdal_path (a FOLDER's is its __meta__).
// Keys follow the rule of ParseSampleKey (taco/dataset.h): an id, "@N" for position N, a
// bare number is an id when one exists, else a position when no id at that level is a
// number.
#include <iostream>

#include "cli_common.h"
#include "table_output.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct ReadArgs {
  std::string path;
  std::vector<std::string> keys;
  bool each = false;
  FormatOptions format;
};

std::vector<std::string> SplitPath(const std::string& key) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t slash = key.find('/', start);
    parts.push_back(key.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return parts;
}

int RunReadEach(const Dataset& ds, const ReadArgs& args, OutputFormat format) {
  Table out;
  out.columns = {Column{"key", DataType::String(), {}}, Column{"id", DataType::String(), {}},
                 Column{"type", DataType::String(), {}}, Column{"level", DataType::Int64(), {}},
                 Column{"gdal_path", DataType::String(), {}}};
  for (const std::string& key : args.keys) {
    auto node = ds.ReadPath(ParseSampleKeys(SplitPath(key)));
    if (!node.ok()) return ReportError(node.status().WithPrefix("key '" + key + "'"));
    out.columns[0].values.emplace_back(key);
    out.columns[1].values.emplace_back(node->id);
    out.columns[2].values.emplace_back(node->type);
    out.columns[3].values.emplace_back(static_cast<int64_t>(node->level));
    out.columns[4].values.emplace_back(node->gdal_path);
  }
  PrintTable(out, format, std::cout);
  return kExitOk;
}

int RunRead(const ReadArgs& args, const Context& ctx) {
  auto format = args.format.Resolve();
  if (!format.ok()) return ReportError(format.status());
  auto ds = Dataset::Open(args.path, DatasetOpenOptions(ctx.global));
  if (!ds.ok()) return ReportError(ds.status());
  bool slashed = false;
  for (const std::string& key : args.keys) slashed = slashed || key.find('/') != std::string::npos;
  // Without '/' (and without --each), several keys are one path followed level by level.
  if (args.each || (slashed && args.keys.size() > 1)) return RunReadEach(**ds, args, *format);
  std::vector<std::string> keys = args.keys;
  if (keys.size() == 1 && slashed) keys = SplitPath(keys[0]);
  auto node = (*ds)->ReadPath(ParseSampleKeys(keys));
  if (!node.ok()) return ReportError(node.status());
  if (node->children) {
    if (Status st = PrintTable(node->children->Data(), args.format, std::cout); !st.ok()) return ReportError(st);
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
      "when no id at that level is a number (otherwise refused: use @N). Several KEYs follow one path level by "
      "level (`read DS tile_1 mask.tif`), or, with --each or ids joined by '/', are several paths answered in "
      "one table (`read DS tile_1/image.tif tile_1/mask.tif tile_2/image.tif`).");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  cmd->add_option("keys", args->keys, "Keys: ids or @N, level by level; or paths 'id/id' (one per KEY)")->required();
  cmd->add_flag("--each", args->each, "Every KEY is its own path (ids joined by '/'): one output row per KEY");
  AddFormatOptions(cmd, &args->format);
  cmd->callback([args, &ctx] { ctx.exit_code = RunRead(*args, ctx); });
}

const CommandRegistration kRegistered(50, &AddReadCommand);

}  // namespace
}  // namespace taco::cli
