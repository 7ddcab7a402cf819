// A one-line progress bar on stderr for long commands (DESIGN §4: "Long work shows a
// progress bar on a terminal").
//
// Contract:
//  * Draws only when `enabled` (callers pass ProgressEnabled(ctx): stderr is a terminal and
//    --quiet is not given); otherwise every call does nothing.
//  * Update() redraws "\r<label> [#####     ]  42% 12.3 MiB / 29.0 MiB  4.1 MiB/s  ETA 0:04"
//    (or "12 / 29  350/s" with counts) at most when the shown percentage changes or ~0.1 s
//    passed. Rate = done / time since the bar was made; the ETA is shown once 0.5 s passed
//    and something was done. Finish() draws the final state with the elapsed time instead of
//    the ETA and ends the line. The destructor calls Finish() if it was not called.
#ifndef TACO_CLI_PROGRESS_H_
#define TACO_CLI_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "cli_common.h"

namespace taco::cli {

// stderr is a terminal and not --quiet.
bool ProgressEnabled(const Context& ctx);

class ProgressBar {
 public:
  enum class Unit { kCount, kBytes };
  ProgressBar(std::string label, Unit unit, bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void Update(uint64_t done, uint64_t total);
  void Finish();

 private:
  void Draw();

  std::string label_;
  Unit unit_;
  bool enabled_;
  bool drawn_ = false;
  bool finished_ = false;
  uint64_t done_ = 0;
  uint64_t total_ = 0;
  int last_percent_ = -1;
  std::chrono::steady_clock::time_point last_draw_{};
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// "0:04", "12:03", "1:02:03" for a number of seconds (for the ETA and the elapsed time).
std::string ClockText(double seconds);

}  // namespace taco::cli

#endif  // TACO_CLI_PROGRESS_H_
