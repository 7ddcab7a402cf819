// Extension columns from metadata files, for `taco create --metadata` (TacoFromDirectory).
//
// Contract:
//  * Formats, by file name suffix (case-insensitive): `.csv` (RFC 4180: header row, quoted
//    fields with "" escapes and embedded newlines, CRLF or LF, optional UTF-8 BOM);
//    `.jsonl`/`.ndjson`/`.json` (JSON Lines: one object per non-blank line); `.parquet`
//    (typed columns as stored). Every file has a `path` column/key: the sample's path
//    relative to the source directory ("tile_b/s2/B04.tif", "tile_b"; "./" prefixes,
//    doubled and trailing '/' are normalised away).
//  * Cells are typed one by one, then every column gets ONE type, the union over its
//    non-empty cells (FORMAT §3.6 style inference):
//      CSV text: integer → int64 (double when it overflows), decimal number → double,
//      true/false (any case) → bool, ISO-8601 date or datetime → timestamp[us], else string;
//      JSON: integer → int64, number → double, bool → bool, string → timestamp[us] when it
//      is an ISO-8601 date/datetime else string, array → list<union of its items>,
//      object → struct (fields in first-seen order).
//    Union: equal types stay; int32 ⊂ int64 ⊂ double, float ⊂ double; lists and structs
//    unify item/field-wise. Anything else mixed (1 and "a", [1] and 1, a timestamp column
//    with one "yesterday", a JSON array [1, "a"]) is a type conflict: Finish(strict=true)
//    refuses it, naming the column and the first cell of each type (file:line and text);
//    Finish(strict=false) stores the column as string (each cell's text as written) and
//    reports it in `widened`.
//    Empty CSV cells and JSON nulls are empty (null). A list whose items are all empty gets
//    item type string.
//  * Datetimes: YYYY-MM-DD, optionally [T or space]HH:MM[:SS[.fraction]], optionally Z or
//    ±HH[:MM]; an offset is converted to UTC; the result has no time zone (microseconds).
//  * Column names are extension keys (ValidateExtensionKey); column order is the order of
//    first appearance over the files in the order they are read.
//  * Errors name the file and, where it applies, the line: "<file>:<line>: <what>" (for
//    Parquet the 1-based row, for a .json array "element <i>").
//    Duplicate paths within a file, and one (path, column) given non-empty in two files,
//    are errors.
#ifndef TACO_WRITE_METADATA_FILES_H_
#define TACO_WRITE_METADATA_FILES_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/status.h"
#include "taco/value.h"
#include "util/iso_datetime.h"

namespace taco::write {

// One non-empty cell, typed on its own.
struct MetadataCell {
  DataType type;
  Value value;
  std::string text;    // the cell as written (CSV text, JSON dump; JSON strings unquoted)
  bool mixed = false;  // a JSON array/object whose items had conflicting types
};

// One row: the sample path and its non-empty cells (column index, cell).
struct MetadataRow {
  std::string path;   // normalised
  std::string where;  // "<file>:<line>" for messages
  std::vector<std::pair<size_t, MetadataCell>> cells;
};

// All metadata files of one `taco create`, merged.
class MetadataSet {
 public:
  // Reads one file (format by suffix) and appends its rows and new columns.
  Status AddFile(const std::string& path);
  // Fixes each column's type (the union of its cells). Call once, after the last AddFile.
  // A column with a type conflict (see above) is InvalidArgument when `strict`, else stored
  // as string with one line in `widened` (when not null) saying what was widened.
  Status Finish(bool strict = true, std::vector<std::string>* widened = nullptr);

  const std::vector<std::string>& columns() const { return columns_; }
  // After Finish(): the type of each column (string for a column with no cells).
  const std::vector<DataType>& types() const { return types_; }
  const std::vector<MetadataRow>& rows() const { return rows_; }
  // After Finish(): `cell` as a value of column `column`'s type.
  Value CellValue(size_t column, const MetadataCell& cell) const;

  // Used by AddFile's readers.
  Status AddRow(const std::string& file, size_t line, std::string path,
                std::vector<std::pair<std::string, MetadataCell>> cells);

 private:
  size_t ColumnIndex(const std::string& name);

  std::vector<std::string> columns_;
  std::unordered_map<std::string, size_t> column_index_;
  std::vector<DataType> types_;
  std::vector<MetadataRow> rows_;
  // (path, column) → where it was given, to reject the same cell from two files.
  std::unordered_map<std::string, std::string> cell_origin_;
};

// ---- pieces, exposed for tests ----------------------------------------------------------

// "./a//b/" → "a/b". Empty stays empty.
std::string NormalizeRelativePath(std::string_view path);

// Types a CSV cell (non-empty text).
MetadataCell CellFromText(std::string_view text);
// Types a JSON value (not null). InvalidArgument for values we cannot type (none today
// except nested nulls-only structures, which become strings).
MetadataCell CellFromJson(const nlohmann::ordered_json& value);
// The union type of two cell types (see above). Null is the identity. `conflict`, when not
// null, is set when the union had to fall back to string (a type conflict).
DataType UnifyTypes(const DataType& a, const DataType& b, bool* conflict = nullptr);
// `cell` converted to `type` (a type UnifyTypes produced from the cell's type).
Value CastCell(const MetadataCell& cell, const DataType& type);

// ISO-8601 date/datetime → microseconds since the epoch (UTC). False when not one.
using util::ParseIsoDatetime;  // util/iso_datetime.h

// Splits CSV text into records of fields. Each record carries the line it starts on.
struct CsvRecord {
  size_t line = 0;
  std::vector<std::string> fields;
};
Result<std::vector<CsvRecord>> ParseCsv(std::string_view text, const std::string& file);

}  // namespace taco::write

#endif  // TACO_WRITE_METADATA_FILES_H_
