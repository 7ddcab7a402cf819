// Printing a Table for the query/navigation commands (sql, ls, read, filter).
//
// Formats (the --format option; --json = --format json):
//  * table: for people. Header, a dashed rule, one line per row, columns padded and
//    separated by two spaces; cells longer than 40 characters are cut to 37 + "...".
//  * csv: RFC 4180 with a header row and "\n" line ends; fields holding a comma, quote,
//    CR or LF are double-quoted with quotes doubled; null is an empty field.
//  * json: a list of row objects (column order kept), pretty-printed with indent 2.
// Cells: binary as "0x" + lower-case hex (cut only in table format), timestamps ISO-8601,
// lists and structs as compact JSON, floats in shortest round-trip form, null as "null"
// (table), "" (csv) or null (json).
#ifndef TACO_CLI_TABLE_OUTPUT_H_
#define TACO_CLI_TABLE_OUTPUT_H_

#include <iosfwd>
#include <string>

#include <CLI/CLI.hpp>

#include "taco/status.h"
#include "taco/value.h"

namespace taco::cli {

enum class OutputFormat { kTable, kCsv, kJson };

struct FormatOptions {
  std::string format = "table";
  bool json = false;
  // The chosen format; InvalidArgument for an unknown --format value.
  Result<OutputFormat> Resolve() const;
};

// Adds --format table|csv|json and --json to `cmd`.
void AddFormatOptions(CLI::App* cmd, FormatOptions* options);

void PrintTable(const Table& table, OutputFormat format, std::ostream& out);

}  // namespace taco::cli

#endif  // TACO_CLI_TABLE_OUTPUT_H_
