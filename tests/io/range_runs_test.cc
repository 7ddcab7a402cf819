// io::RangeRunReader: planning of runs, one read per run, errors, ordering.
#include "io/range_runs.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "taco/io.h"

namespace taco::io {
namespace {

std::string Bytes(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(i * 131 % 251);
  return s;
}

class FailingReader final : public RangeReader {
 public:
  uint64_t size() const override { return 1000; }
  Status ReadAt(uint64_t, size_t, void*) const override { return Status::IOError("disk on fire"); }
  const std::string& name() const override { return name_; }

 private:
  std::string name_ = "failing";
};

TEST(RangeRuns, AdjacentRangesAreReadOnceAndHandedOutInOrder) {
  const std::string data = Bytes(100000);
  auto counting = std::make_shared<CountingReader>(MemoryReader(data));
  auto other = MemoryReader(data, "other");
  std::vector<RangeRef> refs = {
      {counting.get(), 0, 100},
      {counting.get(), 130, 200},  // 30-byte gap: same run
      {counting.get(), 330, 0},    // empty range: same run
      {nullptr, 0, 0},             // not a range
      {counting.get(), 400, 100},  // new run (after a non-range)
      {counting.get(), 500, 100},
      {counting.get(), 90000, 10},  // gap > max_gap: new run
      {other.get(), 600, 50},       // other reader: new run
      {counting.get(), 99990, 20},  // outside the reader: no run
      {counting.get(), 10, 5000},   // larger than a run: no run
  };
  RunOptions options;
  options.max_run_bytes = 4096;
  options.max_gap = 1000;
  options.reads_in_flight = 2;
  RangeRunReader runs(refs, options);
  EXPECT_EQ(runs.num_runs(), 4u);
  EXPECT_EQ(runs.num_ranges_in_runs(), 7u);
  for (size_t i = 0; i < refs.size(); ++i) {
    SCOPED_TRACE(i);
    auto got = runs.Get(i);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    const bool in_run = i != 3 && i != 8 && i != 9;
    ASSERT_EQ(got->has_value(), in_run);
    if (in_run) {
      EXPECT_EQ(std::string((*got)->data), data.substr(refs[i].offset, refs[i].size));
    }
  }
  EXPECT_EQ(counting->requests(), 3u);  // the fourth run is on `other`
}

TEST(RangeRuns, RunsStayWithinTheirSizeAndResultsDoNotDependOnThreads) {
  const std::string data = Bytes(64 * 1024);
  std::vector<std::string> first;
  for (size_t threads : {1, 2, 5}) {
    auto counting = std::make_shared<CountingReader>(MemoryReader(data));
    std::vector<RangeRef> refs;
    for (uint64_t at = 0; at + 1000 <= data.size(); at += 1030) refs.push_back({counting.get(), at, 1000});
    RunOptions options;
    options.max_run_bytes = 8000;
    options.reads_in_flight = threads;
    RangeRunReader runs(refs, options);
    // 1,000-byte ranges every 1,030 bytes: 7 per run of 8,000 bytes.
    EXPECT_EQ(runs.num_runs(), (refs.size() + 6) / 7);
    std::vector<std::string> got;
    for (size_t i = 0; i < refs.size(); ++i) {
      auto b = runs.Get(i);
      ASSERT_TRUE(b.ok() && b->has_value());
      got.emplace_back((*b)->data);
    }
    EXPECT_EQ(counting->requests(), runs.num_runs());
    if (first.empty()) first = got;
    EXPECT_EQ(got, first);
  }
}

TEST(RangeRuns, RangesLeftOutAreNotReadAndOrderIsEnforced) {
  const std::string data = Bytes(100000);
  auto counting = std::make_shared<CountingReader>(MemoryReader(data));
  std::vector<RangeRef> refs = {{counting.get(), 0, 10}, {counting.get(), 50000, 10}, {counting.get(), 99000, 10}};
  RunOptions options;
  options.max_run_bytes = 100;
  options.reads_in_flight = 1;
  RangeRunReader runs(refs, options);
  auto last = runs.Get(2);
  ASSERT_TRUE(last.ok() && last->has_value());
  EXPECT_EQ(counting->requests(), 1u);  // runs 0 and 1 were never asked for
  auto back = runs.Get(0);
  EXPECT_FALSE(back.ok());
}

TEST(RangeRuns, TheLeadOfARangeIsReadWithItsRun) {
  const std::string data = Bytes(10000);
  auto counting = std::make_shared<CountingReader>(MemoryReader(data));
  // A lead of 100: a run starts 100 bytes early (30 at offset 30); later ranges of a run see
  // the 100 bytes of the run before them (fewer near its start), earlier ranges included.
  std::vector<RangeRef> refs = {{counting.get(), 30, 10, 100},
                                {counting.get(), 60, 10, 100},
                                {counting.get(), 500, 10, 100},
                                {counting.get(), 5000, 10, 100}};
  RunOptions options;
  options.max_run_bytes = 1000;
  options.max_gap = 1000;
  RangeRunReader runs(refs, options);
  EXPECT_EQ(runs.num_runs(), 2u);
  const std::vector<std::pair<uint64_t, uint64_t>> before = {{0, 30}, {0, 60}, {400, 100}, {4900, 100}};
  for (size_t i = 0; i < refs.size(); ++i) {
    SCOPED_TRACE(i);
    auto got = runs.Get(i);
    ASSERT_TRUE(got.ok() && got->has_value());
    EXPECT_EQ(std::string((*got)->data), data.substr(refs[i].offset, 10));
    EXPECT_EQ(std::string((*got)->before), data.substr(before[i].first, before[i].second));
  }
  EXPECT_EQ(counting->requests(), 2u);
}

TEST(RangeRuns, ZeroRunBytesDisablesRuns) {
  auto reader = MemoryReader(Bytes(100));
  RunOptions options;
  options.max_run_bytes = 0;
  RangeRunReader runs({{reader.get(), 0, 10}, {reader.get(), 10, 10}}, options);
  EXPECT_EQ(runs.num_runs(), 0u);
  auto got = runs.Get(1);
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value());
}

TEST(RangeRuns, AReadErrorNamesTheRunAndReachesEveryRangeOfIt) {
  FailingReader failing;
  RangeRunReader runs({{&failing, 0, 10}, {&failing, 10, 10}}, RunOptions{});
  for (size_t i = 0; i < 2; ++i) {
    auto got = runs.Get(i);
    ASSERT_FALSE(got.ok());
    EXPECT_NE(got.status().message().find("disk on fire"), std::string::npos);
    EXPECT_NE(got.status().message().find("bytes 0..20 of failing"), std::string::npos) << got.status().ToString();
  }
}

TEST(RangeRuns, EnvironmentOverridesTheDefaults) {
  ::setenv("TACO_COPY_RUN_BYTES", "12345", 1);
  ::setenv("TACO_COPY_THREADS", "3", 1);
  RunOptions o = RunOptionsFromEnv();
  EXPECT_EQ(o.max_run_bytes, 12345u);
  EXPECT_EQ(o.reads_in_flight, 3u);
  ::setenv("TACO_COPY_THREADS", "0", 1);  // out of range: ignored
  ::setenv("TACO_COPY_RUN_BYTES", "lots", 1);
  o = RunOptionsFromEnv();
  EXPECT_EQ(o.max_run_bytes, RunOptions{}.max_run_bytes);
  EXPECT_EQ(o.reads_in_flight, RunOptions{}.reads_in_flight);
  ::unsetenv("TACO_COPY_RUN_BYTES");
  ::unsetenv("TACO_COPY_THREADS");
}

}  // namespace
}  // namespace taco::io
