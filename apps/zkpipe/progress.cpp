#include "progress.hpp"

#include <cstdio>

namespace zkpipe::cli {

void ProgressBar::update(std::string_view label, std::size_t done, std::size_t total) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  bool new_label = label != last_label_;
  bool complete = total != 0 && done == total;
  if (!new_label && !complete && now - last_draw_ < std::chrono::milliseconds(200)) return;
  if (new_label && drawn_) std::fputc('\n', stderr);
  last_label_ = label;
  last_draw_ = now;
  if (total == 0) {  // a count with no known end
    std::fprintf(stderr, "\r%-12.*s %zu", static_cast<int>(label.size()), label.data(), done);
    std::fflush(stderr);
    drawn_ = true;
    return;
  }
  constexpr int kWidth = 30;
  double fraction = total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
  int filled = static_cast<int>(fraction * kWidth);
  std::fprintf(stderr, "\r%-12.*s [%-*.*s] %zu/%zu (%3.0f%%)", static_cast<int>(label.size()), label.data(),
               kWidth, filled, "##############################", done, total, fraction * 100);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_) std::fputc('\n', stderr);
  drawn_ = false;
  last_label_.clear();
}

std::string format_seconds(double s) {
  char buf[32];
  if (s >= 1) {
    std::snprintf(buf, sizeof buf, "%.2f s", s);
  } else if (s >= 1e-3) {
    std::snprintf(buf, sizeof buf, "%.1f ms", s * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  }
  return buf;
}

}  // namespace zkpipe::cli
