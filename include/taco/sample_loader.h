// Decoding the rasters of a view's samples for training loops (the taco_cpp.torch and
// taco_cpp.dask Python modules sit on this).
//
// SamplePlan::Build resolves, once per process and with one query, where every requested
// FILE of every level-0 row of a view lives:
//  * `files` names FILE samples below each row, as paths relative to it ("image.tif",
//    "sensor_A/band_R"); empty = the row itself, which must then be a FILE (flat datasets).
//  * Every row must have every requested file, as a FILE: a missing name, a FOLDER where a
//    FILE is needed, a FILE row asked for children, are InvalidArgument naming the dataset,
//    the sample (id and row) and what it does hold.
//  * A FILE inside a ZIP (ZIP, TACOCAT, concat of them) is kept as (container, offset, size,
//    archive member name "DATA/<path>"); any other path (FOLDER datasets, remote folders)
//    as its GDAL path. Paths come from the view's `internal:gdal_vsi` (path-checked by the
//    Dataset).
//
// SampleDecoder::Decode(row) reads and decodes one row's files, thread-safe (never touches
// the Dataset, except through the fallback below):
//  * Bytes: the files of a row that lie in one ZIP are read with ONE ranged read spanning
//    them (one HTTP request for a remote ZIP when they are contiguous, as `taco read` of a
//    FOLDER), then decoded by GDAL from memory. A plain local file is opened by GDAL in
//    place; a plain remote file is fetched with one GET. A window read of a file larger
//    than 16 MiB lets GDAL read only the blocks it needs instead.
//  * Offsets are checked by archive path: the ZIP local file header just before each file's
//    data must name "DATA/<path>" (upstream tacotoolbox writes wrong level>=1 offsets when
//    ids are not sorted, FORMAT §1.5). When it does not, the decoder asks the fallback (a
//    navigation through `__meta__`, which is right) for the file's GDAL path; without one,
//    it is a Corruption error naming the member.
//  * Pixels: bands are 0-based (as the stats functions of the Python package); a window is
//    (col_off, row_off, cols, rows) in pixels and must lie inside the raster. The result is
//    C-contiguous (bands, rows, cols) in the raster's own type, or converted by GDAL while
//    reading to the requested PixelType (kTorch: uint16 → int32, uint32 → int64, the types
//    PyTorch lacks; uint64 is refused there).
//  * Errors name the dataset, the sample (id, row) and the file: an out-of-range band or
//    window, a file GDAL cannot open, a short read.
//
// SampleDecoder::DecodeInto writes the pixels of a file into memory the caller gives (a slot
// of a preallocated batch tensor) when the decoded raster has exactly the slot's type and
// shape; otherwise, or without a slot, the raster gets a buffer of its own as with Decode.
//
// ReadAhead decodes the rows of a given order in C++ threads ahead of the consumer, in
// order, with the decoded bytes waiting in memory bounded by a budget (the sample the
// consumer waits for is always decoded, so a budget smaller than one sample still makes
// progress: one sample at a time). Errors arrive in order, with the sample they belong to.
// With ReadAheadOptions::targeted, a row is decoded only after Provide() has given its
// slots (the consumer hands over the next batch's memory while it uses the current one).
// After fork(), an object made in the parent must not be used in the child (its threads do
// not exist there); destroying it there leaks it instead of joining.
#ifndef TACO_SAMPLE_LOADER_H_
#define TACO_SAMPLE_LOADER_H_

#include <sys/types.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "taco/dataset.h"
#include "taco/status.h"

