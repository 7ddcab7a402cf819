// Cooperative cancellation of long library calls (used by the Python bindings so that
// SIGINT / KeyboardInterrupt stops a running call).
//
// Contract:
//  * A CancelScope installs `poll` for the calling thread for its lifetime (scopes nest; the
//    innermost wins). Long loops of the library call CancelRequested() on that thread; it
//    calls `poll` at most every kCancelPollInterval and, once `poll` has returned true,
//    returns true for the rest of the scope. Without a scope it is a cheap false.
//  * A loop that sees CancelRequested() returns Cancelled(where): IOError "<where>:
//    interrupted". The caller (the binding) knows from scope.cancelled() that the error is an
//    interruption, not a failure.
//  * `poll` runs on the thread that created the scope, never concurrently with itself.
//  * Which calls check (docs/reliability.md): band statistics (stored and exact), and the
//    loops listed there; other calls finish their current step first.
#ifndef TACO_CANCEL_H_
#define TACO_CANCEL_H_

#include <chrono>
#include <functional>
#include <string>

#include "taco/status.h"

namespace taco {

inline constexpr std::chrono::milliseconds kCancelPollInterval{50};

class CancelScope {
 public:
  explicit CancelScope(std::function<bool()> poll);
  ~CancelScope();
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

  // True once `poll` returned true.
  bool cancelled() const { return cancelled_; }

 private:
  friend bool CancelRequested();
  std::function<bool()> poll_;
  CancelScope* outer_;
  std::chrono::steady_clock::time_point next_poll_;
  bool cancelled_ = false;
};

// True when the current thread's innermost scope has been cancelled (polls when due).
bool CancelRequested();

// IOError "<where>: interrupted".
Status Cancelled(const std::string& where);

}  // namespace taco

#endif  // TACO_CANCEL_H_
