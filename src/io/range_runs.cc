#include "io/range_runs.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <new>
#include <string>
#include <system_error>

#include "io/location.h"
#include "io/thread_config.h"
#include "util/env_defaults.h"

namespace taco::io {
namespace {

constexpr size_t kNoRun = std::numeric_limits<size_t>::max();

}  // namespace

RunOptions RunOptionsFromEnv() {
  RunOptions o;
  if (auto v = util::EnvCopyRunBytes()) o.max_run_bytes = *v;
  if (auto v = util::EnvCopyThreads()) o.reads_in_flight = *v;
  return o;
}

RangeRunReader::RangeRunReader(std::vector<RangeRef> ranges, RunOptions options)
    : ranges_(std::move(ranges)), options_(options), run_of_(ranges_.size(), kNoRun) {
  if (options_.reads_in_flight == 0) options_.reads_in_flight = 1;
  const uint64_t cap = options_.max_run_bytes;
  for (size_t i = 0; i < ranges_.size(); ++i) {
    const RangeRef& r = ranges_[i];
    if (r.reader == nullptr || cap == 0 || r.size > cap) continue;
    const uint64_t total = r.reader->size();
    if (r.offset > total || r.size > total - r.offset) continue;  // the caller reports it
    const bool joins = i > 0 && run_of_[i - 1] != kNoRun && runs_.back().reader == r.reader &&
                       r.offset >= runs_.back().end && r.offset - runs_.back().end <= options_.max_gap &&
                       r.offset + r.size - runs_.back().begin <= cap;
    if (joins) {
      runs_.back().end = r.offset + r.size;
    } else {
      runs_.push_back({r.reader, r.offset - std::min(r.lead, r.offset), r.offset + r.size});
    }
    run_of_[i] = runs_.size() - 1;
  }
}

RangeRunReader::~RangeRunReader() = default;  // each future of std::async waits for its read

size_t RangeRunReader::num_ranges_in_runs() const {
  size_t n = 0;
  for (size_t r : run_of_) n += r != kNoRun;
  return n;
}

void RangeRunReader::Schedule() {
  while (next_run_ < runs_.size() && window_.size() < options_.reads_in_flight) {
    const Run& run = runs_[next_run_];
    Pending p;
    p.run = next_run_++;
    const size_t n = static_cast<size_t>(run.end - run.begin);
    p.buffer.reset(new (std::nothrow) char[n == 0 ? 1 : n]);
    if (p.buffer == nullptr) {
      p.status = Status::IOError(run.reader->name() + ": out of memory for a read of " + std::to_string(n) + " bytes");
      window_.push_back(std::move(p));
      continue;
    }
    const RangeReader* reader = run.reader;
    const uint64_t at = run.begin;
    char* out = p.buffer.get();
    try {
      p.done = std::async(std::launch::async,
                          WithCallerGdalConfig([reader, at, n, out] { return reader->ReadAt(at, n, out); }));
    } catch (const std::system_error&) {
      p.status = reader->ReadAt(at, n, out);
    }
    window_.push_back(std::move(p));
  }
}

Result<std::optional<RunBytes>> RangeRunReader::Get(size_t i) {
  if (i >= ranges_.size()) return Status::InvalidArgument("range " + std::to_string(i) + " does not exist");
  const size_t r = run_of_[i];
  if (r == kNoRun) return std::optional<RunBytes>();
  while (!window_.empty() && window_.front().run < r) window_.pop_front();  // runs left behind
  if (window_.empty() && next_run_ <= r) next_run_ = r;                     // runs never asked for are not read
  Schedule();
  if (window_.empty() || window_.front().run != r) {
    return Status::InvalidArgument("range " + std::to_string(i) + " asked for after a later one");
  }
  Pending& head = window_.front();
  if (head.done.valid()) head.status = head.done.get();
  if (!head.status.ok()) {
    const Run& run = runs_[r];
    return Status(head.status.code(), head.status.message() + " (reading bytes " + std::to_string(run.begin) + ".." +
                                          std::to_string(run.end) + " of " + run.reader->name() + ")");
  }
  const RangeRef& ref = ranges_[i];
  const uint64_t begin = runs_[r].begin;
  const uint64_t from = ref.offset - std::min(ref.lead, ref.offset - begin);
  RunBytes out;
  out.data = std::string_view(head.buffer.get() + (ref.offset - begin), static_cast<size_t>(ref.size));
  out.before = std::string_view(head.buffer.get() + (from - begin), static_cast<size_t>(ref.offset - from));
  return std::optional<RunBytes>(out);
}

bool AnyRangeIsRemote(const std::vector<RangeRef>& ranges) {
  const RangeReader* checked = nullptr;
  for (const RangeRef& r : ranges) {
    if (r.reader == nullptr || r.reader == checked) continue;
    if (!Location::Of(r.reader->name()).is_local_filesystem()) return true;
    checked = r.reader;
  }
  return false;
}

}  // namespace taco::io