namespace taco {

enum class PixelType {
  kNative,  // the raster's own type
  kTorch,   // the raster's own type, widened where PyTorch has none (uint16, uint32)
  kUInt8,
  kInt8,
  kUInt16,
  kInt16,
  kUInt32,
  kInt32,
  kUInt64,
  kInt64,
  kFloat32,
  kFloat64,
};
// numpy spelling: "uint8", ..., "float64" ("native", "torch" for the policies).
std::string_view PixelTypeName(PixelType type);
// Inverse of PixelTypeName (also "float" = float32, "double" = float64); InvalidArgument
// listing the accepted names otherwise.
Result<PixelType> ParsePixelType(std::string_view name);
size_t PixelTypeSize(PixelType type);  // 0 for the policies

struct PixelWindow {
  int64_t col_off = 0;
  int64_t row_off = 0;
  int64_t cols = 0;
  int64_t rows = 0;
};

// What to decode of one file.
struct RasterSelection {
  std::vector<int> bands;             // 0-based; empty = every band
  std::optional<PixelWindow> window;  // nullopt = the whole raster
  PixelType type = PixelType::kNative;
};

// Where DecodeInto may write one file's pixels: `data` holds bands * rows * cols pixels of
// `type`, C-contiguous; the caller keeps it alive and untouched until the decode returned.
// data == nullptr: no slot.
struct DecodeTarget {
  std::byte* data = nullptr;
  PixelType type = PixelType::kUInt8;
  int64_t bands = 0;
  int64_t rows = 0;
  int64_t cols = 0;
};

// A decoded raster, C-contiguous (bands, rows, cols): in `data`, or (in_target) in the
// DecodeTarget it was given (`data` is then null).
struct DecodedRaster {
  std::string name;  // the requested file name ("" for the row itself)
  PixelType type = PixelType::kUInt8;
  int64_t bands = 0;
  int64_t rows = 0;
  int64_t cols = 0;
  std::unique_ptr<std::byte[]> data;
  size_t nbytes = 0;
  bool in_target = false;
};

struct DecodedSample {
  int64_t row = 0;
  std::vector<DecodedRaster> files;  // in the plan's file order
  size_t nbytes = 0;                 // sum of the files' nbytes
};

class SamplePlan {
 public:
  // Where one file of one row is.
  struct Location {
    int32_t container = -1;  // index into containers(); -1: `path` is a GDAL path
    uint64_t offset = 0;
    uint64_t size = 0;
    std::string path;  // container < 0: the GDAL path; else the ZIP member name "DATA/..."
  };

  static Result<std::shared_ptr<const SamplePlan>> Build(const Dataset& view, const std::vector<std::string>& files);

  size_t num_rows() const { return ids_.size(); }
  const std::vector<std::string>& files() const { return files_; }
  // Max(1, files().size()) locations per row.
  size_t files_per_row() const { return files_.empty() ? 1 : files_.size(); }
  const std::string& id(size_t row) const { return ids_.at(row); }
  const Location& location(size_t row, size_t file) const { return locations_.at(row * files_per_row() + file); }
  const std::vector<std::string>& containers() const { return containers_; }
  // The dataset's path, for messages.
  const std::string& dataset() const { return dataset_; }
  // Dataset::allows_external_rasters() of the view: the decoder opens sample bytes with any
  // GDAL driver (else only self-contained formats; OpenOptions::allow_external_rasters).
  bool allow_external_rasters() const { return allow_external_rasters_; }
  // Some sample lives behind the network (a remote dataset): GDAL may use the network for
  // references when external rasters are allowed.
  bool remote() const { return remote_; }
  // Dataset::verifies_crc() of the view: bytes of a ZIP member read whole are checked
  // against the CRC-32 of its local header (OpenOptions::verify_crc).
  bool verify_crc() const { return verify_crc_; }

