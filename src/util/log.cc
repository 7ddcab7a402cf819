// Implementation of include/taco/log.h. Times in the default sink count from the first
// SetLogLevel() that enabled logging.
#include "taco/log.h"

#include <cstdio>
#include <mutex>

namespace taco {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kOff)};

struct SinkState {
  std::mutex mu;
  LogSink sink;
  bool started = false;
  std::chrono::steady_clock::time_point first;
};

SinkState& State() {
  static SinkState* const state = new SinkState();
  return *state;
}

}  // namespace

void SetLogLevel(LogLevel level) {
  if (level != LogLevel::kOff) {
    SinkState& s = State();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.started) {
      s.started = true;
      s.first = std::chrono::steady_clock::now();
    }
  }
  g_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

LogLevel GetLogLevel() { return static_cast<LogLevel>(g_level.load(std::memory_order_relaxed)); }

bool LogEnabled(LogLevel level) {
  return level != LogLevel::kOff && g_level.load(std::memory_order_relaxed) >= static_cast<int>(level);
}

void SetLogSink(LogSink sink) {
  SinkState& s = State();
  std::lock_guard<std::mutex> lock(s.mu);
  s.sink = std::move(sink);
}

void Log(LogLevel level, std::string_view line) {
  if (!LogEnabled(level)) return;
  SinkState& s = State();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.sink) {
    s.sink(level, line);
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (!s.started) {
    s.started = true;
    s.first = now;
  }
  const double seconds = std::chrono::duration<double>(now - s.first).count();
  std::fprintf(stderr, "[+%.3fs] %.*s\n", seconds, static_cast<int>(line.size()), line.data());
  std::fflush(stderr);
}

std::string ElapsedText(std::chrono::steady_clock::time_point start) {
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  char buf[32];
  std::snprintf(buf, sizeof(buf), ms < 10 ? "%.2f ms" : "%.1f ms", ms);
  return buf;
}

}  // namespace taco
