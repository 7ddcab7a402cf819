#include "format/container.h"

#include "format/tacocat/tacocat_header.h"

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

namespace {

// `dir` + "/" + `name` ("" + name when `dir` is empty, one '/' when it ends in one).
std::string Join(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

// Everything before the last '/' ("" when there is none, "/" for "/x").
std::string ParentOf(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : p.substr(0, slash);
}

std::string LastComponent(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string LevelName(int level) { return "level" + std::to_string(level) + ".parquet"; }

}  // namespace

std::vector<StoredFile> Container::StoredFiles(const std::string& path, int num_levels) const {
  using Kind = StoredFile::Kind;
  std::vector<StoredFile> out;
  auto levels = [&](const std::string& dir, const std::string& prefix) {
    for (int i = 0; i < num_levels; ++i) out.push_back({Kind::kLevel, Join(dir, LevelName(i)), prefix + LevelName(i)});
  };
  switch (format_) {
    case DatasetFormat::kZip: out.push_back({Kind::kContainerFile, path, LastComponent(path)}); break;
    case DatasetFormat::kFolder:
      out.push_back({Kind::kCollection, Join(path, "COLLECTION.json"), "COLLECTION.json"});
      levels(Join(path, "METADATA"), "METADATA/");
      out.push_back({Kind::kDataTree, Join(path, "DATA"), "DATA/"});
      break;
    case DatasetFormat::kTacocat: {
      const std::string dir_name = std::string(kTacocatDirName);  // ".tacocat"
      std::string base;
      if (LastComponent(path) == kTacocatFileName) {
        base = ParentOf(path);
        out.push_back({Kind::kIndexFile, path, std::string(kTacocatFileName)});
      } else {
        const std::string dir = LastComponent(path) == dir_name ? path : Join(path, dir_name);
        base = ParentOf(dir);
        out.push_back({Kind::kCollection, Join(dir, "COLLECTION.json"), dir_name + "/COLLECTION.json"});
        levels(dir, dir_name + "/");
      }
      out.push_back({Kind::kPartsBeside, base, ""});
      break;
    }
    case DatasetFormat::kLegacy: break;
  }
  return out;
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
