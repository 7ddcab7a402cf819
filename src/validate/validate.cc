// Validate(): opens the container, loads the level tables and COLLECTION.json, runs every
// check of checks.h and collects the report.
#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "format/container.h"
#include "io/location.h"
#include "read/lazy_engine.h"
#include "table/engine.h"
#include "table/parquet_crc.h"
#include "table/parquet_reader.h"
#include "taco/dataset.h"
#include "taco/model.h"
#include "taco/validate.h"
#include "util/exception_guard.h"
#include "util/json_text.h"
#include "util/memory_budget.h"
#include "validate/checks.h"
#include "validate/container.h"
#include "validate/legacy_checks.h"
#include "validate/reporter.h"
#include "validate/tiff_profile.h"

namespace taco {

uint64_t ValidationReport::total() const {
  uint64_t n = violations.size();
  for (const auto& [rule, count] : omitted) n += count;
  return n;
}

namespace validate {
namespace {

struct Levels {
  std::vector<Table> tables;
  int members = 0;        // contiguous METADATA/level{i}.parquet members present from 0
  bool complete = false;  // every present level member was read
  // A level whose rows do not fit the memory budget (util/memory_budget.h): the file may be
  // fine, so it is not reported as unreadable; validation stops with this error instead.
  Status over_budget;
};

Levels LoadLevels(const Container& container, const std::function<table::Engine&()>& engine, Reporter& rep) {
  Levels out;
  while (out.members < kMaxLevels &&
         (container.Find(LevelMember(out.members)) || !container.Outside(LevelMember(out.members)).empty())) {
    ++out.members;  // a level that leaves the dataset is reported when it is opened
  }
  if (out.members == 0) {
    rep.Add("missing-member", LevelMember(0), std::string("no ") + (container.is_zip() ? "member" : "file"),
            "the level0 table (FORMAT 2, 12)");
    return out;
  }
  for (int i = 0; i < out.members; ++i) {
    if (std::string outside = container.Outside(LevelMember(i)); !outside.empty()) {
      rep.Add("outside-link", LevelMember(i), outside,
              "a file inside the dataset directory (readers refuse links out of it)");
      return out;
    }
    auto reader = container.OpenMember(LevelMember(i));
    if (reader.ok()) {  // FOLDER levels have no other checksum; a ZIP's are also member-crc checked
      if (ReportParquetPages(table::VerifyParquetPageCrcs(**reader), (*reader)->name(), LevelMember(i), rep)) {
        return out;
      }
    }
    Result<Table> table = reader.ok() ? table::ReadSmallParquet(engine, *reader) : Result<Table>(reader.status());
    if (!table.ok() && util::IsOverMemoryBudget(table.status())) {
      out.over_budget = table.status().WithPrefix("cannot validate every row");
      return out;
    }
    if (!table.ok()) {
      rep.Add("unreadable-member", LevelMember(i), table.status().message(), "a Parquet table");
      return out;
    }
    out.tables.push_back(std::move(*table));
  }
  out.complete = true;
  return out;
}

std::optional<nlohmann::ordered_json> LoadCollection(const Container& container, Reporter& rep) {
  const std::string name(kCollectionMember);
  if (std::string outside = container.Outside(name); !outside.empty()) {
    rep.Add("outside-link", name, outside, "a file inside the dataset directory (readers refuse links out of it)");
    return std::nullopt;
  }
  if (!container.Find(name)) {
    rep.Add("missing-member", name, std::string("no ") + (container.is_zip() ? "member" : "file"),
            "COLLECTION.json with the collection fields");
    return std::nullopt;
  }
  auto reader = container.OpenMember(name);
  Result<std::string> bytes = reader.ok() ? (*reader)->ReadAll() : Result<std::string>(reader.status());
  if (!bytes.ok()) {
    rep.Add("unreadable-member", name, bytes.status().message(), "a JSON object");
    return std::nullopt;
  }
  auto parsed = util::ParseJsonText(*bytes, name);
  if (!parsed.ok()) {
    // "<name>: is not valid UTF-8 (byte 0xFF at line 2, column 12)" → the part after the name.
    const std::string& why = parsed.status().message();
    rep.Add("collection-json", name, "text that " + why.substr(std::min(why.size(), name.size() + 2)), "a JSON object");
    return std::nullopt;
  }
  nlohmann::ordered_json j = std::move(*parsed);
  if (!j.is_object()) {
    rep.Add("collection-json", name, std::string("a JSON ") + j.type_name(), "a JSON object");
    return std::nullopt;
  }
  return j;
}

}  // namespace

Result<ContainerOutcome> ValidateContainer(const std::string& path, DatasetFormat format,
                                           const ValidateOptions& options) {
  Reporter rep(options.max_per_rule);
  std::unique_ptr<Container> container;
  ZipContainer* zip = nullptr;
  std::optional<ZipHeaderInfo> header;
  if (!format::Container::For(format).is_tree()) {  // a TACO ZIP
    // The CRC pass reads every byte: a local ZIP's local headers are resolved there.
    TACO_ASSIGN_OR_RETURN(auto opened, ZipContainer::Open(path, /*defer_data_offsets=*/options.check_data));
    header = CheckZipStructure(*opened, rep);
    zip = opened.get();
    container = std::move(opened);
  } else if (!io::Location::Of(path).is_local_filesystem()) {  // no listing: the levels COLLECTION.json names
    TACO_ASSIGN_OR_RETURN(container, RemoteFolderContainer::Open(path));
  } else {
    TACO_ASSIGN_OR_RETURN(container, FolderContainer::Open(path));
  }
  // DuckDB starts only for a Parquet file the decoder leaves to it (most datasets: never).
  read::LazyEngine lazy;
  const std::function<table::Engine&()> engine = [&lazy]() -> table::Engine& { return *lazy; };

  Levels levels = LoadLevels(*container, engine, rep);
  if (zip != nullptr && !levels.over_budget.ok()) {
    TACO_RETURN_IF_ERROR(zip->ResolveDataOffsets());  // a damaged local header first, as when found at Open
  }
  TACO_RETURN_IF_ERROR(levels.over_budget);
  if (header) CheckHeaderPairs(*zip, *header, levels.members, rep);
  if (header && options.check_data) {
    // A header already reported as wrong is not reported a second time for its CRC.
    const bool header_reported = rep.count("zip-header") + rep.count("header-pairs") > 0;
    if (!CheckMemberCrcs(*zip, header_reported, rep, options.progress)) {
      TACO_RETURN_IF_ERROR(zip->ResolveDataOffsets());
      CheckMemberCrcs(*zip, header_reported, rep, options.progress);  // a header read failed once only
    }
  }
  if (zip != nullptr) TACO_RETURN_IF_ERROR(zip->ResolveDataOffsets());  // no-op unless deferred
  std::optional<nlohmann::ordered_json> collection = LoadCollection(*container, rep);

  References referenced;
  if (container->is_zip())
    referenced.entries.assign(static_cast<const ZipContainer&>(*container).entries().size(), false);
  for (int i = 0; i < levels.members; ++i) referenced.names.insert(LevelMember(i));
  if (!levels.tables.empty()) {
    Tree tree = CheckLevels(levels.tables, container->is_zip(), rep);
    CheckStatsValues(levels.tables, tree, rep);
    CheckMembers(*container, engine, levels.tables, tree, rep, &referenced);
  }
  CheckCollection(collection, levels.tables, levels.complete, rep);
  // Without every level, DATA members cannot be attributed: skip the unreferenced check.
  if (levels.complete && container->listable()) CheckUnreferenced(*container, referenced, rep);

  TACO_RETURN_IF_ERROR(container->LookupFailure());
  ContainerOutcome out;
  if (!container->listable()) {
    out.report.notes.push_back("unreferenced-member not checked: a remote FOLDER cannot be listed");
  }
  if (!container->local()) {
    out.report.notes.push_back("file-size not checked: it reads every sample's TIFF header (one request each)");
  }
  out.report.path = path;
  out.report.format = std::string(DatasetFormatName(format));
  rep.MoveInto(&out.report);
  out.levels = std::move(levels.tables);
  return out;
}

namespace {

Result<ValidationReport> Run(const std::string& path, const ValidateOptions& options) {
  TACO_ASSIGN_OR_RETURN(DatasetFormat format, DetectFormat(path));
  // Validation's one pick of a container's rules, as Dataset::Open's is for reading.
  switch (format) {
    case DatasetFormat::kLegacy: return ValidateLegacy(path, options);  // spec/LEGACY.md §12.3
    case DatasetFormat::kTacocat: return ValidateTacocat(path, options);
    case DatasetFormat::kZip:
    case DatasetFormat::kFolder: break;
  }
  TACO_ASSIGN_OR_RETURN(ContainerOutcome out, ValidateContainer(path, format, options));
  return std::move(out.report);
}

}  // namespace
}  // namespace validate

Result<ValidationReport> Validate(const std::string& path, const ValidateOptions& options) {
  // The library boundary: nothing a dependency throws escapes (util/exception_guard.h).
  return util::GuardExceptions(path, [&]() -> Result<ValidationReport> {
    auto report = validate::Run(path, options);
    if (report.ok() && options.tiff_profile) {
      TACO_RETURN_IF_ERROR(validate::CheckTiffProfile(path, options, *report));
    }
    return report;
  });
}

}  // namespace taco
