// Implementation of table_output.h.
#include "table_output.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/geometry.h"

namespace taco::cli {
namespace {

constexpr size_t kMaxCellWidth = 40;  // without a known terminal width
constexpr size_t kMinCutWidth = 8;    // a cut column keeps at least this many characters

std::string Hex(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "0x";
  out.reserve(2 + bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

template <typename F>
nlohmann::ordered_json FloatJson(F v) {
  if (!std::isfinite(v)) return nullptr;
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  if (ec != std::errc()) return static_cast<double>(v);
  return std::strtod(std::string(buf, end).c_str(), nullptr);
}

nlohmann::ordered_json ToJson(const Value& v) {
  struct Visitor {
    nlohmann::ordered_json operator()(std::monostate) const { return nullptr; }
    nlohmann::ordered_json operator()(bool b) const { return b; }
    nlohmann::ordered_json operator()(int32_t x) const { return x; }
    nlohmann::ordered_json operator()(int64_t x) const { return x; }
    nlohmann::ordered_json operator()(float x) const { return FloatJson(x); }
    nlohmann::ordered_json operator()(double x) const { return FloatJson(x); }
    nlohmann::ordered_json operator()(const std::string& s) const { return s; }
    nlohmann::ordered_json operator()(const Binary& b) const { return Hex(b.bytes); }
    nlohmann::ordered_json operator()(const TimestampUs& t) const { return FormatTimestampUs(t.micros); }
    nlohmann::ordered_json operator()(const ValueList& list) const {
      nlohmann::ordered_json out = nlohmann::ordered_json::array();
      for (const auto& item : list) out.push_back(ToJson(item));
      return out;
    }
    nlohmann::ordered_json operator()(const ValueStruct& fields) const {
      nlohmann::ordered_json out = nlohmann::ordered_json::object();
      for (const auto& [name, value] : fields) out[name] = ToJson(value);
      return out;
    }
  };
  return std::visit(Visitor{}, v.storage());
}

// Text of a cell for table/csv (`null_text` for null).
std::string CellText(const Value& v, const std::string& null_text) {
  if (v.is_null()) return null_text;
  if (v.is<std::string>()) return v.get<std::string>();
  if (v.is<Binary>()) return Hex(v.get<Binary>().bytes);
  if (v.is<ValueList>() || v.is<ValueStruct>())
    return ToJson(v).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  if (v.is<float>() || v.is<double>()) return ToJson(v).dump();
  return v.ToString();
}

// Text of a cell for people: WKB geometries as WKT.
std::string PeopleText(const Value& v) {
  if (v.is<Binary>()) {
    Result<std::string> wkt = WkbToWkt(v.get<Binary>().bytes);
    if (wkt.ok()) return *wkt;
  }
  return CellText(v, "null");
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// Display width (UTF-8 code points) and a cut that keeps whole code points.
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}
std::string Cut(const std::string& s, size_t max) {
  if (Width(s) <= max) return s;
  size_t n = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n++ == max - 3) break;
  }
  return s.substr(0, i) + "...";
}
std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return s;
}

// Columns whose values people copy whole: ids and paths.
bool NeverCut(const std::string& name) {
  auto ends = [&](std::string_view suffix) {
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return name == "id" || ends("_id") || ends(":id") || name.find("path") != std::string::npos ||
         name == "internal:gdal_vsi" || name == "internal:source_file";
}

// The width lines must fit: $COLUMNS, else the terminal's, else 0 (unknown).
size_t TerminalWidth() {
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long v = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && v > 0) return static_cast<size_t>(v);
  }
  struct winsize ws {};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 0;
}

// Column widths: natural widths, cuttable ones shrunk (widest first, not below
// kMinCutWidth) until the line fits `terminal`; without a terminal width, capped at
// kMaxCellWidth.
std::vector<size_t> FitWidths(const std::vector<size_t>& natural, const std::vector<bool>& cuttable, size_t terminal) {
  std::vector<size_t> width = natural;
  if (terminal == 0) {
    for (size_t c = 0; c < width.size(); ++c) {
      if (cuttable[c]) width[c] = std::min(width[c], kMaxCellWidth);
    }
    return width;
  }
  auto total = [&] {
    size_t sum = width.empty() ? 0 : 2 * (width.size() - 1);
    for (size_t w : width) sum += w;
    return sum;
  };
  while (total() > terminal) {
    size_t widest = width.size();
    for (size_t c = 0; c < width.size(); ++c) {
      if (cuttable[c] && width[c] > kMinCutWidth && (widest == width.size() || width[c] > width[widest])) widest = c;
    }
    if (widest == width.size()) break;  // nothing left to cut: the line overflows
    --width[widest];
  }
  return width;
}

