// Conversions between Python objects and taco::Value / DataType / JSON text.
//
// Python → Value follows an explicit DataType (the Python layer infers one when the user
// gives none): bool; int (int32 range-checked); float or int for float/double; str; bytes,
// bytearray or memoryview for binary; int microseconds since 1970-01-01 UTC for
// timestamp[us] (the Python layer turns datetime/date into that); any sequence for a list;
// a mapping with the struct's field names for a struct; None for null of any type.
// A mismatch is InvalidArgument naming the field and the expected type.
#ifndef TACO_PYTHON_VALUES_H_
#define TACO_PYTHON_VALUES_H_

#include <string>

#include <nanobind/nanobind.h>

#include "taco/value.h"

namespace taco::py {

Value ToValue(nanobind::handle obj, const DataType& type, const std::string& where);
// Value → Python: timestamps as int microseconds (the Python layer makes datetimes).
nanobind::object FromValue(const Value& value);
// A parsed type, or InvalidArgument thrown.
DataType ParseType(const std::string& text);

}  // namespace taco::py

#endif  // TACO_PYTHON_VALUES_H_
