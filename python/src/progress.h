// Progress of long writes (create, convert, export, from_directory) reported to a Python
// callable `fn(done, total)`.
//
// Contract: ProgressRelay(fn) with fn None gives an empty std::function (the core skips
// progress). Otherwise callback() may be called from any thread with or without the GIL; it
// takes the GIL and calls fn at most every kProgressInterval, plus always for done == total.
// The first exception fn raises is kept (fn is not called again) and RaiseIfFailed(), called
// with the GIL after the native call returned, raises it: the write itself is not stopped.
// The relay must outlive the native call it was handed to.
#ifndef TACO_PYTHON_PROGRESS_H_
#define TACO_PYTHON_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include <nanobind/nanobind.h>

namespace taco::py {

inline constexpr std::chrono::milliseconds kProgressInterval{100};

class ProgressRelay {
 public:
  explicit ProgressRelay(nanobind::object fn) : fn_(std::move(fn)) {}
  ~ProgressRelay() {
    nanobind::gil_scoped_acquire gil;  // the Python objects die with the GIL held
    error_.reset();
    fn_ = nanobind::object();
  }
  ProgressRelay(const ProgressRelay&) = delete;
  ProgressRelay& operator=(const ProgressRelay&) = delete;

  template <typename N>
  std::function<void(N, N)> callback() {
    if (fn_.is_none()) return {};
    return [this](N done, N total) { Report(static_cast<uint64_t>(done), static_cast<uint64_t>(total)); };
  }

  void RaiseIfFailed() {
    if (error_) {
      nanobind::python_error e = std::move(*error_);
      error_.reset();
      throw e;
    }
  }

 private:
  void Report(uint64_t done, uint64_t total) {
    {
      // Never held while waiting for the GIL (a thread holding the GIL may report too).
      std::lock_guard<std::mutex> lock(mu_);
      const auto now = std::chrono::steady_clock::now();
      if (done != total && last_ && now - *last_ < kProgressInterval) return;
      last_ = now;
    }
    nanobind::gil_scoped_acquire gil;
    if (error_) return;
    try {
      fn_(done, total);
    } catch (nanobind::python_error& e) {
      error_.emplace(std::move(e));
    }
  }

  std::mutex mu_;
  nanobind::object fn_;
  std::optional<std::chrono::steady_clock::time_point> last_;
  std::optional<nanobind::python_error> error_;
};

}  // namespace taco::py

#endif  // TACO_PYTHON_PROGRESS_H_
