// util::OrderedParallel (src/util/ordered_parallel.h): items produced on several threads at
// once, consumed in index order on the caller, at most `window` ahead, the first failing
// consume stops the run, a produce exception is rethrown at its turn; and
// ext::internal::ExtensionThreads (TACO_EXT_THREADS).
#include "util/ordered_parallel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ext/ext_threads.h"

namespace taco::util {
namespace {

TEST(OrderedParallel, ConsumesEveryItemOnceInIndexOrderWithinTheWindow) {
  constexpr size_t kItems = 2000, kWindow = 8;
  std::atomic<size_t> ahead{0}, max_ahead{0};  // produced, not yet consumed
  std::vector<size_t> order;
  const std::thread::id caller = std::this_thread::get_id();
  bool consumed_on_caller = true;
  Status s = OrderedParallel(
      kItems, 4, kWindow,
      [&](size_t i) {
        if (i % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));  // out-of-order finishes
        const size_t now = ++ahead;
        size_t seen = max_ahead.load();
        while (now > seen && !max_ahead.compare_exchange_weak(seen, now)) {
        }
        return i * 3;
      },
      [&](size_t i, size_t value) {
        --ahead;
        consumed_on_caller = consumed_on_caller && std::this_thread::get_id() == caller;
        EXPECT_EQ(value, i * 3);
        order.push_back(i);
        return Status::OK();
      });
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(order.size(), kItems);
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(order[i], i);
  EXPECT_TRUE(consumed_on_caller);
  EXPECT_LE(max_ahead.load(), kWindow);
}

TEST(OrderedParallel, TwoThreadsProduceAtTheSameTime) {
  // Items 0 and 1 each wait (up to 10 s) for the other to have started: only possible when
  // two threads run them at once.
  std::mutex mu;
  std::condition_variable cv;
  int started = 0;
  std::atomic<int> met{0};
  Status s = OrderedParallel(
      2, 2, 2,
      [&](size_t) {
        std::unique_lock<std::mutex> lock(mu);
        ++started;
        cv.notify_all();
        if (cv.wait_for(lock, std::chrono::seconds(10), [&] { return started == 2; })) ++met;
        return 0;
      },
      [](size_t, int) { return Status::OK(); });
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(met.load(), 2);
}

TEST(OrderedParallel, OneThreadRunsOnTheCaller) {
  const std::thread::id caller = std::this_thread::get_id();
  bool on_caller = true;
  std::vector<size_t> order;
  Status s = OrderedParallel(
      5, 1, 4,
      [&](size_t i) {
        on_caller = on_caller && std::this_thread::get_id() == caller;
        return i;
      },
      [&](size_t, size_t v) {
        order.push_back(v);
        return Status::OK();
      });
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(on_caller);
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(OrderedParallel, TheFirstFailingConsumeInOrderStopsTheRun) {
  // Items 10 and 20 fail (as values); item 20 is fast and item 10 slow, so 20 is usually
  // produced first; 10's error is returned all the same, and nothing after 10 is consumed.
  constexpr size_t kItems = 10000, kWindow = 16;
  std::atomic<size_t> produced{0};
  std::vector<size_t> consumed;
  Status s = OrderedParallel(
      kItems, 2, kWindow,
      [&](size_t i) -> Result<size_t> {
        ++produced;
        if (i == 10) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (i == 10 || i == 20) return Status::InvalidArgument("item " + std::to_string(i));
        return i;
      },
      [&](size_t i, Result<size_t> r) -> Status {
        if (!r.ok()) return r.status();
        consumed.push_back(i);
        return Status::OK();
      });
  EXPECT_EQ(s.message(), "item 10");
  EXPECT_EQ(consumed.size(), 10u);
  EXPECT_LE(produced.load(), 10 + kWindow + 2);  // the window, plus what the workers had started
}

TEST(OrderedParallel, AProduceExceptionIsRethrownOnTheCallerAtItsTurn) {
  std::vector<size_t> consumed;
  auto run = [&] {
    return OrderedParallel(
        100, 2, 4,
        [](size_t i) {
          if (i == 7) throw std::runtime_error("boom at 7");
          return i;
        },
        [&](size_t i, size_t) {
          consumed.push_back(i);
          return Status::OK();
        });
  };
  EXPECT_THROW(run(), std::runtime_error);
  EXPECT_EQ(consumed.size(), 7u);
}

// Sets TACO_EXT_THREADS for one scope.
struct ExtThreadsEnv {
  explicit ExtThreadsEnv(const char* v) { ::setenv("TACO_EXT_THREADS", v, 1); }
  ~ExtThreadsEnv() { ::unsetenv("TACO_EXT_THREADS"); }
};

TEST(ExtensionThreads, EnvironmentOverridesTheHardwareConcurrency) {
  ::unsetenv("TACO_EXT_THREADS");
  const size_t hw = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_EQ(ext::internal::ExtensionThreads(), hw);
  {
    ExtThreadsEnv env("3");
    EXPECT_EQ(ext::internal::ExtensionThreads(), 3u);
  }
  {
    ExtThreadsEnv env("256");
    EXPECT_EQ(ext::internal::ExtensionThreads(), 256u);
  }
  for (const char* ignored : {"0", "257", "two", "-1", ""}) {
    ExtThreadsEnv env(ignored);
    EXPECT_EQ(ext::internal::ExtensionThreads(), hw) << "TACO_EXT_THREADS=" << ignored;
  }
}

}  // namespace
}  // namespace taco::util
