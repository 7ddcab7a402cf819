// The two container writers behind Create() (internal).
//
// Each writes one complete dataset for an already validated Taco at `temp_path` (a path the
// caller owns through an AtomicOutput and renames into place on success).
#ifndef TACO_WRITE_OUTPUTS_H_
#define TACO_WRITE_OUTPUTS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "io/range_runs.h"
#include "model/metadata.h"
#include "table/engine.h"
#include "taco/model.h"
#include "taco/status.h"
#include "taco/writer.h"
#include "write/rebuild_copy.h"

namespace taco::write {

// Counts data bytes written and reports them to the caller's progress callback.
class Progress {
 public:
  Progress(uint64_t total, std::function<void(uint64_t, uint64_t)> callback)
      : total_(total), callback_(std::move(callback)) {}
  void Add(uint64_t bytes) {
    done_ += bytes;
    if (callback_) callback_(done_, total_);
  }

 private:
  uint64_t total_;
  uint64_t done_ = 0;
  std::function<void(uint64_t, uint64_t)> callback_;
};

// Parquet settings (FORMAT §3.1): consolidated levels zstd 13, __meta__ the default level.
inline constexpr int kLevelZstd = 13;
inline constexpr int kMetaZstd = 3;

// The metadata of `taco`, the COLLECTION.json text, and the tables (built once per output).
// `meta_with_ids`: the __meta__ tables in tacobridge's layout (UseLevelRowsAsMeta).
struct PreparedTaco {
  model::LevelTables tables;
  std::string collection_json;  // indent 4, UTF-8 (FORMAT §4)
  // How ranged samples are copied (io/range_runs.h): the environment's defaults, with
  // CreateOptions::copy_threads over them (set by Create()).
  io::RunOptions copy = io::RunOptionsFromEnv();
};
Result<PreparedTaco> Prepare(const Taco& taco, bool meta_with_ids = false);

// Create() (taco/writer.h) with, when `meta_with_ids`, every __meta__ in tacobridge 0.3.0's
// layout: its children's rows of their consolidated level, internal:current_id and
// internal:parent_id included, internal:relative_path not (UseLevelRowsAsMeta; in a ZIP the
// writer adds internal:offset/size as always). Convert() and Export() call it with their
// options' meta_with_ids.
Result<std::vector<std::string>> CreateWithMetaLayout(const Taco& taco, const std::string& output,
                                                      const CreateOptions& options, bool meta_with_ids);

// The source range of each FILE member (samples made with Sample::FromRange, as convert and
// export make them), in member order, for io::RangeRunReader; other samples get no reader.
// Both writers copy ranged samples by runs: adjacent members of a source in one read, with
// the local header before each ZIP member (Sample::FromZipMember) for CheckCopiedMember.
inline std::vector<io::RangeRef> SampleRanges(const std::vector<std::pair<std::string, const Sample*>>& files) {
  std::vector<io::RangeRef> refs(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    const Sample& s = *files[i].second;
    if (s.range_reader() != nullptr) {
      refs[i] = {s.range_reader().get(), s.range_offset(), s.size_bytes(), LeadBytes(s)};
    }
  }
  return refs;
}

// The SQL engine, opened by the first call (WriteZip asks for it only for a table the
// engine-free Parquet encoder refuses, so most ZIPs are written without starting it).
using EngineSource = std::function<Result<table::Engine*>()>;

// The writers consume prepared.tables.levels (each level is moved out as it is written, so
// that its memory is released before the next one); the rest of `prepared` is left as is.
Status WriteZip(PreparedTaco& prepared, const std::string& temp_path, const EngineSource& engine, Progress& progress);
Status WriteFolder(PreparedTaco& prepared, const std::string& temp_dir, table::Engine& engine, Progress& progress);

}  // namespace taco::write

#endif  // TACO_WRITE_OUTPUTS_H_
