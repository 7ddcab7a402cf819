// Coalesced reads of many byte ranges visited in order (convert and export copy the members
// of a source ZIP this way): ranges that follow each other in the same reader are read as
// ONE run with one ReadAt (remote: one ranged GET) instead of one read per range.
//
// Contract:
//  * Planning (constructor): ranges are taken in the given order. Range i joins the run of
//    range i-1 when both have the same reader (pointer equality), it starts at or after the
//    run's end with at most `max_gap` bytes between (a ZIP member's local header), and the
//    run stays within `max_run_bytes`. A range with no reader, larger than `max_run_bytes`,
//    or outside its reader belongs to no run (the caller copies it its own way; its errors
//    are then the caller's). `max_run_bytes` = 0 disables runs (every Get() is nullopt).
//    A range's `lead` (e.g. the window holding a ZIP member's local header) is read with it:
//    a run starts `lead` bytes before its first range (a run may exceed max_run_bytes by
//    that much).
//  * Get(i) returns the bytes of range i (a view into the run's buffer), with `before`: the
//    at most `lead` bytes of the run right before them (earlier ranges' bytes included), or
//    nullopt when it belongs to no run. Calls must come with i ascending (ranges may be skipped). The view
//    stays valid until Get() is called for a range of a later run or the reader is destroyed.
//  * Up to `reads_in_flight` runs are read ahead on worker threads (inline when no thread can
//    be started), with the caller's thread-local GDAL options (io/thread_config.h). Memory
//    is bounded by reads_in_flight × max_run_bytes. Results do not depend on the number of
//    reads in flight: runs are planned before any read and handed out in order.
//  * A failed read is returned by the Get() of the first range of its run and of every later
//    range of that run; the error names the reader and the run's byte range. The destructor
//    waits for the reads still in flight.
#ifndef TACO_IO_RANGE_RUNS_H_
#define TACO_IO_RANGE_RUNS_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "taco/io.h"

namespace taco::io {

struct RunOptions {
  uint64_t max_run_bytes = uint64_t{8} << 20;
  uint64_t max_gap = uint64_t{64} << 10;
  size_t reads_in_flight = 4;
};

// Defaults overridden by the environment: TACO_COPY_RUN_BYTES (bytes per run; 0 = one read
// per range, as before runs existed) and TACO_COPY_THREADS (runs read ahead, 1..64).
// Unparsable values are ignored.
RunOptions RunOptionsFromEnv();

// One range to read: `reader` null means "not a range" (never part of a run).
struct RangeRef {
  const RangeReader* reader = nullptr;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t lead = 0;  // bytes wanted right before the range (see above)
};

struct RunBytes {
  std::string_view data;    // the range's bytes
  std::string_view before;  // up to `lead` bytes that end where `data` starts
};

class RangeRunReader {
 public:
  RangeRunReader(std::vector<RangeRef> ranges, RunOptions options);
  ~RangeRunReader();
  RangeRunReader(const RangeRunReader&) = delete;
  RangeRunReader& operator=(const RangeRunReader&) = delete;

  Result<std::optional<RunBytes>> Get(size_t i);

  size_t num_runs() const { return runs_.size(); }
  // Ranges that belong to a run.
  size_t num_ranges_in_runs() const;

 private:
  struct Run {
    const RangeReader* reader;
    uint64_t begin;
    uint64_t end;
  };
  struct Pending {
    size_t run = 0;
    std::unique_ptr<char[]> buffer;  // declared before `done`: the read ends before it is freed
    Status status;                   // of a read made inline, or once `done` was waited for
    std::future<Status> done;
  };
  void Schedule();

  std::vector<RangeRef> ranges_;
  RunOptions options_;
  std::vector<Run> runs_;
  std::vector<size_t> run_of_;  // per range: run index, or SIZE_MAX
  size_t next_run_ = 0;         // first run not yet scheduled
  std::deque<Pending> window_;
};

// True when a range of `ranges` is read from a remote source: its runs are requests, which
// two RangeRunReaders over halves of the ranges would split in two (one request per run is
// what a copy of adjacent members costs, tests/remote).
bool AnyRangeIsRemote(const std::vector<RangeRef>& ranges);

}  // namespace taco::io

#endif  // TACO_IO_RANGE_RUNS_H_
