// PitSchemaMaxDepth(): see collection_levels.h.
#include "format/folder/collection_levels.h"

#include <algorithm>
#include <cctype>
#include <string>

#include <nlohmann/json.hpp>

#include "format/tacocat/tacocat_header.h"
#include "util/json_text.h"

namespace taco::format {

Result<int> PitSchemaMaxDepth(const std::string& collection_json, const std::string& name) {
  TACO_ASSIGN_OR_RETURN(const nlohmann::ordered_json j, util::ParseJsonText(collection_json, name));
  if (!j.is_object()) return Status::Corruption(name + ": not a JSON object");
  const auto pit = j.find("taco:pit_schema");
  if (pit == j.end() || !pit->is_object()) return 0;
  const auto hierarchy = pit->find("hierarchy");
  if (hierarchy == pit->end() || !hierarchy->is_object()) return 0;
  int max_depth = 0;
  for (auto it = hierarchy->begin(); it != hierarchy->end(); ++it) {
    const std::string& key = it.key();
    const bool numeric = !key.empty() && key.size() <= 2 && std::all_of(key.begin(), key.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    if (!numeric) {
      return Status::Corruption(name + ": taco:pit_schema hierarchy key '" + key + "' is not a level number");
    }
    const int depth = std::stoi(key);
    if (depth > kTacocatMaxLevels - 1) {
      return Status::Corruption(name + ": taco:pit_schema names level " + key + " (at most 5)");
    }
    max_depth = std::max(max_depth, depth);
  }
  return max_depth;
}

}  // namespace taco::format
