#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

namespace taco::cli {
namespace {

constexpr int kBarWidth = 30;

std::string Amount(uint64_t n, ProgressBar::Unit unit) {
  if (unit == ProgressBar::Unit::kCount) return std::to_string(n);
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof(buf), u == 0 ? "%.0f %s" : "%.1f %s", v, kUnits[u]);
  return buf;
}

}  // namespace

std::string ClockText(double seconds) {
  const long total = seconds < 0 ? 0 : static_cast<long>(seconds + 0.5);
  char buf[32];
  if (total >= 3600) {
    std::snprintf(buf, sizeof(buf), "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%ld:%02ld", total / 60, total % 60);
  }
  return buf;
}

bool ProgressEnabled(const Context& ctx) { return !ctx.global.quiet && ::isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::string label, Unit unit, bool enabled)
    : label_(std::move(label)), unit_(unit), enabled_(enabled) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Update(uint64_t done, uint64_t total) {
  if (!enabled_ || finished_) return;
  done_ = done;
  total_ = total;
  const int percent = total == 0 ? 100 : static_cast<int>(done * 100 / total);
  const auto now = std::chrono::steady_clock::now();
  if (percent == last_percent_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_percent_ = percent;
  last_draw_ = now;
  Draw();
}

void ProgressBar::Finish() {
  if (!enabled_ || finished_) return;
  finished_ = true;
  if (!drawn_) return;
  Draw();
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

void ProgressBar::Draw() {
  const int percent = total_ == 0 ? 100 : static_cast<int>(done_ * 100 / total_);
  const int filled = percent * kBarWidth / 100;
  std::string bar(static_cast<size_t>(filled), '#');
  bar.append(static_cast<size_t>(kBarWidth - filled), ' ');
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string timing;
  if (elapsed >= 0.5 && done_ > 0) {
    const double rate = static_cast<double>(done_) / elapsed;
    timing = "  " + Amount(static_cast<uint64_t>(rate), unit_) + "/s";
    if (finished_) {
      timing += "  in " + ClockText(elapsed);
    } else if (total_ > done_) {
      timing += "  ETA " + ClockText(static_cast<double>(total_ - done_) / rate);
    }
  }
  std::fprintf(stderr, "\r%s [%s] %3d%% %s / %s%s\033[K", label_.c_str(), bar.c_str(), percent,
               Amount(done_, unit_).c_str(), Amount(total_, unit_).c_str(), timing.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace taco::cli
