// Typing of metadata cells: CSV text and JSON values → (DataType, Value), type unions and
// casts, ISO-8601 datetimes, and the CSV record splitter (see metadata_files.h).
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "write/metadata_files.h"

namespace taco::write {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// [+-]?digits
bool LooksInteger(std::string_view s) {
  size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (!IsDigit(s[i])) return false;
  }
  return true;
}

// [+-]?(digits[.digits*]|.digits)([eE][+-]?digits)?
bool LooksDecimal(std::string_view s) {
  size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  size_t int_digits = 0, frac_digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++int_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i, ++frac_digits;
  }
  if (int_digits + frac_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && IsDigit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

bool ParseDouble(std::string_view s, double* out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size() && std::isfinite(*out);
}

bool IsNumeric(TypeId id) {
  return id == TypeId::kInt32 || id == TypeId::kInt64 || id == TypeId::kFloat || id == TypeId::kDouble;
}

std::string ValueText(const Value& v) { return v.is<std::string>() ? v.get<std::string>() : v.ToString(); }

Value CastValue(const Value& v, const DataType& from, const DataType& to, const std::string* text) {
  if (v.is_null() || from == to) return v;
  switch (to.id) {
    case TypeId::kString: return text != nullptr ? *text : ValueText(v);
    case TypeId::kDouble:
      if (v.is<int64_t>()) return static_cast<double>(v.get<int64_t>());
      if (v.is<int32_t>()) return static_cast<double>(v.get<int32_t>());
      if (v.is<float>()) return static_cast<double>(v.get<float>());
      return v;
    case TypeId::kInt64:
      if (v.is<int32_t>()) return static_cast<int64_t>(v.get<int32_t>());
      return v;
    case TypeId::kList: {
      if (!v.is<ValueList>() || from.id != TypeId::kList) return v;
      ValueList out;
      out.reserve(v.get<ValueList>().size());
      for (const Value& item : v.get<ValueList>()) out.push_back(CastValue(item, from.item(), to.item(), nullptr));
      return out;
    }
    case TypeId::kStruct: {
      if (!v.is<ValueStruct>() || from.id != TypeId::kStruct) return v;
      const ValueStruct& in = v.get<ValueStruct>();
      ValueStruct out;
      for (const auto& [name, type] : to.children) {
        Value cell;
        for (size_t k = 0; k < in.size() && k < from.children.size(); ++k) {
          if (in[k].first == name) cell = CastValue(in[k].second, from.children[k].second, type, nullptr);
        }
        out.emplace_back(name, std::move(cell));
      }
      return out;
    }
    default: return v;
  }
}

}  // namespace

std::string NormalizeRelativePath(std::string_view path) {
  std::string out;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view part = path.substr(i, j - i);
    if (!part.empty() && part != ".") {
      if (!out.empty()) out.push_back('/');
      out.append(part);
    }
    i = j + 1;
  }
  return out;
}

MetadataCell CellFromText(std::string_view text) {
  MetadataCell cell;
  cell.text = std::string(text);
  const std::string lower = Lower(text);
  int64_t micros = 0;
  double d = 0;
  if (lower == "true" || lower == "false") {
    cell.type = DataType::Bool();
    cell.value = lower == "true";
  } else if (LooksInteger(text)) {
    errno = 0;
    const long long v = std::strtoll(cell.text.c_str(), nullptr, 10);
    if (errno == 0) {
      cell.type = DataType::Int64();
      cell.value = static_cast<int64_t>(v);
    } else if (ParseDouble(text, &d)) {
      cell.type = DataType::Double();
      cell.value = d;
    } else {
      cell.type = DataType::String();
      cell.value = cell.text;
    }
  } else if (LooksDecimal(text) && ParseDouble(text, &d)) {
    cell.type = DataType::Double();
    cell.value = d;
  } else if (ParseIsoDatetime(text, &micros)) {
    cell.type = DataType::TimestampUs();
    cell.value = TimestampUs{micros};
  } else {
    cell.type = DataType::String();
    cell.value = cell.text;
  }
  return cell;
}

