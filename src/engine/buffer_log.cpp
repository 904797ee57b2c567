#include "engine/buffer_log.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace zkpipe::engine {

std::optional<LogLevel> parse_log_level(std::string_view text) {
  constexpr std::array<std::pair<std::string_view, LogLevel>, 5> kLevels = {{
      {"error", LogLevel::error},
      {"warn", LogLevel::warn},
      {"info", LogLevel::info},
      {"debug", LogLevel::debug},
      {"trace", LogLevel::trace},
  }};
  for (const auto& [name, level] : kLevels) {
    if (name == text) return level;
  }
  return std::nullopt;
}

std::string format_compact_bytes(double bytes) {
  if (bytes == 0) return "0";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double magnitude = std::fabs(bytes);
  int u = 0;
  while (magnitude >= 1024 && u < 4) {
    magnitude /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%.1f%s", bytes < 0 ? "-" : "", magnitude, units[u]);
  return buf;
}

std::string format_buffer_line(const HookEvent& event, const memory::MemoryBaseline& baseline,
                               std::optional<std::size_t> device_used) {
  std::string line = "buffers ev=" + std::string(hook_name(event.hook)) + " proof=" + std::to_string(event.request) +
                     " part=" + std::to_string(event.partition + 1) + "/" + std::to_string(event.partitions);
  for (Stage stage : kAllStages) {
    const StageTotals& s = event.ledger[stage];
    line.append(" ").append(stage_key(stage)).append("=").append(std::to_string(s.count));
    if (s.count != 0) line.append("/").append(format_compact_bytes(static_cast<double>(s.bytes)));
  }
  if (device_used) line += " dev_used=" + format_compact_bytes(static_cast<double>(*device_used));
  const double untracked = memory::untracked_bytes(event.rss, event.ledger.tracked, event.runtime, baseline);
  line += " rss=" + format_compact_bytes(static_cast<double>(event.rss)) +
          " runtime=" + format_compact_bytes(static_cast<double>(event.runtime)) +
          " untracked=" + format_compact_bytes(untracked);
  return line;
}

void BufferLogger::on_hook(const HookEvent& event) {
  if (options_.line_level > options_.threshold) return;
  if (last_line_ && event.time - *last_line_ < options_.min_interval_seconds) {
    ++suppressed_;
    return;
  }
  last_line_ = event.time;
  out_ << format_buffer_line(event, options_.baseline, groth16::device_memory_used(devices_));
  if (suppressed_ != 0) out_ << " (+" << suppressed_ << " events not logged)";
  out_ << '\n';
  suppressed_ = 0;
}

}  // namespace zkpipe::engine
