#include "values.h"

#include <climits>
#include <cstdint>
#include <string_view>

#include <nanobind/stl/string.h>

#include "errors.h"

namespace nb = nanobind;

namespace taco::py {
namespace {

[[noreturn]] void Mismatch(const std::string& where, const DataType& type, nb::handle obj) {
  std::string got = nb::type_name(obj.type()).c_str();
  throw StatusError(StatusCode::kInvalidArgument,
                    where + ": expected a value of type " + type.ToString() + ", got " + got);
}

bool IsBool(nb::handle obj) { return PyBool_Check(obj.ptr()); }
bool IsInt(nb::handle obj) { return PyLong_Check(obj.ptr()) && !IsBool(obj); }

int64_t ToInt64(nb::handle obj, const std::string& where, const DataType& type) {
  if (!IsInt(obj)) {
    // numpy integers and other objects with __index__
    if (IsBool(obj) || !PyIndex_Check(obj.ptr())) Mismatch(where, type, obj);
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    throw StatusError(StatusCode::kInvalidArgument, where + ": integer out of the range of " + type.ToString());
  }
  return static_cast<int64_t>(v);
}

}  // namespace

DataType ParseType(const std::string& text) { return Take(ParseDataType(text)); }

Value ToValue(nb::handle obj, const DataType& type, const std::string& where) {
  if (obj.is_none()) return Value();
  switch (type.id) {
    case TypeId::kNull: Mismatch(where, type, obj);
    case TypeId::kBool:
      if (!IsBool(obj)) {
        // numpy.bool_
        if (std::string_view(nb::type_name(obj.type()).c_str()) != "numpy.bool_") Mismatch(where, type, obj);
      }
      return Value(PyObject_IsTrue(obj.ptr()) == 1);
    case TypeId::kInt32: {
      int64_t v = ToInt64(obj, where, type);
      if (v < INT32_MIN || v > INT32_MAX) {
        throw StatusError(StatusCode::kInvalidArgument, where + ": integer out of the range of int32");
      }
      return Value(static_cast<int32_t>(v));
    }
    case TypeId::kInt64: return Value(ToInt64(obj, where, type));
    case TypeId::kFloat:
    case TypeId::kDouble: {
      if (IsBool(obj) || !(PyFloat_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || PyNumber_Check(obj.ptr()))) {
        Mismatch(where, type, obj);
      }
      double d = PyFloat_AsDouble(obj.ptr());
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        Mismatch(where, type, obj);
      }
      if (type.id == TypeId::kFloat) return Value(static_cast<float>(d));
      return Value(d);
    }
    case TypeId::kString:
      if (!nb::isinstance<nb::str>(obj)) Mismatch(where, type, obj);
      return Value(nb::cast<std::string>(obj));
    case TypeId::kBinary: {
      Py_buffer view;
      if (nb::isinstance<nb::str>(obj) || PyObject_GetBuffer(obj.ptr(), &view, PyBUF_SIMPLE) != 0) {
        PyErr_Clear();
        Mismatch(where, type, obj);
      }
      std::string bytes(static_cast<const char*>(view.buf), static_cast<size_t>(view.len));
      PyBuffer_Release(&view);
      return Value(Binary{std::move(bytes)});
    }
    case TypeId::kTimestampUs: return Value(TimestampUs{ToInt64(obj, where, type)});
    case TypeId::kList: {
      if (nb::isinstance<nb::str>(obj) || nb::isinstance<nb::bytes>(obj) || nb::isinstance<nb::dict>(obj) ||
          !PySequence_Check(obj.ptr())) {
        Mismatch(where, type, obj);
      }
      ValueList items;
      size_t i = 0;
      for (nb::handle item : obj) {
        items.push_back(ToValue(item, type.item(), where + "[" + std::to_string(i++) + "]"));
      }
      return Value(std::move(items));
    }
    case TypeId::kStruct: {
      if (!nb::isinstance<nb::dict>(obj)) Mismatch(where, type, obj);
      nb::dict d = nb::borrow<nb::dict>(obj);
      ValueStruct fields;
      for (const auto& [name, field_type] : type.children) {
        nb::str key(name.c_str(), name.size());
        nb::handle v = d.contains(key) ? nb::handle(d[key]) : nb::none();
        fields.emplace_back(name, ToValue(v, field_type, where + "." + name));
      }
      if (nb::len(d) > fields.size()) {
        throw StatusError(StatusCode::kInvalidArgument, where + ": keys that are not fields of " + type.ToString());
      }
      return Value(std::move(fields));
    }
  }
  Mismatch(where, type, obj);
}

nb::object FromValue(const Value& value) {
  const Value::Storage& s = value.storage();
  if (std::holds_alternative<std::monostate>(s)) return nb::none();
  if (const auto* v = std::get_if<bool>(&s)) return nb::bool_(*v);
  if (const auto* v = std::get_if<int32_t>(&s)) return nb::int_(*v);
  if (const auto* v = std::get_if<int64_t>(&s)) return nb::int_(*v);
  if (const auto* v = std::get_if<float>(&s)) return nb::float_(static_cast<double>(*v));
  if (const auto* v = std::get_if<double>(&s)) return nb::float_(*v);
  if (const auto* v = std::get_if<std::string>(&s)) return nb::str(v->data(), v->size());
  if (const auto* v = std::get_if<Binary>(&s)) return nb::bytes(v->bytes.data(), v->bytes.size());
  if (const auto* v = std::get_if<TimestampUs>(&s)) return nb::int_(v->micros);
  if (const auto* v = std::get_if<ValueList>(&s)) {
    nb::list out;
    for (const auto& item : *v) out.append(FromValue(item));
    return out;
  }
  nb::dict out;
  for (const auto& [name, item] : std::get<ValueStruct>(s)) out[nb::str(name.c_str(), name.size())] = FromValue(item);
  return out;
}

}  // namespace taco::py
