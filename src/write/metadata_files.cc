// MetadataSet: reading CSV / JSON Lines / Parquet metadata files (see metadata_files.h).
#include "write/metadata_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "table/engine.h"
#include "taco/io.h"
#include "taco/model.h"
#include "util/json_text.h"
#include "util/quote.h"

namespace taco::write {
namespace {

// The user's own metadata files: no size limit beyond what memory allows.
constexpr uint64_t kMaxMetadataFileBytes = UINT64_MAX;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    std::string msg = path + ": cannot open: " + std::strerror(err);
    return err == ENOENT ? Status::NotFound(msg) : Status::IOError(msg);
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Status::IOError(path + ": read failed");
  return buffer.str();
}

using util::Quote;

// Checks a column name of `file` (line `line`): an extension key, or `path`.
Status CheckColumnName(const std::string& where, const std::string& name) {
  Status status = ValidateExtensionKey(name);
  if (!status.ok()) return Status::InvalidArgument(where + ": column " + Quote(name) + ": " + status.message());
  return Status::OK();
}

Status ReadCsv(MetadataSet* set, const std::string& file, std::string_view text) {
  TACO_ASSIGN_OR_RETURN(std::vector<CsvRecord> records, ParseCsv(text, file));
  if (records.empty()) return Status::InvalidArgument(file + ": empty CSV (a header row with 'path' is needed)");
  const CsvRecord& header = records[0];
  const std::string header_where = file + ":" + std::to_string(header.line);
  size_t path_index = header.fields.size();
  std::unordered_set<std::string> seen;
  for (size_t c = 0; c < header.fields.size(); ++c) {
    const std::string& name = header.fields[c];
    if (name.empty()) {
      return Status::InvalidArgument(header_where + ": column " + std::to_string(c + 1) + " has no name");
    }
    if (!seen.insert(name).second) return Status::InvalidArgument(header_where + ": duplicate column " + Quote(name));
    if (name == "path") {
      path_index = c;
    } else {
      TACO_RETURN_IF_ERROR(CheckColumnName(header_where, name));
    }
  }
  if (path_index == header.fields.size()) {
    return Status::InvalidArgument(header_where + ": no 'path' column (the sample's path relative to the source)");
  }
  for (size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& record = records[r];
    if (record.fields.size() != header.fields.size()) {
      return Status::InvalidArgument(file + ":" + std::to_string(record.line) + ": " +
                                     std::to_string(record.fields.size()) + " fields, the header has " +
                                     std::to_string(header.fields.size()));
    }
    std::vector<std::pair<std::string, MetadataCell>> cells;
    for (size_t c = 0; c < record.fields.size(); ++c) {
      if (c == path_index || record.fields[c].empty()) continue;
      cells.emplace_back(header.fields[c], CellFromText(record.fields[c]));
    }
    TACO_RETURN_IF_ERROR(set->AddRow(file, record.line, record.fields[path_index], std::move(cells)));
  }
  return Status::OK();
}

Status AddJsonObject(MetadataSet* set, const std::string& file, size_t line, const std::string& where,
                     const nlohmann::ordered_json& object) {
  if (!object.is_object())
    return Status::InvalidArgument(where + ": expected a JSON object, got " + object.type_name());
  auto path_it = object.find("path");
  if (path_it == object.end() || !path_it->is_string()) {
    return Status::InvalidArgument(where + ": no \"path\" string (the sample's path relative to the source)");
  }
  std::vector<std::pair<std::string, MetadataCell>> cells;
  for (const auto& [key, value] : object.items()) {
    if (key == "path") continue;
    TACO_RETURN_IF_ERROR(CheckColumnName(where, key));
    if (value.is_null()) continue;
    cells.emplace_back(key, CellFromJson(value));
  }
  return set->AddRow(file, line, path_it->get<std::string>(), std::move(cells));
}

Status ReadJsonLines(MetadataSet* set, const std::string& file, std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '[') {
    // A .json file holding one array of objects: accepted too.
    TACO_ASSIGN_OR_RETURN(nlohmann::ordered_json array, util::ParseJsonText(text, file, kMaxMetadataFileBytes));
    for (size_t k = 0; k < array.size(); ++k) {
      TACO_RETURN_IF_ERROR(AddJsonObject(set, file, k + 1, file + ": element " + std::to_string(k), array[k]));
    }
    return Status::OK();
  }
  size_t line = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view content = text.substr(pos, end - pos);
    pos = end + 1;
    ++line;
    if (content.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = file + ":" + std::to_string(line);
    TACO_ASSIGN_OR_RETURN(nlohmann::ordered_json object, util::ParseJsonText(content, where, kMaxMetadataFileBytes));
    TACO_RETURN_IF_ERROR(AddJsonObject(set, file, line, where, object));
  }
  return Status::OK();
}

