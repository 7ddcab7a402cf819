#include "format/container.h"

namespace taco::format {

const Container& Container::For(DatasetFormat format) {
  static const Container zip(DatasetFormat::kZip, SampleAddress::kContainerRange, LevelLocation::kContainerRange);
  static const Container folder(DatasetFormat::kFolder, SampleAddress::kTreeFile, LevelLocation::kTreeFile);
  static const Container tacocat(DatasetFormat::kTacocat, SampleAddress::kSourceFileRange, LevelLocation::kEngineOnly);
  static const Container legacy(DatasetFormat::kLegacy, SampleAddress::kSourceFileRange, LevelLocation::kEngineOnly);
  switch (format) {
    case DatasetFormat::kZip: return zip;
    case DatasetFormat::kFolder: return folder;
    case DatasetFormat::kTacocat: return tacocat;
    case DatasetFormat::kLegacy: return legacy;
  }
  return zip;
}

std::vector<std::string> Container::NavigationColumns() const {
  switch (address_) {
    case SampleAddress::kContainerRange:
      return {"id", "type", "internal:current_id", "internal:offset", "internal:size"};
    case SampleAddress::kTreeFile: return {"id", "type", "internal:current_id"};
    case SampleAddress::kSourceFileRange:
      return {"id", "type", "internal:current_id", "internal:offset", "internal:size", "internal:source_file"};
  }
  return {};
}

std::vector<std::string> Container::CriticalColumns(int level) const {
  std::vector<std::string> out = {"id", "type"};
  if (address_ == SampleAddress::kTreeFile) {
    if (level > 0) out.insert(out.end(), {"internal:parent_id", "internal:relative_path"});
  } else {
    out.insert(out.end(), {"internal:offset", "internal:size"});
    if (level > 0) out.push_back("internal:parent_id");
    if (address_ == SampleAddress::kSourceFileRange) out.push_back("internal:source_file");
  }
  return out;
}

std::string Container::SamplePathExpression(int level, const SamplePathSql& sql) const {
  auto when_id_ok = [&](const std::string& expr) {
    return "CASE WHEN " + sql.id + " IS NOT NULL THEN " + expr + " END";
  };
  switch (address_) {
    case SampleAddress::kContainerRange: return when_id_ok(sql.subfile + " || " + sql.root);
    case SampleAddress::kSourceFileRange:
      return when_id_ok(sql.subfile + " || " + sql.root + " || '/' || " + sql.source_file);
    case SampleAddress::kTreeFile: {
      // A FOLDER sample is read through its `__meta__` (folder_layout.h).
      const std::string data = sql.root + " || '/DATA/'";
      if (level == 0) {
        return "CASE type WHEN 'FILE' THEN " + data + " || " + sql.id + " WHEN 'FOLDER' THEN " + data + " || " +
               sql.id + " || '/__meta__' END";
      }
      return when_id_ok("CASE type WHEN 'FILE' THEN " + data + " || " + sql.relative_path + " WHEN 'FOLDER' THEN " +
                        data + " || " + sql.relative_path + " || '__meta__' END");
    }
  }
  return "NULL";
}

}  // namespace taco::format
