// `taco export PATH OUT [--sql Q] [--bbox minx,miny,maxx,maxy] [--datetime A/B] [--level N]
//  [--geometry-col C] [--time-col C] [--format auto|zip|folder]`: writes the selected level-0
// samples, each with its whole subtree, as a new dataset with taco:subset_of and
// taco:subset_date. Filters chain as in `taco filter` (--sql, then --bbox, then --datetime).
// Prints the path written.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include "cli_common.h"
#include "progress.h"
#include "taco/convert.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct ExportArgs {
  std::string path;
  std::string out;
  std::string sql;
  std::string bbox;
  std::string datetime;
  std::string geometry_col = "auto";
  std::string time_col = "auto";
  int level = 0;
  std::string format = "auto";
};

Result<std::vector<double>> ParseBox(const std::string& text) {
  std::vector<double> out;
  const Status bad = Status::InvalidArgument("--bbox '" + text + "': expected minx,miny,maxx,maxy (4 numbers)");
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    const double v = std::strtod(part.c_str(), &end);
    if (part.empty() || end == part.c_str() || *end != '\0') return bad;
    out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.size() != 4) return bad;
  return out;
}

int RunExport(const ExportArgs& args, const Context& ctx) {
  std::vector<double> box;
  if (!args.bbox.empty()) {
    auto parsed = ParseBox(args.bbox);
    if (!parsed.ok()) return ReportError(parsed.status().WithPrefix("export"));
    box = *parsed;
  }
  auto opened = Dataset::Open(args.path);
  if (!opened.ok()) return ReportError(opened.status().WithPrefix("export"));
  const std::unique_ptr<Dataset> source = std::move(*opened);
  std::unique_ptr<Dataset> view;
  const Dataset* current = source.get();
  auto step = [&](Result<std::unique_ptr<Dataset>> next) -> Status {
    if (!next.ok()) return next.status();
    view = std::move(*next);
    current = view.get();
    return Status::OK();
  };
  Status st;
  if (!args.sql.empty()) st = step(current->Sql(args.sql));
  if (st.ok() && !box.empty()) {
    st = step(current->FilterBbox(box[0], box[1], box[2], box[3], args.geometry_col, args.level));
  }
  if (st.ok() && !args.datetime.empty()) st = step(current->FilterDatetime(args.datetime, args.time_col, args.level));
  if (!st.ok()) return ReportError(st.WithPrefix("export"));

  ExportOptions options;
  options.format = args.format == "zip"      ? OutputFormat::kZip
                   : args.format == "folder" ? OutputFormat::kFolder
                                             : OutputFormat::kAuto;
  options.source = source.get();
  Result<std::vector<std::string>> written = Status::Internal("not written");
  {
    ProgressBar bar("exporting", ProgressBar::Unit::kBytes, ProgressEnabled(ctx));
    options.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
    written = Export(*current, args.out, options);
  }
  if (!written.ok()) return ReportError(written.status().WithPrefix("export"));
  if (!ctx.global.quiet) {
    for (const std::string& path : *written) std::cout << path << "\n";
  }
  return kExitOk;
}

void AddExportCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Write the level-0 samples selected by --sql/--bbox/--datetime (whole subtrees) as a new dataset");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  cmd->add_option("out", args->out, "Output (.tacozip/.zip → ZIP, else FOLDER); must not exist")->required();
  cmd->add_option("--sql", args->sql, "SQL over data/data_raw, applied first");
  cmd->add_option("--bbox", args->bbox, "minx,miny,maxx,maxy: geometry meets the box (closed)");
  cmd->add_option("--datetime", args->datetime, "A/B or A (ISO-8601, UTC calendar dates, inclusive)");
  cmd->add_option("--level", args->level, "Level the bbox/datetime filters test (cascades to level 0)");
  cmd->add_option("--geometry-col", args->geometry_col, "Geometry column (default: auto)");
  cmd->add_option("--time-col", args->time_col, "Time column (default: auto)");
  cmd->add_option("--format", args->format, "zip, folder, or auto (from OUT's extension)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "zip", "folder"}));
  cmd->callback([args, &ctx] { ctx.exit_code = RunExport(*args, ctx); });
}

const CommandRegistration kRegistered(110, &AddExportCommand);

}  // namespace
}  // namespace taco::cli
