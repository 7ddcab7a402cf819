// OrderedParallel: compute items on a pool of threads, consume them in index order.
//
// OrderedParallel(n, threads, window, produce, consume) calls produce(i) for every i in
// [0, n) on up to `threads` worker threads and consume(i, result) on the calling thread, in
// increasing i, each once. What consume sees is therefore independent of the thread count and
// of scheduling: a caller that builds its output only in consume gets the same output with 1
// thread or 64.
//
// Contracts:
//  * threads <= 1 (or n <= 1): no thread is started; produce(i) then consume(i) run in turn
//    on the calling thread.
//  * Memory: at most max(window, threads) results exist at once (produced but not consumed);
//    a worker waits before starting item i until item i - window has been consumed.
//  * Stop: the first consume that returns a non-OK status stops the run: consume is called no
//    more, workers take no new item (items already started finish and are dropped), and that
//    status is returned once every worker has joined. So "the first error in index order
//    wins" when produce returns errors as values and consume returns them.
//  * Exceptions: one thrown by produce(i) is rethrown on the calling thread when item i's
//    turn comes (after the workers joined); one thrown by consume likewise. Nothing escapes
//    a worker thread.
//  * produce must be safe to call from several threads at once; consume runs on the caller.
#ifndef TACO_SRC_UTIL_ORDERED_PARALLEL_H_
#define TACO_SRC_UTIL_ORDERED_PARALLEL_H_

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "taco/status.h"

namespace taco::util {

template <typename Produce, typename Consume>
Status OrderedParallel(size_t n, size_t threads, size_t window, Produce&& produce, Consume&& consume) {
  using T = decltype(produce(size_t{0}));
  if (threads <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) {
      Status status = consume(i, produce(i));
      if (!status.ok()) return status;
    }
    return Status::OK();
  }
  threads = std::min(threads, n);
  window = std::max(window, threads);

  struct Slot {
    std::optional<T> value;
    std::exception_ptr error;
    bool ready = false;
  };
  std::vector<Slot> slots(window);  // item i lives in slots[i % window]
  std::mutex mu;
  std::condition_variable produced;  // a slot became ready (the consumer waits)
  std::condition_variable consumed;  // the window moved or the run stopped (workers wait)
  size_t next = 0;                   // next item to hand out
  size_t done = 0;                   // items consumed
  bool stop = false;

  auto worker = [&] {
    for (;;) {
      size_t i = 0;
      {
        std::unique_lock<std::mutex> lock(mu);
        consumed.wait(lock, [&] { return stop || next >= n || next < done + window; });
        if (stop || next >= n) return;
        i = next++;
      }
      Slot local;
      try {
        local.value.emplace(produce(i));
      } catch (...) {
        local.error = std::current_exception();
      }
      local.ready = true;
      {
        std::lock_guard<std::mutex> lock(mu);
        slots[i % window] = std::move(local);
      }
      produced.notify_one();  // only the consumer waits on `produced`
    }
  };

  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (size_t t = 0; t < threads; ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {
      break;  // the system gave fewer threads: run with those
    }
  }
  if (pool.empty()) return OrderedParallel(n, 1, window, produce, consume);

  Status status = Status::OK();
  std::exception_ptr thrown;
  for (size_t i = 0; i < n; ++i) {
    Slot slot;
    {
      std::unique_lock<std::mutex> lock(mu);
      produced.wait(lock, [&] { return slots[i % window].ready; });
      slot = std::move(slots[i % window]);
      slots[i % window] = Slot();
    }
    if (slot.error) {
      thrown = slot.error;
      break;
    }
    try {
      status = consume(i, std::move(*slot.value));
    } catch (...) {
      thrown = std::current_exception();
      break;
    }
    if (!status.ok()) break;
    {
      std::lock_guard<std::mutex> lock(mu);
      done = i + 1;
    }
    consumed.notify_all();
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    stop = true;
  }
  consumed.notify_all();
  for (std::thread& t : pool) t.join();
  if (thrown) std::rethrow_exception(thrown);
  return status;
}

}  // namespace taco::util

#endif  // TACO_SRC_UTIL_ORDERED_PARALLEL_H_