Status ReadParquet(MetadataSet* set, const std::string& file) {
  TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, OpenLocalFile(file));
  TACO_ASSIGN_OR_RETURN(auto engine, table::Engine::Open());
  TACO_ASSIGN_OR_RETURN(Table table, engine->ReadParquet(reader));
  const int path_col = table.FindColumn("path");
  if (path_col < 0 || table.columns[static_cast<size_t>(path_col)].type.id != TypeId::kString) {
    return Status::InvalidArgument(file + ": no 'path' string column (the sample's path relative to the source)");
  }
  for (const Column& column : table.columns) {
    if (column.name != "path") TACO_RETURN_IF_ERROR(CheckColumnName(file, column.name));
  }
  const Column& paths = table.columns[static_cast<size_t>(path_col)];
  for (size_t r = 0; r < table.num_rows(); ++r) {
    if (paths.values[r].is_null()) {
      return Status::InvalidArgument(file + ": row " + std::to_string(r + 1) + ": 'path' is null");
    }
    std::vector<std::pair<std::string, MetadataCell>> cells;
    for (const Column& column : table.columns) {
      if (column.name == "path" || column.values[r].is_null() || column.type.id == TypeId::kNull) continue;
      cells.emplace_back(column.name, MetadataCell{column.type, column.values[r], column.values[r].ToString()});
    }
    TACO_RETURN_IF_ERROR(set->AddRow(file, r + 1, paths.values[r].get<std::string>(), std::move(cells)));
  }
  return Status::OK();
}

// A list or struct whose item/field type stayed null (only empty lists/nulls seen) gets
// string there, so that the type can be written.
DataType ResolveNulls(const DataType& type) {
  if (type.id == TypeId::kNull) return DataType::String();
  DataType out = type;
  for (auto& child : out.children) child.second = ResolveNulls(child.second);
  return out;
}

}  // namespace

size_t MetadataSet::ColumnIndex(const std::string& name) {
  auto [it, inserted] = column_index_.emplace(name, columns_.size());
  if (inserted) columns_.push_back(name);
  return it->second;
}

Status MetadataSet::AddRow(const std::string& file, size_t line, std::string path,
                           std::vector<std::pair<std::string, MetadataCell>> cells) {
  MetadataRow row;
  row.where = file + ":" + std::to_string(line);
  row.path = NormalizeRelativePath(path);
  if (row.path.empty()) return Status::InvalidArgument(row.where + ": empty 'path'");
  for (auto& [name, cell] : cells) {
    const size_t column = ColumnIndex(name);
    auto [it, inserted] = cell_origin_.emplace(row.path + '\n' + name, row.where);
    if (!inserted) {
      return Status::InvalidArgument(row.where + ": column " + Quote(name) + " of " + Quote(row.path) +
                                     " is already given at " + it->second);
    }
    row.cells.emplace_back(column, std::move(cell));
  }
  rows_.push_back(std::move(row));
  return Status::OK();
}

Status MetadataSet::AddFile(const std::string& path) {
  const std::string lower = Lower(path);
  // Duplicate paths are checked per file; remember where each row of this file was.
  const size_t first_row = rows_.size();
  Status status;
  if (EndsWith(lower, ".csv")) {
    TACO_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
    status = ReadCsv(this, path, text);
  } else if (EndsWith(lower, ".jsonl") || EndsWith(lower, ".ndjson") || EndsWith(lower, ".json")) {
    TACO_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
    status = ReadJsonLines(this, path, text);
  } else if (EndsWith(lower, ".parquet")) {
    status = ReadParquet(this, path);
  } else {
    return Status::InvalidArgument(path + ": unknown metadata format (use .csv, .jsonl/.ndjson/.json or .parquet)");
  }
  TACO_RETURN_IF_ERROR(status);
  std::unordered_map<std::string_view, const MetadataRow*> seen;
  for (size_t r = first_row; r < rows_.size(); ++r) {
    auto [it, inserted] = seen.emplace(rows_[r].path, &rows_[r]);
    if (!inserted) {
      return Status::InvalidArgument(rows_[r].where + ": path " + Quote(rows_[r].path) + " is already given at " +
                                     it->second->where);
    }
  }
  return Status::OK();
}

Status MetadataSet::Finish(bool strict, std::vector<std::string>* widened) {
  types_.assign(columns_.size(), DataType::Null());
  // Per column: the first cell of each type ("<type> (first at <where>: <text>)"), and
  // whether the types conflict.
  std::vector<std::vector<std::pair<std::string, std::string>>> firsts(columns_.size());
  std::vector<bool> conflict(columns_.size(), false);
  for (const MetadataRow& row : rows_) {
    for (const auto& [column, cell] : row.cells) {
      bool c = cell.mixed;
      types_[column] = UnifyTypes(types_[column], cell.type, &c);
      conflict[column] = conflict[column] || c;
      const std::string type = cell.type.ToString() + (cell.mixed ? " of mixed items" : "");
      auto& seen = firsts[column];
      const bool known = std::any_of(seen.begin(), seen.end(), [&](const auto& f) { return f.first == type; });
      if (!known) {
        std::string text = cell.text.size() > 40 ? cell.text.substr(0, 37) + "..." : cell.text;
        seen.emplace_back(type, row.where + ": " + text);
      }
    }
  }
  for (size_t column = 0; column < columns_.size(); ++column) {
    if (!conflict[column]) continue;
    std::string kinds;
    for (const auto& [type, where] : firsts[column])
      kinds += (kinds.empty() ? "" : ", ") + type + " (first at " + where + ")";
    const std::string what = "metadata column " + Quote(columns_[column]) + " mixes types: " + kinds;
    if (strict) {
      return Status::InvalidArgument(what +
                                     "; make the values agree, or use the non-strict mode (--non-strict) to "
                                     "store the column as text");
    }
    if (widened != nullptr) widened->push_back(what + "; stored as " + ResolveNulls(types_[column]).ToString());
  }
  for (DataType& type : types_) type = ResolveNulls(type);
  return Status::OK();
}

Value MetadataSet::CellValue(size_t column, const MetadataCell& cell) const {
  return CastCell(cell, types_.at(column));
}

}  // namespace taco::write
