// The TACO dataset tree (FORMAT §1, §2): where COLLECTION.json, the level Parquet files, the
// samples and a FOLDER sample's `__meta__` are, relative to the dataset root. A FOLDER dataset
// holds these as files under its directory; a TACO ZIP holds the same names as members.
//
// Contract: constants and pure string functions only; no I/O.
#ifndef TACO_FORMAT_FOLDER_FOLDER_LAYOUT_H_
#define TACO_FORMAT_FOLDER_FOLDER_LAYOUT_H_

#include <string>
#include <string_view>

namespace taco::format {

inline constexpr std::string_view kCollectionFile = "COLLECTION.json";
inline constexpr std::string_view kMetadataDir = "METADATA/";
inline constexpr std::string_view kDataDir = "DATA/";
inline constexpr std::string_view kMetaFile = "__meta__";

// "METADATA/level<level>.parquet".
inline std::string LevelFile(int level) {
  return std::string(kMetadataDir) + "level" + std::to_string(level) + ".parquet";
}

}  // namespace taco::format

#endif  // TACO_FORMAT_FOLDER_FOLDER_LAYOUT_H_
