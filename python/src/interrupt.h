// SIGINT for long native calls: Interruptible(f) runs f() with the GIL released under a
// taco::CancelScope whose poll (at most every kCancelPollInterval, with the GIL) runs
// Python's pending signal handlers. When a handler raises (KeyboardInterrupt from the default
// SIGINT handler), the library's long loops stop (taco/cancel.h) and that Python exception
// is raised in place of f's result or error. Without a signal, f behaves as if called
// directly. Must be called with the GIL held; f must not touch Python objects.
#ifndef TACO_PYTHON_INTERRUPT_H_
#define TACO_PYTHON_INTERRUPT_H_

#include <nanobind/nanobind.h>

#include "taco/cancel.h"

namespace taco::py {

class InterruptState {
 public:
  // The CancelScope poll: runs Python's signal handlers; true once one raised.
  bool Poll() {
    nanobind::gil_scoped_acquire gil;
    if (!raised_ && PyErr_CheckSignals() != 0) raised_ = true;
    return raised_;
  }
  // With the GIL: raises the handler's exception if one was raised.
  void RaiseIfInterrupted() const {
    if (raised_ && PyErr_Occurred() != nullptr) throw nanobind::python_error();
  }

 private:
  bool raised_ = false;
};

template <typename F>
auto Interruptible(F&& f) {
  InterruptState state;
  try {
    auto result = [&] {
      nanobind::gil_scoped_release release;
      CancelScope scope([&state] { return state.Poll(); });
      return f();
    }();
    state.RaiseIfInterrupted();
    return result;
  } catch (const nanobind::python_error&) {
    throw;
  } catch (...) {
    state.RaiseIfInterrupted();
    throw;
  }
}

}  // namespace taco::py

#endif  // TACO_PYTHON_INTERRUPT_H_
