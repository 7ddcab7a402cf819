// `taco sql PATH... QUERY [--format table|csv|json] [--json]`: SQL over `data` (level 0
// without internal columns except internal:gdal_vsi), `data_raw` (all columns) and
// `level0..levelN`; prints the result rows as they come from the query. Several PATHs are
// read as one dataset (Dataset::OpenList: concat, common columns, internal:source_path); a
// TACOLLECTION.json as its parts, routed by --bbox/--datetime, which also select `data`.
#include <iostream>
#include <vector>

#include "cli_common.h"
#include "selection.h"
#include "table_output.h"
#include "taco/count_query.h"
#include "taco/dataset.h"

namespace taco::cli {
namespace {

struct SqlArgs {
  std::vector<std::string> words;  // PATH... QUERY
  Selection selection;             // --bbox, --datetime only
  FormatOptions format;
};

int RunSql(const SqlArgs& args, const Context& ctx) {
  auto format = args.format.Resolve();
  if (!format.ok()) return ReportError(format.status());
  const std::vector<std::string> paths(args.words.begin(), args.words.end() - 1);
  auto box = ParseBbox(args.selection.bbox);
  if (!box.ok()) return ReportError(box.status());
  auto ds = OpenSelected(paths, args.selection, *box, SqlOpenOptions(ctx.global));
  if (!ds.ok()) return ReportError(ds.status());
  // --bbox / --datetime select the rows `data` stands for.
  auto selected = ApplySelection(**ds, args.selection, *box);
  if (!selected.ok()) return ReportError(selected.status());
  const Dataset& source = *selected ? **selected : **ds;
  FormatOptions options = args.format;
  if (IsCountOfData(args.words.back()) && options.limit != 0) {
    // Exactly `SELECT count(*) FROM data`: the engine's table from the row count, which needs
    // no engine for ZIP and FOLDER datasets (taco/count_query.h; --limit 0 leaves the row out:
    // the engine's path prints that note).
    if (auto count = CountOfData(source); count.ok()) {
      if (Status st = PrintTable(*count, options, std::cout); !st.ok()) return ReportError(st);
      return kExitOk;
    }  // else the engine answers, with its own error if it fails too
  }
  auto view = source.Sql(args.words.back());
  if (!view.ok()) return ReportError(view.status());
  auto rows = FetchRows(**view, /*raw=*/true, &options);
  if (!rows.ok()) return ReportError(rows.status());
  if (Status st = PrintTable(*rows, options, std::cout); !st.ok()) return ReportError(st);
  return kExitOk;
}

void AddSqlCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<SqlArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sql",
      "Run SQL over a dataset: tables data, data_raw, files (one row per FILE sample: path, level, its "
      "columns, internal:gdal_vsi, level0.<column> of its parents, ...), level0..levelN");
  cmd->add_option("path", args->words,
                  "Dataset path or URL, then the query. Several paths are read as one dataset (their common "
                  "columns, plus internal:source_path naming each row's dataset). The query is one SQL "
                  "statement, e.g. \"SELECT id FROM data\"; also DESCRIBE data, SUMMARIZE data, SHOW TABLES. WKB "
                  "functions: taco_wkb_as_text(g) (or ST_AsText), taco_wkb_bbox(g).xmin/.ymin/.xmax/.ymax, "
                  "taco_wkb_intersects_box(g, minx, miny, maxx, maxy)")
      ->required()
      ->type_name("PATH... QUERY")
      ->expected(2, -1);
  cmd->add_option("--bbox", args->selection.bbox,
                  "minx,miny,maxx,maxy: `data` holds only the level-0 rows whose geometry meets the box (as taco "
                  "filter); on a TACOLLECTION.json only the parts whose extents meet it are opened");
  cmd->add_option("--datetime", args->selection.datetime,
                  "A/B, A, ../B or A/.. (as taco filter): `data` holds only the rows in that time range; on a "
                  "TACOLLECTION.json only the parts whose extents meet it are opened");
  AddFormatOptions(cmd, &args->format);
  cmd->footer(
      "Sandbox: the query only reads (SELECT, WITH, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN), and only the dataset: "
      "COPY, ATTACH, INSTALL/LOAD, CREATE, SET, PRAGMA and files outside the dataset (read_csv, read_text, glob, "
      "FROM 'file') are refused. `taco --allow-external-sql sql ...` lets it read local files too, e.g. "
      "SELECT * FROM data JOIN read_csv('labels.csv') USING (id); statements that write or change settings stay "
      "refused.");
  cmd->callback([args, &ctx] { ctx.exit_code = RunSql(*args, ctx); });
}

const CommandRegistration kRegistered(70, &AddSqlCommand);

}  // namespace
}  // namespace taco::cli
