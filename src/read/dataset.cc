// Dataset::Open for ZIP and FOLDER datasets: metadata only, read in place.
#include "taco/dataset.h"

#include <string>

#include "table/engine.h"
#include "taco/io.h"
#include "zip/taco_header.h"

namespace taco {

// Limits from the spec: at most 6 levels (level0..level5).
static constexpr int kMaxLevels = 6;

struct Dataset::Impl {
  DatasetFormat format = DatasetFormat::kZip;
  std::string path;
  std::string vsi_root;
  nlohmann::ordered_json collection;
  std::vector<HeaderPair> header;
  RangeReaderPtr container;  // ZIP only
  std::unique_ptr<table::Engine> engine;
  int num_levels = 0;

  // Registers `reader` as level `level` (view level<N>_table).
  Status AddLevel(int level, RangeReaderPtr reader) {
    std::string mounted = engine->Mount(std::move(reader), "level" + std::to_string(level) + ".parquet");
    Status st = engine->Execute("CREATE VIEW level" + std::to_string(level) + "_table AS SELECT * FROM read_parquet(" +
                                table::QuoteString(mounted) + ")");
    if (!st.ok()) return st;
    num_levels = std::max(num_levels, level + 1);
    return Status::OK();
  }
};

namespace {

Result<nlohmann::ordered_json> ParseCollection(const std::string& bytes, const std::string& where) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::Corruption(where + ": COLLECTION.json is not valid JSON");
  if (!j.is_object()) return Status::Corruption(where + ": COLLECTION.json is not a JSON object");
  return j;
}

Status OpenZip(Dataset::Impl& d) {
  TACO_ASSIGN_OR_RETURN(d.container, OpenRangeReader(d.path));
  TACO_ASSIGN_OR_RETURN(zip::TacoHeader header, zip::ReadTacoHeader(*d.container));
  if (header.entries.empty()) {
    return Status::Corruption(d.path + ": TACO_HEADER lists no metadata (count is 0)");
  }
  if (header.entries.size() - 1 > static_cast<size_t>(kMaxLevels)) {
    return Status::Corruption(d.path + ": TACO_HEADER lists more than 6 levels");
  }
  for (const auto& e : header.entries) d.header.push_back({e.offset, e.length});

  const auto& last = header.entries.back();
  TACO_ASSIGN_OR_RETURN(std::string json_bytes, d.container->Read(last.offset, last.length));
  TACO_ASSIGN_OR_RETURN(d.collection, ParseCollection(json_bytes, d.path));

  for (size_t i = 0; i + 1 < header.entries.size(); ++i) {
    const auto& e = header.entries[i];
    std::string name = d.path + "/METADATA/level" + std::to_string(i) + ".parquet";
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr member, SubRange(d.container, e.offset, e.length, name));
    TACO_RETURN_IF_ERROR(d.AddLevel(static_cast<int>(i), std::move(member)));
  }
  return Status::OK();
}

Status OpenFolder(Dataset::Impl& d) {
  const std::string root = d.vsi_root + "/";
  auto collection_reader = OpenRangeReader(root + "COLLECTION.json");
  if (!collection_reader.ok()) {
    return Status::NotFound(d.path + ": not a TACO folder dataset: COLLECTION.json is missing");
  }
  TACO_ASSIGN_OR_RETURN(std::string json_bytes, (*collection_reader)->ReadAll());
  TACO_ASSIGN_OR_RETURN(d.collection, ParseCollection(json_bytes, d.path));

  for (int i = 0; i < kMaxLevels; ++i) {
    auto level = OpenRangeReader(root + "METADATA/level" + std::to_string(i) + ".parquet");
    if (!level.ok()) {
      if (i == 0) return Status::NotFound(d.path + ": not a TACO folder dataset: METADATA/level0.parquet is missing");
      break;
    }
    TACO_RETURN_IF_ERROR(d.AddLevel(i, std::move(*level)));
  }
  return Status::OK();
}

}  // namespace

Dataset::Dataset(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Dataset::~Dataset() = default;

Result<std::unique_ptr<Dataset>> Dataset::Open(const std::string& path, const OpenOptions& options) {
  (void)options;
  TACO_ASSIGN_OR_RETURN(DatasetFormat format, DetectFormat(path));
  auto impl = std::make_unique<Impl>();
  impl->format = format;
  impl->path = path;
  impl->vsi_root = ToVsiPath(path);
  TACO_ASSIGN_OR_RETURN(impl->engine, table::Engine::Open());
  switch (format) {
    case DatasetFormat::kZip: TACO_RETURN_IF_ERROR(OpenZip(*impl)); break;
    case DatasetFormat::kFolder: TACO_RETURN_IF_ERROR(OpenFolder(*impl)); break;
    case DatasetFormat::kTacocat:
      return Status::NotSupported(path + ": TACOCAT datasets are not supported yet");
  }
  return std::unique_ptr<Dataset>(new Dataset(std::move(impl)));
}

DatasetFormat Dataset::format() const { return impl_->format; }
const std::string& Dataset::path() const { return impl_->path; }
const std::string& Dataset::vsi_root() const { return impl_->vsi_root; }
const nlohmann::ordered_json& Dataset::collection() const { return impl_->collection; }
const std::vector<HeaderPair>& Dataset::header() const { return impl_->header; }
int Dataset::num_levels() const { return impl_->num_levels; }

Result<LevelInfo> Dataset::DescribeLevel(int level) {
  if (level < 0 || level >= impl_->num_levels) {
    return Status::NotFound(impl_->path + ": level " + std::to_string(level) + " does not exist (levels 0.." +
                            std::to_string(impl_->num_levels - 1) + ")");
  }
  const std::string table = "level" + std::to_string(level) + "_table";
  TACO_ASSIGN_OR_RETURN(Table schema, impl_->engine->Query("SELECT * FROM " + table + " LIMIT 0"));
  TACO_ASSIGN_OR_RETURN(Table count, impl_->engine->Query("SELECT count(*) FROM " + table));
  LevelInfo info;
  info.level = level;
  info.rows = static_cast<uint64_t>(count.columns.at(0).values.at(0).get<int64_t>());
  for (const auto& col : schema.columns) info.columns.push_back({col.name, col.type.ToString()});
  return info;
}

Result<Table> Dataset::QueryRaw(const std::string& sql) { return impl_->engine->Query(sql); }

}  // namespace taco
