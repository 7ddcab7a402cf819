// Printing a Table for the query/navigation commands (sql, ls, read, filter).
//
// Formats (the --format option; --json = --format json):
//  * table: for people. Header, a dashed rule, one line per row, columns padded and
//    separated by two spaces. Binary cells that are WKB geometries are shown as WKT
//    (taco/geometry.h), other binary as hex. Lines fit the terminal: the width is $COLUMNS
//    when set, else the terminal's when stdout is one; the widest cuttable columns are
//    shortened (to no less than 8 characters, cut cells end in "...") until the line fits.
//    Without a known width (a pipe, a file), cuttable cells longer than 40 characters are
//    cut. Never cut: `id`, columns named *_id / *:id, *path*, internal:gdal_vsi and
//    internal:source_file (ids and GDAL paths must be copyable). --no-trunc cuts nothing.
//  * csv: RFC 4180 with a header row and "\n" line ends; fields holding a comma, quote,
//    CR or LF are double-quoted with quotes doubled; null is an empty field.
//  * json: a list of row objects (column order kept), pretty-printed with indent 2.
// Cells: binary as "0x" + lower-case hex (cut only in table format), timestamps ISO-8601,
// lists and structs as compact JSON, floats in shortest round-trip form, null as "null"
// (table), "" (csv) or null (json).
#ifndef TACO_CLI_TABLE_OUTPUT_H_
#define TACO_CLI_TABLE_OUTPUT_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "taco/dataset.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco::cli {

enum class OutputFormat { kTable, kCsv, kJson };

struct FormatOptions {
  std::string format = "table";
  bool json = false;
  bool no_trunc = false;             // --no-trunc
  int64_t limit = -1;                // --limit N: at most N rows (-1: all)
  std::vector<std::string> columns;  // --columns a,b: only these, in this order
  // Rows of the whole result when the table printed holds only its first rows (FetchRows
  // sets it); -1: the table is the whole result.
  int64_t total_rows = -1;
  // The chosen format; InvalidArgument for an unknown --format value or a negative --limit.
  Result<OutputFormat> Resolve() const;
};

// Adds --format table|csv|json, --json, --no-trunc, --limit and --columns to `cmd`.
void AddFormatOptions(CLI::App* cmd, FormatOptions* options);

// The rows of `view` to print (DataRaw() when `raw`, else Data()). With --limit N only the
// first N + 1 rows are read (the LIMIT goes into the query: memory follows N, not the size
// of the view) and, when there are more than N, options->total_rows is set to the view's
// row count (a streamed count) for the note PrintTable writes.
Result<Table> FetchRows(const Dataset& view, bool raw, FormatOptions* options);

// `table` as the options say (any format): --columns picks and orders columns (an unknown
// name is InvalidArgument listing the columns there are), --limit keeps the first rows and
// says on stderr how many were left out.
Status PrintTable(const Table& table, const FormatOptions& options, std::ostream& out);
// Default options in `format`.
void PrintTable(const Table& table, OutputFormat format, std::ostream& out);

}  // namespace taco::cli

#endif  // TACO_CLI_TABLE_OUTPUT_H_
