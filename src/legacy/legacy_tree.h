// The in-memory form of a legacy tortilla to write (src/legacy), and the mappings between
// it, TACO 2.0 trees and collections (spec/LEGACY.md §13).
//
// Contract: an Item is either data (exactly one of file_path / bytes / reader range) or a
// nested Tortilla (`nested`); `columns` are its extra footer columns (not tortilla:id,
// file_format, offset, length). Mapping functions never read sample data except to ask GDAL
// which driver recognises a FILE (format detection).
#ifndef TACO_LEGACY_LEGACY_TREE_H_
#define TACO_LEGACY_LEGACY_TREE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/io.h"
#include "taco/legacy.h"
#include "taco/model.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco::legacy {

struct Node;

struct Item {
  std::string id;
  std::string format;  // GDAL driver, BYTES or TORTILLA
  std::string file_path;
  std::shared_ptr<const std::string> bytes;
  RangeReaderPtr reader;
  uint64_t offset = 0;
  uint64_t size = 0;  // data items: bytes of data
  std::shared_ptr<Node> nested;
  std::vector<Field> columns;
};

struct Node {
  std::vector<Item> items;
};

// TACO 2.0 → legacy (LEGACY.md §13 backwards; see taco/legacy.h WriteLegacy). `invented`
// lists 2.0 columns a conversion from v1 invented (dropped again).
Result<Node> NodeFromTaco(const Taco& taco, const std::set<std::string>& invented, std::vector<std::string>& notes);

// Writes `root` (P3) at `output` or as parts (see WriteLegacy); `collection_json` is appended
// to every file for TACO v1.
Result<std::vector<std::string>> WriteNode(const Node& root, const std::string& output,
                                           const LegacyWriteOptions& options, const std::string& collection_json);

// The GDAL short driver name that recognises the bytes of `sample`, or "BYTES".
std::string DetectFileFormat(const Sample& sample);

// "POINT (x y)" with Python's repr of each float (what pytortilla wrote).
std::string WktPoint(double x, double y);

// v1 COLLECTION ↔ TACO 2.0 collection fields (LEGACY.md §13.3). FromV1 returns the 2.0
// fields (no legacy:* keys) and lists what it invented or could not map in `notes`.
nlohmann::ordered_json CollectionFromV1(const nlohmann::ordered_json& v1, std::vector<std::string>* notes);

}  // namespace taco::legacy

#endif  // TACO_LEGACY_LEGACY_TREE_H_
