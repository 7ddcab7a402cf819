// Writing TACO datasets: create() to a TACO ZIP or a FOLDER (spec §7.1, FORMAT §1–§4, §7.5).
//
// Contract:
//  * Outputs are atomic: everything is written under a temporary sibling name and renamed
//    into place at the end; after any failure nothing is left at the output path(s).
//  * The output path must not exist (AlreadyExists otherwise).
//  * ZIP members are written in the upstream order (TACO_HEADER, DATA files depth-first,
//    every FOLDER's `__meta__` deepest first and by path, METADATA/level*.parquet,
//    COLLECTION.json), and every `internal:offset`/`internal:size` is the data range where
//    that member was actually written, looked up by archive path (never by position).
//  * File data is streamed (memory does not grow with data size); metadata tables are built
//    column-wise and turned into Parquet by DuckDB's Appender (no per-row SQL).
#ifndef TACO_WRITER_H_
#define TACO_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "taco/model.h"
#include "taco/status.h"

namespace taco {

enum class OutputFormat {
  kAuto,  // ".zip"/".tacozip" suffix (any case) → kZip, else kFolder
  kZip,
  kFolder,
};

struct CreateOptions {
  OutputFormat format = OutputFormat::kAuto;
  // ZIP only: root samples are packed greedily into parts of at most this many data bytes
  // (a single sample larger than the limit gets a part of its own). One part → the output
  // name; more → "{stem}_part0001{suffix}", "…0002…". 0 = never split.
  uint64_t split_size = 4ull << 30;
  // ZIP only: one ZIP per distinct value of these level-0 extension columns (values joined
  // by "_"), named "{stem}_{value}{suffix}" with / \ : * ? " < > | ' replaced by "_".
  std::vector<std::string> group_by;
  // ZIP only: when more than one ZIP is written, also write `.tacocat/` (FORMAT §5.2) in the
  // output's directory, committed after the parts. Fails before writing anything when that
  // `.tacocat` already exists.
  bool consolidate = true;
  // Called as data is written: (bytes written so far, total bytes). May be empty.
  std::function<void(uint64_t done, uint64_t total)> progress;
  // Samples that are byte ranges of a source (convert, export): how many runs of adjacent
  // ranges are read ahead on threads of their own. 0 (the default): TACO_COPY_THREADS when
  // it holds 1..64, else 4. Never changes the bytes written.
  size_t copy_threads = 0;
};

// Writes `taco` to `output` and returns the paths written (one, or the parts). Names the
// reader would open as another format are refused (InvalidArgument) before anything is
// written: no output may be named *.tacocat or __TACOCAT__ (TACOCAT indexes), and a FOLDER
// may not be named *.zip/*.tacozip (read as a ZIP), `DATA` or `METADATA`.
Result<std::vector<std::string>> Create(const Taco& taco, const std::string& output, const CreateOptions& options = {});

// For programs (the `taco` command calls it first thing in main()): SIGINT, SIGTERM and
// SIGHUP first remove the temporary output of every write in progress (create, convert,
// export, tacocat, tacollection), then end the process as the signal would. Must be called
// before any thread is started (it blocks those signals in the calling thread and waits for
// them in a thread of its own). Without it, a signal kills the process at once and the
// temporaries stay until the next write of the same output name removes them.
void RemoveTemporaryOutputsOnSignals();

// The same for a host that runs its own threads and signal handling (the Python module calls
// it before its first write): SIGTERM and SIGHUP, where they have their default action, first
// remove the temporaries, then end the process as the signal would. Any thread may call it;
// handlers already installed by the host are kept. Idempotent.
void RemoveTemporaryOutputsOnTerminationSignals();

// "4GB", "512MB", "1.5G", "100k", "123" (bytes). Units B, K/KB, M/MB, G/GB, T/TB, powers of
// 1024, case-insensitive, decimals allowed. InvalidArgument on anything else.
Result<uint64_t> ParseSize(std::string_view text);

}  // namespace taco

#endif  // TACO_WRITER_H_
