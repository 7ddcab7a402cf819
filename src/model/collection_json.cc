// FieldSchema and BuildCollection: the generated parts of COLLECTION.json (FORMAT §4, §4.2).
#include <string>

#include "model/metadata.h"

namespace taco::model {
namespace {

using nlohmann::ordered_json;

// Fixed descriptions of the core and internal columns (our own wording).
std::string_view FixedDescription(std::string_view name) {
  if (name == "id") return "Sample identifier, unique among its siblings; it is also the sample's file name.";
  if (name == "type") return "Sample kind: FILE (one data file) or FOLDER (a nested set of samples).";
  if (name == kCurrentIdColumn) {
    return "Row number of the sample within this level, from 0; child rows refer to it through "
           "internal:parent_id.";
  }
  if (name == kParentIdColumn) {
    return "Row number (internal:current_id) of the parent sample in the previous level; at level 0 it equals "
           "internal:current_id.";
  }
  if (name == kRelativePathColumn) {
    return "Path of the sample below DATA/: the ids from the root joined by '/', with a trailing '/' for "
           "FOLDER samples.";
  }
  if (name == "internal:offset") return "Byte offset of the sample's data inside the ZIP file.";
  if (name == "internal:size") return "Size of the sample's data in bytes.";
  if (name == "internal:source_file") return "The container file this row comes from (TACOCAT).";
  return {};
}

bool NeverListed(std::string_view name) {
  return name == "internal:offset" || name == "internal:size" || name == "internal:source_file";
}

constexpr const char* kCoreKeys[] = {"id",        "dataset_version", "description", "licenses",
                                     "providers", "tasks",           "taco_version"};
constexpr const char* kOptionalKeys[] = {"title", "curators", "keywords"};

bool IsKnownKey(const std::string& key) {
  for (const char* k : kCoreKeys) {
    if (key == k) return true;
  }
  for (const char* k : kOptionalKeys) {
    if (key == k) return true;
  }
  return key == "extent" || key == "taco:pit_schema" || key == "taco:field_schema";
}

}  // namespace

ordered_json FieldSchema(const std::vector<Table>& levels, const DescriptionMap& descriptions) {
  ordered_json out = ordered_json::object();
  for (size_t i = 0; i < levels.size(); ++i) {
    ordered_json fields = ordered_json::array();
    for (const Column& c : levels[i].columns) {
      if (NeverListed(c.name)) continue;
      std::string description(FixedDescription(c.name));
      if (description.empty()) {
        auto it = descriptions.find(c.name);
        if (it != descriptions.end()) description = it->second;
      }
      fields.push_back(ordered_json::array({c.name, c.type.ToString(), description}));
    }
    out["level" + std::to_string(i)] = std::move(fields);
  }
  return out;
}

Result<ordered_json> BuildCollection(const Taco& taco, const LevelTables& tables) {
  const ordered_json& c = taco.collection();
  ordered_json out = ordered_json::object();
  for (const char* key : kCoreKeys) out[key] = c.contains(key) ? c.at(key) : ordered_json(nullptr);
  if (out["taco_version"].is_null()) out["taco_version"] = std::string(kTacoVersion);
  for (const char* key : kOptionalKeys) out[key] = c.contains(key) ? c.at(key) : ordered_json(nullptr);
  if (c.contains("extent") && !c.at("extent").is_null()) {
    const ordered_json& given = c.at("extent");
    ordered_json extent = ordered_json::object();
    extent["spatial"] = given.at("spatial");
    extent["temporal"] = given.contains("temporal") ? given.at("temporal") : ordered_json(nullptr);
    out["extent"] = std::move(extent);
  } else {
    TACO_ASSIGN_OR_RETURN(out["extent"], ComputeExtent(tables.levels));
  }
  // Appended, not inserted with operator[] (a search of the ordered map per key, quadratic
  // in the number of keys): an unknown key is none of the keys already in `out`.
  ordered_json::object_t& fields = out.get_ref<ordered_json::object_t&>();
  for (const auto& [key, value] : c.items()) {
    if (!IsKnownKey(key)) fields.push_back({key, value});
  }
  out["taco:pit_schema"] = PitSchema(tables.levels);
  out["taco:field_schema"] = FieldSchema(tables.levels, tables.descriptions);
  return out;
}

}  // namespace taco::model
