// WriteZip: a TACO ZIP in the upstream member order (FORMAT §1.1, §1.5, §12).
#include "format/zip/zip_writer.h"
#include "io/range_runs.h"
#include "table/parquet_writer.h"
#include "write/metadata_columns.h"
#include "write/outputs.h"

namespace taco::write {
namespace {

// `run`: the sample's bytes when they were read as part of a run (io/range_runs.h). A ZIP
// member's CRC is the one the writer computed, checked against the source's local header.
Status AddSampleData(zip::ZipWriter& zip, const std::string& path, const Sample& sample,
                     const std::optional<io::RunBytes>& run, MemberRanges& ranges, Progress& progress) {
  Result<zip::MemberInfo> info =
      run ? zip.AddBytes(path, run->data)
      : sample.range_reader() != nullptr
          ? zip.AddRange(path, *sample.range_reader(), sample.range_offset(), sample.size_bytes())
          : (sample.file_path().empty() ? zip.AddBytes(path, sample.bytes()) : zip.AddFile(path, sample.file_path()));
  if (!info.ok()) return info.status();
  TACO_RETURN_IF_ERROR(CheckCopiedMember(sample, run ? run->before : std::string_view(), info->crc32, path));
  ranges[path] = {info->data_offset, info->size};
  progress.Add(info->size);
  return Status::OK();
}

// Archive paths of the children listed in a folder's __meta__ table.
std::vector<std::string> ChildPaths(const std::string& folder, const Table& meta) {
  const Column& ids = meta.column("id");
  const Column& types = meta.column("type");
  std::vector<std::string> paths;
  paths.reserve(ids.values.size());
  for (size_t i = 0; i < ids.values.size(); ++i) {
    std::string p = folder + ids.values[i].get<std::string>();
    if (types.values[i].get<std::string>() == "FOLDER") p += '/';
    paths.push_back(std::move(p));
  }
  return paths;
}

}  // namespace

Status WriteZip(PreparedTaco& prepared, const std::string& temp_path, table::Engine& engine, Progress& progress) {
  model::LevelTables& t = prepared.tables;
  TACO_ASSIGN_OR_RETURN(auto zip, zip::ZipWriter::Create(temp_path));
  TACO_RETURN_IF_ERROR(zip->BeginTacoHeader());

  MemberRanges ranges;
  ranges.reserve(t.files.size() + t.folder_meta.size());
  io::RangeRunReader runs(SampleRanges(t.files), prepared.copy);
  for (size_t i = 0; i < t.files.size(); ++i) {
    TACO_ASSIGN_OR_RETURN(std::optional<io::RunBytes> bytes, runs.Get(i));
    TACO_RETURN_IF_ERROR(AddSampleData(*zip, t.files[i].first, *t.files[i].second, bytes, ranges, progress));
  }

  // Deepest folders first, so every child __meta__ exists before its parent's table.
  for (const auto& [folder, meta_table] : t.folder_meta) {
    Table meta = meta_table;
    TACO_RETURN_IF_ERROR(AddOffsetColumns(meta, ChildPaths(folder, meta), ranges));
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(engine, meta, {kMetaZstd, 65536}));
    const std::string member = folder + "__meta__";
    TACO_ASSIGN_OR_RETURN(zip::MemberInfo info, zip->AddBytes(member, parquet));
    ranges[member] = {info.data_offset, info.size};
  }

  std::vector<zip::HeaderEntry> header;
  for (size_t level = 0; level < t.levels.size(); ++level) {
    Table table = std::move(t.levels[level]);  // consumed: the level's memory goes as it is written
    TACO_RETURN_IF_ERROR(AddOffsetColumns(table, t.archive_paths[level], ranges));
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(engine, table, {kLevelZstd, 65536}));
    TACO_ASSIGN_OR_RETURN(zip::MemberInfo info,
                          zip->AddBytes("METADATA/level" + std::to_string(level) + ".parquet", parquet));
    header.push_back({info.data_offset, info.size});
  }
  TACO_ASSIGN_OR_RETURN(zip::MemberInfo collection, zip->AddBytes("COLLECTION.json", prepared.collection_json));
  header.push_back({collection.data_offset, collection.size});

  TACO_RETURN_IF_ERROR(zip->SetTacoHeader(header));
  return zip->Finish();
}

}  // namespace taco::write