MetadataCell CellFromJson(const nlohmann::ordered_json& value) {
  MetadataCell cell;
  cell.text = value.is_string() ? value.get<std::string>() : value.dump();
  int64_t micros = 0;
  switch (value.type()) {
    case nlohmann::ordered_json::value_t::boolean:
      cell.type = DataType::Bool();
      cell.value = value.get<bool>();
      break;
    case nlohmann::ordered_json::value_t::number_integer:
      cell.type = DataType::Int64();
      cell.value = value.get<int64_t>();
      break;
    case nlohmann::ordered_json::value_t::number_unsigned: {
      const uint64_t u = value.get<uint64_t>();
      if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        cell.type = DataType::Int64();
        cell.value = static_cast<int64_t>(u);
      } else {
        cell.type = DataType::Double();
        cell.value = static_cast<double>(u);
      }
      break;
    }
    case nlohmann::ordered_json::value_t::number_float:
      cell.type = DataType::Double();
      cell.value = value.get<double>();
      break;
    case nlohmann::ordered_json::value_t::string:
      if (ParseIsoDatetime(cell.text, &micros)) {
        cell.type = DataType::TimestampUs();
        cell.value = TimestampUs{micros};
      } else {
        cell.type = DataType::String();
        cell.value = cell.text;
      }
      break;
    case nlohmann::ordered_json::value_t::array: {
      std::vector<MetadataCell> items;
      DataType item_type = DataType::Null();
      bool mixed = false;
      for (const auto& element : value) {
        if (element.is_null()) {
          items.push_back(MetadataCell{});
          continue;
        }
        items.push_back(CellFromJson(element));
        mixed = mixed || items.back().mixed;
        item_type = UnifyTypes(item_type, items.back().type, &mixed);
      }
      cell.mixed = mixed;
      ValueList list;
      list.reserve(items.size());
      for (const MetadataCell& item : items) list.push_back(CastCell(item, item_type));
      cell.type = DataType::List(item_type);
      cell.value = std::move(list);
      break;
    }
    case nlohmann::ordered_json::value_t::object: {
      std::vector<std::pair<std::string, DataType>> fields;
      ValueStruct out;
      for (const auto& [key, element] : value.items()) {
        if (element.is_null()) {
          fields.emplace_back(key, DataType::Null());
          out.emplace_back(key, Value());
          continue;
        }
        MetadataCell inner = CellFromJson(element);
        cell.mixed = cell.mixed || inner.mixed;
        fields.emplace_back(key, inner.type);
        out.emplace_back(key, std::move(inner.value));
      }
      cell.type = DataType::Struct(std::move(fields));
      cell.value = std::move(out);
      break;
    }
    default:  // null and binary: not produced by the parser for non-null cells
      cell.type = DataType::String();
      cell.value = cell.text;
      break;
  }
  return cell;
}

DataType UnifyTypes(const DataType& a, const DataType& b, bool* conflict) {
  if (a.id == TypeId::kNull) return b;
  if (b.id == TypeId::kNull || a == b) return a;
  if (IsNumeric(a.id) && IsNumeric(b.id)) {
    const bool a_int = a.id == TypeId::kInt32 || a.id == TypeId::kInt64;
    const bool b_int = b.id == TypeId::kInt32 || b.id == TypeId::kInt64;
    if (a_int && b_int) return DataType::Int64();
    return DataType::Double();
  }
  if (a.id == TypeId::kList && b.id == TypeId::kList) return DataType::List(UnifyTypes(a.item(), b.item(), conflict));
  if (a.id == TypeId::kStruct && b.id == TypeId::kStruct) {
    std::vector<std::pair<std::string, DataType>> fields = a.children;
    for (const auto& [name, type] : b.children) {
      bool found = false;
      for (auto& field : fields) {
        if (field.first == name) {
          field.second = UnifyTypes(field.second, type, conflict);
          found = true;
        }
      }
      if (!found) fields.emplace_back(name, type);
    }
    return DataType::Struct(std::move(fields));
  }
  if (conflict != nullptr) *conflict = true;
  return DataType::String();
}

Value CastCell(const MetadataCell& cell, const DataType& type) {
  return CastValue(cell.value, cell.type, type, &cell.text);
}

Result<std::vector<CsvRecord>> ParseCsv(std::string_view text, const std::string& file) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<CsvRecord> records;
  size_t line = 1;
  size_t i = 0;
  while (i < text.size()) {
    CsvRecord record;
    record.line = line;
    bool end_of_record = false;
    while (!end_of_record) {
      std::string field;
      if (i < text.size() && text[i] == '"') {
        const size_t start_line = line;
        ++i;
        bool closed = false;
        while (i < text.size()) {
          const char c = text[i++];
          if (c == '"') {
            if (i < text.size() && text[i] == '"') {
              field.push_back('"');
              ++i;
            } else {
              closed = true;
              break;
            }
          } else {
            if (c == '\n') ++line;
            field.push_back(c);
          }
        }
        if (!closed) {
          return Status::InvalidArgument(file + ":" + std::to_string(start_line) + ": unterminated quoted field");
        }
        if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          return Status::InvalidArgument(file + ":" + std::to_string(line) +
                                         ": unexpected character after a closing quote");
        }
      } else {
        while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') field.push_back(text[i++]);
      }
      record.fields.push_back(std::move(field));
      if (i >= text.size()) {
        end_of_record = true;
      } else if (text[i] == ',') {
        ++i;
      } else {  // '\n', "\r\n" or a lone '\r'
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        ++i;
        ++line;
        end_of_record = true;
      }
    }
    const bool blank = record.fields.size() == 1 && record.fields[0].empty();
    if (!blank) records.push_back(std::move(record));
  }
  return records;
}

}  // namespace taco::write
