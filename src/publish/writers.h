// The writers: each a function of the publication model (model.h) returning the document text.
//
// Contract: a writer that misses a field its standard requires (and that neither the collection
// nor the sidecar gives) returns InvalidArgument "<file>: <standard> requires <field> ...: <how to
// give it>"; it never writes null, "None" or a default year. Output is deterministic for a model.
#ifndef TACO_SRC_PUBLISH_WRITERS_H_
#define TACO_SRC_PUBLISH_WRITERS_H_

#include <string>

#include <nlohmann/json.hpp>

#include "publish/model.h"
#include "taco/status.h"

namespace taco::publish {

Result<std::string> WriteStacCollection(const Model& m);        // stac-collection.json
Result<nlohmann::ordered_json> BuildCroissant(const Model& m);  // croissant.json as JSON
Result<std::string> WriteCroissant(const Model& m);
Result<std::string> WriteDataciteXml(const Model& m);   // datacite.xml
Result<std::string> WriteDataciteJson(const Model& m);  // datacite.json
Result<std::string> WriteHfCard(const Model& m);        // README.md
Result<std::string> WriteHtmlPage(const Model& m);      // index.html

// Missing required fields as one message ("a; b"), or OK.
Status MissingFields(const std::string& file, const std::string& standard, const std::vector<std::string>& missing);

}  // namespace taco::publish

#endif  // TACO_SRC_PUBLISH_WRITERS_H_
