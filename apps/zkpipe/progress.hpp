// A one-line progress bar on stderr for long steps (setup, batches of proofs).
// Redraws at most a few times a second so it costs nothing next to the work.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "formats/byte_size.hpp"

namespace zkpipe::cli {

class ProgressBar {
 public:
  explicit ProgressBar(bool enabled = true) : enabled_(enabled) {}
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar() { finish(); }

  // total 0: a count whose end is not known (no bar, just the count).
  void update(std::string_view label, std::size_t done, std::size_t total);
  // Ends the line (called automatically on destruction).
  void finish();

 private:
  bool enabled_;
  bool drawn_ = false;
  std::string last_label_;
  std::chrono::steady_clock::time_point last_draw_{};
};

// "1.23 s", "45.6 ms"
std::string format_seconds(double seconds);
using formats::format_bytes;

}  // namespace zkpipe::cli
