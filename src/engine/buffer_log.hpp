// The log_buffers line, one per lifecycle hook:
//   buffers ev=synth_done proof=7 part=3/10 synth=4/13.1GiB queued=2/6.5GiB gpu=1/3.3GiB
//     finalize=3/2.1GiB dealloc=0 params=1/2.0GiB scratch=0 rss=41.2GiB untracked=0.8GiB
// (count/bytes per stage), where untracked = RSS − baseline − tracked: memory the
// ledger does not know about (leaks, allocator slack, copies inside synthesis).
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "engine/engine.hpp"

namespace zkpipe::engine {

enum class LogLevel : std::uint8_t { error, warn, info, debug, trace };

std::optional<LogLevel> parse_log_level(std::string_view text);

// "13.1GiB", "512.0MiB", "0" (compact, for log lines); negative values keep their sign.
std::string format_compact_bytes(double bytes);

std::string format_buffer_line(const HookEvent& event, std::size_t baseline_rss);

struct BufferLogOptions {
  LogLevel line_level = LogLevel::debug;  // the level the lines are logged at
  LogLevel threshold = LogLevel::info;    // the most verbose level being printed
  double min_interval_seconds = 0;        // rate limit: at most one line per interval
  std::size_t baseline_rss = 0;
};

class BufferLogger final : public EngineListener {
 public:
  BufferLogger(std::ostream& out, const BufferLogOptions& options) : out_(out), options_(options) {}

  void on_hook(const HookEvent& event) override;

 private:
  std::ostream& out_;
  BufferLogOptions options_;
  std::optional<double> last_line_;
  std::size_t suppressed_ = 0;
};

}  // namespace zkpipe::engine