void PrintText(const Table& t, bool no_trunc, std::ostream& out) {
  const size_t cols = t.num_columns();
  std::vector<std::vector<std::string>> cells(t.num_rows() + 1, std::vector<std::string>(cols));
  std::vector<size_t> natural(cols, 0);
  std::vector<bool> cuttable(cols, false);
  for (size_t c = 0; c < cols; ++c) {
    cells[0][c] = OneLine(t.columns[c].name);
    for (size_t r = 0; r < t.num_rows(); ++r) cells[r + 1][c] = OneLine(PeopleText(t.columns[c].values[r]));
    for (const auto& row : cells) natural[c] = std::max(natural[c], Width(row[c]));
    cuttable[c] = !no_trunc && !NeverCut(t.columns[c].name);
  }
  const std::vector<size_t> width = no_trunc ? natural : FitWidths(natural, cuttable, TerminalWidth());
  for (auto& row : cells) {
    for (size_t c = 0; c < cols; ++c) {
      if (cuttable[c]) row[c] = Cut(row[c], std::max<size_t>(width[c], 4));
    }
  }
  auto line = [&](const std::vector<std::string>& row) {
    std::string text;
    for (size_t c = 0; c < cols; ++c) {
      if (c > 0) text += "  ";
      text += row[c];
      if (c + 1 < cols) text.append(width[c] - std::min(width[c], Width(row[c])), ' ');
    }
    out << text << "\n";
  };
  line(cells[0]);
  std::vector<std::string> rule(cols);
  for (size_t c = 0; c < cols; ++c) rule[c] = std::string(width[c], '-');
  line(rule);
  for (size_t r = 1; r < cells.size() && out.good(); ++r) line(cells[r]);  // stops at a write error
}

void PrintCsv(const Table& table, std::ostream& out) {
  for (size_t c = 0; c < table.num_columns(); ++c) out << (c ? "," : "") << CsvField(table.columns[c].name);
  out << "\n";
  for (size_t r = 0; r < table.num_rows() && out.good(); ++r) {  // stops at a write error (main reports it)
    for (size_t c = 0; c < table.num_columns(); ++c) {
      out << (c ? "," : "") << CsvField(CellText(table.columns[c].values[r], ""));
    }
    out << "\n";
  }
}

void PrintJsonRows(const Table& table, std::ostream& out) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t r = 0; r < table.num_rows(); ++r) {
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    for (const auto& col : table.columns) row[col.name] = ToJson(col.values[r]);
    rows.push_back(std::move(row));
  }
  out << rows.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

// --columns, then --limit.
Result<Table> Select(const Table& table, const FormatOptions& options) {
  Table out;
  if (options.columns.empty()) {
    out = table;
  } else {
    for (const std::string& name : options.columns) {
      const int c = table.FindColumn(name);
      if (c < 0) {
        std::string names;
        for (const auto& col : table.columns) names += (names.empty() ? "" : ", ") + col.name;
        return Status::InvalidArgument("--columns: no column '" + name + "' (the columns are: " + names + ")");
      }
      out.columns.push_back(table.columns[static_cast<size_t>(c)]);
    }
  }
  if (options.limit >= 0 && static_cast<uint64_t>(options.limit) < out.num_rows()) {
    const uint64_t all = options.total_rows >= 0 ? static_cast<uint64_t>(options.total_rows) : out.num_rows();
    for (auto& col : out.columns) col.values.resize(static_cast<size_t>(options.limit));
    std::cerr << "(" << options.limit << " of " << all << " rows shown: --limit " << options.limit << ")\n";
  }
  return out;
}

}  // namespace

Result<OutputFormat> FormatOptions::Resolve() const {
  if (limit < -1) return Status::InvalidArgument("--limit: expected a row count >= 0, got " + std::to_string(limit));
  if (json) return OutputFormat::kJson;
  if (format == "table") return OutputFormat::kTable;
  if (format == "csv") return OutputFormat::kCsv;
  if (format == "json") return OutputFormat::kJson;
  return Status::InvalidArgument("--format: unknown format '" + format + "' (expected table, csv or json)");
}

void AddFormatOptions(CLI::App* cmd, FormatOptions* options) {
  cmd->add_option("--format", options->format, "Output format: table, csv or json")->default_str("table");
  cmd->add_flag("--json", options->json, "Same as --format json");
  cmd->add_flag("--no-trunc", options->no_trunc,
                "Table format: never shorten cells (by default the widest ones are cut to fit the terminal; "
                "ids and paths never are)");
  cmd->add_option("--limit", options->limit,
                  "Print at most N rows, reading only those (a note on stderr says how many were left out)");
  cmd->add_option("--columns", options->columns, "Only these columns, in this order (comma-separated)")->delimiter(',');
}

Result<Table> FetchRows(const Dataset& view, bool raw, FormatOptions* options) {
  options->total_rows = -1;
  if (options->limit < 0) return raw ? view.DataRaw() : view.Data();
  TACO_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> head,
                        view.Sql("SELECT * FROM data_raw LIMIT " + std::to_string(options->limit + 1)));
  TACO_ASSIGN_OR_RETURN(Table rows, raw ? head->DataRaw() : head->Data());
  if (rows.num_rows() > static_cast<uint64_t>(options->limit)) {
    TACO_ASSIGN_OR_RETURN(options->total_rows, view.RowCount());
  }
  return rows;
}

Status PrintTable(const Table& table, const FormatOptions& options, std::ostream& out) {
  TACO_ASSIGN_OR_RETURN(OutputFormat format, options.Resolve());
  TACO_ASSIGN_OR_RETURN(Table selected, Select(table, options));
  switch (format) {
    case OutputFormat::kTable: PrintText(selected, options.no_trunc, out); break;
    case OutputFormat::kCsv: PrintCsv(selected, out); break;
    case OutputFormat::kJson: PrintJsonRows(selected, out); break;
  }
  return Status::OK();
}

void PrintTable(const Table& table, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::kTable: PrintText(table, /*no_trunc=*/false, out); return;
    case OutputFormat::kCsv: PrintCsv(table, out); return;
    case OutputFormat::kJson: PrintJsonRows(table, out); return;
  }
}

}  // namespace taco::cli
