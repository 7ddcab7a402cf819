// Internal helpers of src/model: checking a Value against a DataType and describing
// schemas in error messages.
#ifndef TACO_MODEL_SCHEMA_UTIL_H_
#define TACO_MODEL_SCHEMA_UTIL_H_

#include <string>
#include <string_view>

#include "taco/model.h"
#include "taco/value.h"

namespace taco::model {

// OK when `value` is null or holds the alternative of `type` (recursively for list/struct).
// The message says what was found, e.g. "value is string, type is double".
Status CheckValueType(const Value& value, const DataType& type);

// "[cloud_cover: double, location: string]".
std::string SchemaToString(const Schema& schema);

// "'<s>'" with the text shortened to 80 bytes for messages.
std::string Quote(std::string_view s);

}  // namespace taco::model

#endif  // TACO_MODEL_SCHEMA_UTIL_H_
