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
  std::fprintf(stderr, "\r%s [%s] %3d%% %s / %s\033[K", label_.c_str(), bar.c_str(), percent,
               Amount(done_, unit_).c_str(), Amount(total_, unit_).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace taco::cli
