// Implementation of include/taco/value.h: type spelling/parsing and value formatting.
#include "taco/value.h"

#include <charconv>
#include <cstdio>
#include <string_view>

namespace taco {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Splits `s` at commas that are not nested inside <...> or [...].
std::vector<std::string_view> SplitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '<' || c == '[') ++depth;
    if (c == '>' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

Result<DataType> Parse(std::string_view text, std::string_view whole) {
  std::string_view t = Trim(text);
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument("data type \"" + std::string(whole) + "\": " + std::string(why));
  };
  if (t == "null") return DataType::Null();
  if (t == "bool" || t == "boolean") return DataType::Bool();
  if (t == "int32") return DataType::Int32();
  if (t == "int64") return DataType::Int64();
  if (t == "float" || t == "float32") return DataType::Float();
  if (t == "double" || t == "float64") return DataType::Double();
  if (t == "string" || t == "large_string" || t == "utf8") return DataType::String();
  if (t == "binary" || t == "large_binary") return DataType::Binary();
  if (t == "timestamp[us]") return DataType::TimestampUs();
  auto body_of = [&](std::string_view prefix) -> std::string_view {
    if (t.size() > prefix.size() + 1 && t.substr(0, prefix.size()) == prefix && t.back() == '>') {
      return t.substr(prefix.size(), t.size() - prefix.size() - 1);
    }
    return {};
  };
  for (std::string_view prefix : {"list<", "large_list<"}) {
    std::string_view body = body_of(prefix);
    if (body.empty()) continue;
    // "item: T" (PyArrow) or a bare "T".
    size_t colon = body.find(": ");
    std::string_view item = body;
    if (colon != std::string_view::npos && body.substr(0, colon).find_first_of("<[") == std::string_view::npos) {
      item = body.substr(colon + 2);
    }
    TACO_ASSIGN_OR_RETURN(DataType item_type, Parse(item, whole));
    return DataType::List(std::move(item_type));
  }
  std::string_view body = body_of("struct<");
  if (!body.empty()) {
    std::vector<std::pair<std::string, DataType>> fields;
    for (std::string_view part : SplitTopLevel(body)) {
      part = Trim(part);
      // The field name ends at the last ": " before any '<' or '[' of the type.
      size_t limit = part.find_first_of("<[");
      std::string_view head = limit == std::string_view::npos ? part : part.substr(0, limit);
      size_t colon = head.rfind(": ");
      if (colon == std::string_view::npos) return bad("struct field without \"name: type\"");
      TACO_ASSIGN_OR_RETURN(DataType field_type, Parse(part.substr(colon + 2), whole));
      fields.emplace_back(std::string(part.substr(0, colon)), std::move(field_type));
    }
    return DataType::Struct(std::move(fields));
  }
  if (t == "struct<>") return DataType::Struct({});
  return bad("unknown or unsupported type");
}

template <typename T>
std::string ShortestNumber(T v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  if (ec != std::errc()) return "?";
  return std::string(buf, end);
}

}  // namespace

std::string DataType::ToString() const {
  switch (id) {
    case TypeId::kNull: return "null";
    case TypeId::kBool: return "bool";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kString: return "string";
    case TypeId::kBinary: return "binary";
    case TypeId::kTimestampUs: return "timestamp[us]";
    case TypeId::kList: return "list<item: " + (children.empty() ? std::string("null") : item().ToString()) + ">";
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) out += ", ";
        out += children[i].first + ": " + children[i].second.ToString();
      }
      return out + ">";
    }
  }
  return "null";
}

bool DataType::operator==(const DataType& other) const {
  if (id != other.id || children.size() != other.children.size()) return false;
  for (size_t i = 0; i < children.size(); ++i) {
    // List item names are not part of the type's identity ("item" vs "element").
    if (id == TypeId::kStruct && children[i].first != other.children[i].first) return false;
    if (!(children[i].second == other.children[i].second)) return false;
  }
  return true;
}

Result<DataType> ParseDataType(std::string_view text) { return Parse(text, text); }

std::string FormatTimestampUs(int64_t micros) {
  constexpr int64_t kPerSecond = 1000000;
  constexpr int64_t kPerDay = 86400 * kPerSecond;
  int64_t days = micros / kPerDay;
  int64_t rem = micros % kPerDay;
  if (rem < 0) {
    rem += kPerDay;
    --days;
  }
  // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
  int64_t z = days + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int64_t d = doy - (153 * mp + 2) / 5 + 1;
  int64_t m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
  int64_t secs = rem / kPerSecond;
  int64_t frac = rem % kPerSecond;
  char buf[64];
  int n = std::snprintf(buf, sizeof(buf), "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld", static_cast<long long>(y),
                        static_cast<long long>(m), static_cast<long long>(d), static_cast<long long>(secs / 3600),
                        static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
  std::string out(buf, static_cast<size_t>(n));
  if (frac != 0) {
    std::snprintf(buf, sizeof(buf), ".%06lld", static_cast<long long>(frac));
    out += buf;
  }
  return out;
}

std::string Value::ToString() const {
  struct Visitor {
    std::string operator()(std::monostate) const { return "null"; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(int32_t v) const { return std::to_string(v); }
    std::string operator()(int64_t v) const { return std::to_string(v); }
    std::string operator()(float v) const { return ShortestNumber(v); }
    std::string operator()(double v) const { return ShortestNumber(v); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const Binary& b) const {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string out;
      out.reserve(b.bytes.size() * 2);
      for (unsigned char c : b.bytes) {
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
      return out;
    }
    std::string operator()(const TimestampUs& t) const { return FormatTimestampUs(t.micros); }
    std::string operator()(const ValueList& list) const {
      std::string out = "[";
      for (size_t i = 0; i < list.size(); ++i) {
        if (i > 0) out += ", ";
        out += list[i].ToString();
      }
      return out + "]";
    }
    std::string operator()(const ValueStruct& fields) const {
      std::string out = "{";
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += fields[i].first + ": " + fields[i].second.ToString();
      }
      return out + "}";
    }
  };
  return std::visit(Visitor{}, v_);
}

int Table::FindColumn(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace taco