 private:
  std::string dataset_;
  bool allow_external_rasters_ = false;
  bool remote_ = false;
  bool verify_crc_ = true;
  std::vector<std::string> files_;
  std::vector<std::string> ids_;
  std::vector<std::string> containers_;  // GDAL paths of ZIP containers
  std::vector<Location> locations_;
};

// The right GDAL path of `file` (plan file index) of `row` when the ZIP does not confirm the
// planned offset. Called from decoding threads: must be thread-safe.
using LocationFallback = std::function<Result<std::string>(int64_t row, size_t file)>;

// A fallback that navigates a view of its own (Read(row), then the file's path through
// `__meta__`), opened by `open_view` on first use (never, for datasets whose offsets are
// right) and used under a mutex of its own.
using ViewOpener = std::function<Result<std::shared_ptr<const Dataset>>()>;
LocationFallback NavigationFallback(ViewOpener open_view, std::vector<std::string> files);

class SampleDecoder {
 public:
  // `selections`: one per plan file, or one for all of them.
  static Result<std::shared_ptr<const SampleDecoder>> Make(std::shared_ptr<const SamplePlan> plan,
                                                           std::vector<RasterSelection> selections,
                                                           LocationFallback fallback = nullptr);
  const SamplePlan& plan() const { return *plan_; }
  // Reads and decodes `row` (0 <= row < num_rows). Thread-safe.
  Result<DecodedSample> Decode(int64_t row) const;
  // Decode, writing file f into targets[f] when it matches (see DecodeTarget); `targets` is
  // empty or has one entry per plan file. Thread-safe.
  Result<DecodedSample> DecodeInto(int64_t row, const std::vector<DecodeTarget>& targets) const;
  ~SampleDecoder();

  struct Readers;

 private:
  SampleDecoder() = default;
  std::shared_ptr<const SamplePlan> plan_;
  std::vector<RasterSelection> selections_;
  LocationFallback fallback_;
  std::unique_ptr<Readers> readers_;
};

struct ReadAheadOptions {
  int threads = 2;                      // 0: decode in Next() on the caller's thread
  size_t memory_budget = 256ULL << 20;  // decoded bytes waiting for the consumer
  size_t max_ahead = 64;                // and at most this many samples ahead
  bool targeted = false;                // decode a row only once Provide() covered it
};

class ReadAhead {
 public:
  ReadAhead(std::shared_ptr<const SampleDecoder> decoder, std::vector<int64_t> rows, ReadAheadOptions options);
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next row of the order, decoded (nullopt after the last). Blocks until it is ready.
  // A row out of range or a failed decode is that row's error. Not for concurrent callers.
  Result<std::optional<DecodedSample>> Next();
  size_t size() const { return rows_.size(); }
  // Decoded bytes currently held for the consumer (for tests and metrics).
  size_t held_bytes() const;
  size_t peak_held_bytes() const;
  // targeted: the DecodeTargets of the next rows of the order not yet provided, one vector
  // per row (empty: that row gets buffers of its own). InvalidArgument beyond the last row.
  // A row not provided when Next() reaches it is an error (it would wait forever).
  Status Provide(std::vector<std::vector<DecodeTarget>> rows);
  size_t provided() const;
  // Positions Next() has handed out (decoded or as errors): their targets are written.
  size_t taken() const;

 private:
  void Work();
  bool CanClaim() const;  // REQUIRES: mu_ held

  std::shared_ptr<const SampleDecoder> decoder_;
  std::vector<int64_t> rows_;
  ReadAheadOptions options_;
  pid_t pid_;
  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable ready_cv_;
  size_t next_claim_ = 0;
  size_t next_out_ = 0;
  size_t held_ = 0;      // decoded bytes of finished samples not yet taken
  size_t reserved_ = 0;  // estimated bytes of samples being decoded
  size_t peak_ = 0;
  size_t estimate_ = 0;                             // bytes of the largest sample decoded so far
  size_t provided_ = 0;                             // targeted: rows whose targets Provide() gave
  std::vector<std::vector<DecodeTarget>> targets_;  // targeted: by position in rows_
  bool stop_ = false;
  std::map<size_t, Result<DecodedSample>> ready_;
  std::vector<std::thread> threads_;
};

}  // namespace taco

#endif  // TACO_SAMPLE_LOADER_H_
