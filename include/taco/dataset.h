// Opening a TACO dataset for reading (ZIP, FOLDER; TACOCAT later) and describing it.
//
// Dataset::Open reads only metadata: for a ZIP, the 157-byte TACO_HEADER (one read of the
// first 256 bytes), the METADATA/level*.parquet members in place (through DuckDB, no copies),
// and COLLECTION.json; never a DATA member. For a FOLDER, COLLECTION.json and
// METADATA/level*.parquet.
//
// Thread-safety: a Dataset is not safe for concurrent use; open one per thread.
#ifndef TACO_DATASET_H_
#define TACO_DATASET_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/status.h"
#include "taco/value.h"

namespace taco {

enum class DatasetFormat { kZip, kFolder, kTacocat };
// "zip", "folder", "tacocat".
std::string_view DatasetFormatName(DatasetFormat format);

// FORMAT §5.4 detection from the path alone plus existence checks: `.tacozip`/`.zip` → ZIP;
// a path ending in `.tacocat` → TACOCAT; a directory with `.tacocat/COLLECTION.json` →
// TACOCAT; a directory with `COLLECTION.json` → FOLDER. Otherwise NotFound/InvalidArgument
// naming the path and what was looked for.
Result<DatasetFormat> DetectFormat(const std::string& path);

struct OpenOptions {
  // Where TACOCAT finds its ZIPs (default: the directory that holds `.tacocat`).
  std::string base_path;
};

struct ColumnInfo {
  std::string name;
  std::string type;  // PyArrow spelling, as in taco:field_schema
};

struct LevelInfo {
  int level = 0;
  uint64_t rows = 0;
  std::vector<ColumnInfo> columns;
};

struct HeaderPair {
  uint64_t offset = 0;
  uint64_t length = 0;
};

class Dataset {
 public:
  static Result<std::unique_ptr<Dataset>> Open(const std::string& path, const OpenOptions& options = {});
  ~Dataset();
  Dataset(const Dataset&) = delete;
  Dataset& operator=(const Dataset&) = delete;

  DatasetFormat format() const;
  // The path as given, and its GDAL form (FORMAT §6.2: absolute local path or /vsi… path).
  const std::string& path() const;
  const std::string& vsi_root() const;
  // COLLECTION.json as stored.
  const nlohmann::ordered_json& collection() const;
  // ZIP only: the TACO_HEADER pairs in header order (empty for other formats).
  const std::vector<HeaderPair>& header() const;
  // Number of consolidated levels stored (level0..levelN-1).
  int num_levels() const;
  // Row count and columns of a stored level (padding rows included, as stored).
  Result<LevelInfo> DescribeLevel(int level);
  // Runs SQL over the stored levels, visible as tables `level0_table`, `level1_table`, ….
  Result<Table> QueryRaw(const std::string& sql);

  struct Impl;

 private:
  explicit Dataset(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace taco

#endif  // TACO_DATASET_H_
