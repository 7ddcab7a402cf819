// Implementation of schema_util.h.
#include "model/schema_util.h"

#include <algorithm>
#include <variant>

namespace taco::model {
namespace {

std::string_view AlternativeName(const Value& value) {
  struct Visitor {
    std::string_view operator()(const std::monostate&) const { return "null"; }
    std::string_view operator()(bool) const { return "bool"; }
    std::string_view operator()(int32_t) const { return "int32"; }
    std::string_view operator()(int64_t) const { return "int64"; }
    std::string_view operator()(float) const { return "float"; }
    std::string_view operator()(double) const { return "double"; }
    std::string_view operator()(const std::string&) const { return "string"; }
    std::string_view operator()(const Binary&) const { return "binary"; }
    std::string_view operator()(const TimestampUs&) const { return "timestamp[us]"; }
    std::string_view operator()(const ValueList&) const { return "list"; }
    std::string_view operator()(const ValueStruct&) const { return "struct"; }
  };
  return std::visit(Visitor{}, value.storage());
}

bool Matches(const Value& value, const DataType& type, std::string* why) {
  if (value.is_null()) return true;
  bool ok = false;
  switch (type.id) {
    case TypeId::kNull: ok = false; break;
    case TypeId::kBool: ok = value.is<bool>(); break;
    case TypeId::kInt32: ok = value.is<int32_t>(); break;
    case TypeId::kInt64: ok = value.is<int64_t>(); break;
    case TypeId::kFloat: ok = value.is<float>(); break;
    case TypeId::kDouble: ok = value.is<double>(); break;
    case TypeId::kString: ok = value.is<std::string>(); break;
    case TypeId::kBinary: ok = value.is<Binary>(); break;
    case TypeId::kTimestampUs: ok = value.is<TimestampUs>(); break;
    case TypeId::kList: {
      if (!value.is<ValueList>() || type.children.size() != 1) break;
      for (const Value& item : value.get<ValueList>()) {
        if (!Matches(item, type.item(), why)) return false;
      }
      return true;
    }
    case TypeId::kStruct: {
      if (!value.is<ValueStruct>()) break;
      const ValueStruct& fields = value.get<ValueStruct>();
      if (fields.size() != type.children.size()) {
        *why = "struct value has " + std::to_string(fields.size()) + " fields, type " + type.ToString() + " has " +
               std::to_string(type.children.size());
        return false;
      }
      for (size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].first != type.children[i].first) {
          *why = "struct value field " + std::to_string(i) + " is '" + fields[i].first + "', type " + type.ToString() +
                 " expects '" + type.children[i].first + "'";
          return false;
        }
        if (!Matches(fields[i].second, type.children[i].second, why)) return false;
      }
      return true;
    }
  }
  if (!ok) *why = "value is " + std::string(AlternativeName(value)) + ", type is " + type.ToString();
  return ok;
}

}  // namespace

Status CheckValueType(const Value& value, const DataType& type) {
  std::string why;
  if (Matches(value, type, &why)) return Status::OK();
  return Status::InvalidArgument(why);
}

std::string SchemaToString(const Schema& schema) {
  std::string out = "[";
  for (size_t i = 0; i < schema.size(); ++i) {
    if (i > 0) out += ", ";
    out += schema[i].first + ": " + schema[i].second.ToString();
  }
  return out + "]";
}

std::string Quote(std::string_view s) {
  constexpr size_t kMax = 80;
  std::string out;
  out.reserve(std::min(s.size(), kMax) + 5);
  out += '\'';
  out.append(s.substr(0, kMax));
  if (s.size() > kMax) out += "...";
  out += '\'';
  return out;
}

}  // namespace taco::model
