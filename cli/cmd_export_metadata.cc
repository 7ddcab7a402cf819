// `taco export-metadata DATASET OUT.parquet [--level N] [--geoparquet | --stac-geoparquet]
//  [--geometry-col C]`: one level's metadata as Parquet, GeoParquet 1.1 or STAC-GeoParquet
// (the v0.2 paper's footer2geoparquet / footer2geoparquetstac; taco/metadata_export.h).
// Prints the number of rows written.
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "taco/dataset.h"
#include "taco/metadata_export.h"

namespace taco::cli {
namespace {

struct ExportMetadataArgs {
  std::string path;
  std::string out;
  int level = 0;
  bool geoparquet = false;
  bool stac = false;
  std::string geometry_col = "auto";
};

int RunExportMetadata(const ExportMetadataArgs& args, const Context& ctx) {
  if (args.geoparquet && args.stac) {
    return ReportError(
        Status::InvalidArgument("export-metadata: --geoparquet and --stac-geoparquet exclude each other"));
  }
  auto opened = Dataset::Open(args.path, DatasetOpenOptions(ctx.global));
  if (!opened.ok()) return ReportError(opened.status());
  MetadataExportOptions options;
  options.level = args.level;
  options.flavor = args.stac         ? MetadataFlavor::kStacGeoParquet
                   : args.geoparquet ? MetadataFlavor::kGeoParquet
                                     : MetadataFlavor::kPlain;
  options.geometry_column = args.geometry_col;
  auto rows = ExportMetadata(**opened, args.out, options);
  if (!rows.ok()) return ReportError(rows.status().WithPrefix("export-metadata"));
  if (!ctx.global.quiet) std::cout << args.out << ": " << *rows << " rows\n";
  return kExitOk;
}

void AddExportMetadataCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ExportMetadataArgs>();
  CLI::App* cmd = app.add_subcommand(
      "export-metadata",
      "Write one level's metadata as Parquet, GeoParquet 1.1 (--geoparquet: WKB geometry column and 'geo' metadata, "
      "for GDAL, DuckDB, GeoPandas) or STAC-GeoParquet (--stac-geoparquet: one STAC Item per sample)");
  cmd->add_option("path", args->path, "Dataset path or URL (any format, legacy Tortilla / TACO v1 included)")
      ->required();
  cmd->add_option("out", args->out, "Output .parquet file; must not exist")->required();
  cmd->add_option("--level", args->level, "Level to export (default 0)")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--geoparquet", args->geoparquet, "GeoParquet 1.1 (geometry from istac:geometry / stac:centroid)");
  cmd->add_flag("--stac-geoparquet", args->stac, "STAC-GeoParquet (stac-geoparquet 1.0 Items)");
  cmd->add_option("--geometry-col", args->geometry_col, "WKB column to use as geometry (default: auto)");
  cmd->callback([args, &ctx] { ctx.exit_code = RunExportMetadata(*args, ctx); });
}

const CommandRegistration kRegistered(150, &AddExportMetadataCommand);

}  // namespace
}  // namespace taco::cli
