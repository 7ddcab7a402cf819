// Tools of taco_cpp._native beyond reading and writing: the synthetic demo tree of `taco demo`
// (taco/demo_data.h), the core's log routed to Python (taco/log.h), and `taco publish`
// (taco/publish.h). Thin: the behaviour is the C++ library's.
//
// Log routing: set_log_sink(fn) makes the core's sink queue every line (level 1 verbose,
// 2 debug) without touching Python, so that no thread ever waits for the GIL while holding the
// log lock. The queue is delivered to fn(level, line) in order: at once when the logging thread
// already holds the GIL, otherwise by a pending call (Py_AddPendingCall) that the main thread
// runs at its next bytecode, and by flush_log(). set_log_sink(None) restores the core's stderr
// sink. The queue is bounded (kMaxQueuedLines; older lines are dropped and counted).
#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "errors.h"
#include "taco/demo_data.h"
#include "taco/log.h"
#include "taco/publish.h"

namespace nb = nanobind;

namespace taco::py {
namespace {

constexpr size_t kMaxQueuedLines = 100000;

struct LogQueue {
  std::mutex mu;
  std::deque<std::pair<int, std::string>> lines;
  uint64_t dropped = 0;
  std::atomic<bool> pending_scheduled{false};
};

LogQueue& Queue() {
  static LogQueue* q = new LogQueue();  // never destroyed: the sink may run during exit
  return *q;
}

// The Python function lines go to; owned with the GIL. Null: not routed.
PyObject* g_sink_fn = nullptr;

// With the GIL: hands every queued line to the Python sink. Errors of the sink are printed
// (sys.excepthook style) and do not stop delivery.
void Deliver() {
  std::deque<std::pair<int, std::string>> lines;
  uint64_t dropped = 0;
  {
    std::lock_guard<std::mutex> lock(Queue().mu);
    lines.swap(Queue().lines);
    std::swap(dropped, Queue().dropped);
  }
  if (g_sink_fn == nullptr) return;
  nb::handle fn(g_sink_fn);
  if (dropped > 0) lines.emplace_front(1, "taco_cpp: " + std::to_string(dropped) + " log lines dropped (queue full)");
  for (auto& [level, line] : lines) {
    try {
      fn(level, SafeStr(line));
    } catch (nb::python_error& e) {
      e.discard_as_unraisable("taco_cpp log sink");
    }
  }
}

int PendingDeliver(void*) {
  Queue().pending_scheduled = false;
  Deliver();
  return 0;
}

void QueueLine(LogLevel level, std::string_view line) {
  {
    std::lock_guard<std::mutex> lock(Queue().mu);
    if (Queue().lines.size() >= kMaxQueuedLines) {
      Queue().lines.pop_front();
      ++Queue().dropped;
    }
    Queue().lines.emplace_back(static_cast<int>(level), std::string(line));
  }
  if (!Py_IsInitialized()) return;  // the interpreter is gone (exit): nobody to deliver to
  if (PyGILState_Check()) {
    Deliver();
  } else if (!Queue().pending_scheduled.exchange(true)) {
    if (Py_AddPendingCall(&PendingDeliver, nullptr) != 0) Queue().pending_scheduled = false;
  }
}

}  // namespace

void BindTools(nb::module_& m) {
  // The GeoTIFF tree of `taco demo` in `dir`: a list of dicts, one per tile (id, lon, lat,
  // time_start_us, time_end_us, country).
  m.def(
      "demo_tree",
      [](const std::string& dir, int tiles, int size) {
        DemoOptions o;
        o.tiles = tiles;
        o.size = size;
        std::vector<DemoTile> made = [&] {
          nb::gil_scoped_release release;
          return Take(SynthesizeDemoTree(dir, o));
        }();
        nb::list out;
        for (const auto& t : made) {
          nb::dict d;
          d["id"] = t.id;
          d["lon"] = t.lon;
          d["lat"] = t.lat;
          d["time_start_us"] = t.time_start_us;
          d["time_end_us"] = t.time_end_us;
          d["country"] = t.country;
          out.append(d);
        }
        return out;
      },
      nb::arg("dir"), nb::arg("tiles"), nb::arg("size"));

  // ---- log ---------------------------------------------------------------------------------
  m.def(
      "set_log_level",
      [](int level) {
        if (level < 0 || level > 2) throw StatusError(StatusCode::kInvalidArgument, "log level is 0, 1 or 2");
        SetLogLevel(static_cast<LogLevel>(level));
      },
      nb::arg("level"));
  m.def("get_log_level", [] { return static_cast<int>(GetLogLevel()); });
  m.def(
      "set_log_sink",
      [](nb::object fn) {
        if (fn.is_none()) {
          SetLogSink(nullptr);
          Deliver();  // what was queued still reaches the old sink
          Py_XDECREF(g_sink_fn);
          g_sink_fn = nullptr;
          return;
        }
        Py_XDECREF(g_sink_fn);
        g_sink_fn = fn.release().ptr();
        SetLogSink(&QueueLine);
      },
      nb::arg("fn").none());
  m.def("flush_log", [] { Deliver(); });

  // ---- publish -----------------------------------------------------------------------------
  m.def(
      "publish",
      [](const std::string& dataset, const std::string& outdir, const std::string& publication_json,
         const std::string& publication_source, const std::string& base_url, const std::string& only, bool overwrite,
         const std::string& generated_at) {
        PublishOptions o;
        if (!publication_json.empty()) {
          nlohmann::ordered_json sidecar;
          try {
            sidecar = nlohmann::ordered_json::parse(publication_json);
          } catch (const std::exception& e) {
            throw StatusError(StatusCode::kInvalidArgument, publication_source + ": not JSON: " + e.what());
          }
          o.publication = Take(ParsePublication(sidecar, publication_source));
        }
        if (!only.empty()) o.only = Take(ParsePublishOutputs(only));
        o.base_url = base_url;
        o.overwrite = overwrite;
        o.generated_at = generated_at;
        nb::gil_scoped_release release;
        return Take(Publish(dataset, outdir, o)).written;
      },
      nb::arg("dataset"), nb::arg("outdir"), nb::arg("publication_json"), nb::arg("publication_source"),
      nb::arg("base_url"), nb::arg("only"), nb::arg("overwrite"), nb::arg("generated_at"));
}

}  // namespace taco::py
