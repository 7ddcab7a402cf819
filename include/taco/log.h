// Diagnostics of what the library does, for `taco -v` / `taco --debug` and for programs that
// want the same trace: one process-wide level and one sink.
//
// Levels (each includes the ones before it):
//  * kOff (default): nothing is produced; a disabled call costs one relaxed atomic load.
//  * kVerbose: what is opened (local files, GDAL/VSI objects, datasets with their format,
//    levels and the time it took), every HTTP request made (method, URL, byte range, status,
//    bytes received, time; retries too), disk-cache hits and misses, and outputs written.
//  * kDebug: also every read of a local or GDAL file (offset, bytes, time) and every SQL
//    statement sent to DuckDB (its text and time).
// Lines have no trailing newline. The default sink writes "[+<seconds since logging was
// enabled>] <line>\n" to stderr; SetLogSink replaces it (null restores the default). Both
// functions are thread-safe; the sink is called under a lock, one line at a time.
#ifndef TACO_LOG_H_
#define TACO_LOG_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>

namespace taco {

enum class LogLevel { kOff = 0, kVerbose = 1, kDebug = 2 };

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
// True when lines of `level` are produced (check before building an expensive message).
bool LogEnabled(LogLevel level);

using LogSink = std::function<void(LogLevel level, std::string_view line)>;
void SetLogSink(LogSink sink);

// Sends `line` to the sink when `level` is enabled.
void Log(LogLevel level, std::string_view line);

// Milliseconds since `start`, formatted "12.3 ms".
std::string ElapsedText(std::chrono::steady_clock::time_point start);

}  // namespace taco

#endif  // TACO_LOG_H_
