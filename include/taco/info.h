// What `taco info --json` prints for an opened dataset, as one JSON object, shared by the CLI
// and the Python package (taco_cpp.info, TacoDataset.info()).
//
// Contract: keys in this order: format, path, id, collection (COLLECTION.json without
// taco:pit_schema / taco:field_schema), header (ZIP only: the TACO_HEADER pairs), layout /
// parts / notes (Tortilla / TACO v1 only, taco/legacy.h), levels (level, rows, columns as
// [name, type] pairs), pit_schema and field_schema (null when absent). A level that cannot be
// described is the error.
#ifndef TACO_INFO_H_
#define TACO_INFO_H_

#include <nlohmann/json.hpp>

#include "taco/dataset.h"
#include "taco/status.h"

namespace taco {

Result<nlohmann::ordered_json> DatasetInfoJson(Dataset& ds);

}  // namespace taco

#endif  // TACO_INFO_H_
