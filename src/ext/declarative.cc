// Declarative sample extensions: Scaling and Split (FORMAT §7.4).
#include <cmath>
#include <string>
#include <vector>

#include "taco/extensions.h"

namespace taco::ext {

std::vector<Field> ScalingSchema() {
  return {
      Field{"scaling:scale_factor", DataType::Float(), Value(),
            "Multiply stored values by this to get physical values"},
      Field{"scaling:scale_offset", DataType::Float(), Value(), "Add this after scaling to get physical values"},
      Field{"scaling:padding", DataType::List(DataType::Int32()), Value(),
            "Padding in pixels [top, right, bottom, left]"},
  };
}

Result<std::vector<Field>> Scaling(float scale_factor, float scale_offset, std::array<int32_t, 4> padding) {
  if (!std::isfinite(scale_factor) || scale_factor == 0.0f) {
    return Status::InvalidArgument("scaling:scale_factor: must be finite and non-zero, got " +
                                   std::to_string(scale_factor));
  }
  if (!std::isfinite(scale_offset)) {
    return Status::InvalidArgument("scaling:scale_offset: must be finite");
  }
  ValueList pad;
  for (int32_t p : padding) {
    if (p < 0) return Status::InvalidArgument("scaling:padding: values must be >= 0, got " + std::to_string(p));
    pad.emplace_back(p);
  }
  std::vector<Field> fields = ScalingSchema();
  fields[0].value = scale_factor;
  fields[1].value = scale_offset;
  fields[2].value = std::move(pad);
  return fields;
}

std::vector<Field> SplitSchema() {
  return {Field{"split", DataType::String(), Value(), "Dataset split: train, test or validation"}};
}

Result<std::vector<Field>> Split(std::string_view split) {
  if (split != "train" && split != "test" && split != "validation") {
    return Status::InvalidArgument("split: must be one of train, test, validation; got '" + std::string(split) + "'");
  }
  std::vector<Field> fields = SplitSchema();
  fields[0].value = std::string(split);
  return fields;
}

}  // namespace taco::ext
