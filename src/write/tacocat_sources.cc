// Opening the input ZIPs of a TACOCAT / TACOLLECTION (their TACO_HEADER and COLLECTION.json).
#include <filesystem>
#include <set>
#include <string>

#include "format/zip/taco_header.h"
#include "util/json_text.h"
#include "write/tacocat_internal.h"

namespace taco::write {

Result<std::vector<TacocatSource>> SourcesFromPaths(const std::vector<std::string>& inputs) {
  if (inputs.empty()) return Status::InvalidArgument("no input datasets given");
  std::vector<TacocatSource> sources;
  std::set<std::string> names;
  for (const std::string& input : inputs) {
    std::string trimmed = input;
    while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
    std::string name = std::filesystem::path(trimmed).filename().string();
    if (name.empty()) return Status::InvalidArgument(input + ": not a file name");
    if (!names.insert(name).second) {
      return Status::InvalidArgument(input + ": another input has the same file name '" + name +
                                     "' (internal:source_file must tell them apart)");
    }
    sources.push_back({trimmed, name});
  }
  return sources;
}

Result<OpenedSource> OpenSource(const TacocatSource& source) {
  OpenedSource out;
  out.source = source;
  TACO_ASSIGN_OR_RETURN(out.reader, OpenRangeReader(source.path));
  auto header = zip::ReadTacoHeader(*out.reader);  // errors name the file
  if (!header.ok()) return header.status();
  if (header->entries.size() < 2) {
    return Status::InvalidArgument(source.path + ": TACO_HEADER lists no metadata level (count " +
                                   std::to_string(header->entries.size()) + ")");
  }
  if (header->entries.size() - 1 > static_cast<size_t>(kTacocatMaxLevels)) {
    return Status::Corruption(source.path + ": TACO_HEADER lists more than 6 levels");
  }
  for (size_t i = 0; i + 1 < header->entries.size(); ++i) {
    out.levels.push_back({header->entries[i].offset, header->entries[i].length});
  }
  const auto& last = header->entries.back();
  TACO_ASSIGN_OR_RETURN(std::string json, out.reader->Read(last.offset, static_cast<size_t>(last.length)));
  TACO_ASSIGN_OR_RETURN(out.collection, util::ParseJsonText(json, source.path + ": COLLECTION.json"));
  if (!out.collection.is_object()) return Status::Corruption(source.path + ": COLLECTION.json is not a JSON object");
  return out;
}

}  // namespace taco::write
