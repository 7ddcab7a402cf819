// DatasetInfoJson (taco/info.h).
#include "taco/info.h"

#include "taco/legacy.h"

namespace taco {

Result<nlohmann::ordered_json> DatasetInfoJson(Dataset& ds) {
  using nlohmann::ordered_json;
  const ordered_json& c = ds.collection();
  ordered_json j;
  j["format"] = DatasetFormatName(ds.format());
  j["path"] = ds.vsi_root();
  j["id"] = c.value("id", ordered_json());
  // A copy minus two keys: inserting key by key would search the ordered map each time
  // (quadratic in the number of keys).
  ordered_json fields = c.is_object() ? c : ordered_json::object();
  fields.erase("taco:pit_schema");
  fields.erase("taco:field_schema");
  j["collection"] = fields;
  if (!ds.header().empty()) {  // a TACO ZIP (the only container with a TACO_HEADER)
    j["header"] = ordered_json::array();
    for (const auto& h : ds.header()) j["header"].push_back({{"offset", h.offset}, {"length", h.length}});
  }
  if (const LegacyInfo* legacy = ds.legacy()) {
    j["layout"] = legacy->Describe();
    j["parts"] = ordered_json::array();
    for (const LegacyPart& p : legacy->parts) {
      j["parts"].push_back({{"path", p.path},
                            {"size", p.size},
                            {"footer_offset", p.footer_offset},
                            {"footer_length", p.footer_length},
                            {"partitions", p.partitions},
                            {"collection_offset", p.collection_offset},
                            {"collection_length", p.collection_length}});
    }
    j["notes"] = legacy->notes;
  }
  j["levels"] = ordered_json::array();
  for (int i = 0; i < ds.num_levels(); ++i) {
    TACO_ASSIGN_OR_RETURN(LevelInfo level, ds.DescribeLevel(i));
    ordered_json cols = ordered_json::array();
    for (const auto& col : level.columns) cols.push_back({col.name, col.type});
    j["levels"].push_back({{"level", level.level}, {"rows", level.rows}, {"columns", cols}});
  }
  j["pit_schema"] = c.contains("taco:pit_schema") ? c["taco:pit_schema"] : ordered_json();
  j["field_schema"] = c.contains("taco:field_schema") ? c["taco:field_schema"] : ordered_json();
  return j;
}

}  // namespace taco
