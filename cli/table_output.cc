// Implementation of table_output.h.
#include "table_output.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

namespace taco::cli {
namespace {

constexpr size_t kMaxCellWidth = 40;

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
  if (v.is<ValueList>() || v.is<ValueStruct>()) return ToJson(v).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  if (v.is<float>() || v.is<double>()) return ToJson(v).dump();
  return v.ToString();
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

void PrintText(const Table& t, std::ostream& out) {
  const size_t cols = t.num_columns();
  std::vector<std::vector<std::string>> cells(t.num_rows() + 1, std::vector<std::string>(cols));
  std::vector<size_t> width(cols, 0);
  for (size_t c = 0; c < cols; ++c) {
    cells[0][c] = Cut(OneLine(t.columns[c].name), kMaxCellWidth);
    for (size_t r = 0; r < t.num_rows(); ++r) {
      cells[r + 1][c] = Cut(OneLine(CellText(t.columns[c].values[r], "null")), kMaxCellWidth);
    }
    for (const auto& row : cells) width[c] = std::max(width[c], Width(row[c]));
  }
  auto line = [&](const std::vector<std::string>& row) {
    std::string text;
    for (size_t c = 0; c < cols; ++c) {
      if (c > 0) text += "  ";
      text += row[c];
      if (c + 1 < cols) text.append(width[c] - Width(row[c]), ' ');
    }
    out << text << "\n";
  };
  line(cells[0]);
  std::vector<std::string> rule(cols);
  for (size_t c = 0; c < cols; ++c) rule[c] = std::string(width[c], '-');
  line(rule);
  for (size_t r = 1; r < cells.size(); ++r) line(cells[r]);
}

}  // namespace

Result<OutputFormat> FormatOptions::Resolve() const {
  if (json) return OutputFormat::kJson;
  if (format == "table") return OutputFormat::kTable;
  if (format == "csv") return OutputFormat::kCsv;
  if (format == "json") return OutputFormat::kJson;
  return Status::InvalidArgument("--format: unknown format '" + format + "' (expected table, csv or json)");
}

void AddFormatOptions(CLI::App* cmd, FormatOptions* options) {
  cmd->add_option("--format", options->format, "Output format: table, csv or json")->default_str("table");
  cmd->add_flag("--json", options->json, "Same as --format json");
}

void PrintTable(const Table& table, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::kTable:
      PrintText(table, out);
      return;
    case OutputFormat::kCsv:
      for (size_t c = 0; c < table.num_columns(); ++c) out << (c ? "," : "") << CsvField(table.columns[c].name);
      out << "\n";
      for (size_t r = 0; r < table.num_rows(); ++r) {
        for (size_t c = 0; c < table.num_columns(); ++c) {
          out << (c ? "," : "") << CsvField(CellText(table.columns[c].values[r], ""));
        }
        out << "\n";
      }
      return;
    case OutputFormat::kJson: {
      nlohmann::ordered_json rows = nlohmann::ordered_json::array();
      for (size_t r = 0; r < table.num_rows(); ++r) {
        nlohmann::ordered_json row = nlohmann::ordered_json::object();
        for (const auto& col : table.columns) row[col.name] = ToJson(col.values[r]);
        rows.push_back(std::move(row));
      }
      out << rows.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
      return;
    }
  }
}

}  // namespace taco::cli
