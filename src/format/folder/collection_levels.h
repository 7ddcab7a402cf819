// The levels a folder-shaped dataset (a FOLDER dataset, a `.tacocat/` folder) has, as its
// COLLECTION.json names them (FORMAT §4.2 taco:pit_schema): the levels 0..max_depth, where
// max_depth is the largest numeric key of taco:pit_schema's `hierarchy` (0 when there is no
// pit_schema or no hierarchy). A remote directory cannot be listed, so these are the level
// files its open declares (io/object_folder.h).
//
// Contract: pure work on the JSON text, no I/O. Corruption naming `name` for JSON that is not
// an object, a hierarchy key that is not a level number, or a key above 5.
#ifndef TACO_FORMAT_FOLDER_COLLECTION_LEVELS_H_
#define TACO_FORMAT_FOLDER_COLLECTION_LEVELS_H_

#include <string>

#include "taco/status.h"

namespace taco::format {

Result<int> PitSchemaMaxDepth(const std::string& collection_json, const std::string& name);

}  // namespace taco::format

#endif  // TACO_FORMAT_FOLDER_COLLECTION_LEVELS_H_
