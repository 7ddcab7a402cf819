// The io layer's lines for taco/log.h: opens (verbose), reads (debug; verbose for remote
// objects read through GDAL, where a read is a request) and HTTP requests (verbose).
#ifndef TACO_IO_IO_LOG_H_
#define TACO_IO_IO_LOG_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "taco/log.h"

namespace taco::io {

using Clock = std::chrono::steady_clock;

// Clock::now() when lines of `level` are produced, else a zero time point (no clock read on
// the hot path of reads when logging is off).
inline Clock::time_point StartIfLogging(LogLevel level) {
  return LogEnabled(level) ? Clock::now() : Clock::time_point();
}

inline std::string ByteRangeText(uint64_t offset, uint64_t n) {
  return "bytes " + std::to_string(offset) + "-" + std::to_string(n == 0 ? offset : offset + n - 1);
}

// "open <what> <name> (<size> bytes, <time>)".
inline void LogOpen(const char* what, const std::string& name, uint64_t size, Clock::time_point start) {
  if (!LogEnabled(LogLevel::kVerbose)) return;
  Log(LogLevel::kVerbose,
      std::string("open ") + what + " " + name + " (" + std::to_string(size) + " bytes, " + ElapsedText(start) + ")");
}

// "read <name> bytes a-b: n bytes, <time>" at `level`.
inline void LogRead(LogLevel level, const std::string& name, uint64_t offset, uint64_t n, Clock::time_point start) {
  if (!LogEnabled(level)) return;
  Log(level,
      "read " + name + " " + ByteRangeText(offset, n) + ": " + std::to_string(n) + " bytes, " + ElapsedText(start));
}

}  // namespace taco::io

#endif  // TACO_IO_IO_LOG_H_
