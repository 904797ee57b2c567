// The log_buffers line, one per lifecycle hook:
//   buffers ev=synth_done proof=7 part=3/10 synth=4/13.1GiB queued=2/6.5GiB gpu=1/3.3GiB
//     finalize=3/2.1GiB dealloc=0 params=1/2.0GiB scratch=2/128.0MiB dev=21/12.1GiB
//     dev_used=12.9GiB rss=41.2GiB runtime=9.8MiB untracked=0.8GiB
// (count/bytes per stage), where runtime is the process's code pages and malloc's
// small-block heap and untracked = RSS − baseline − tracked − runtime growth
// (memory/process_memory.hpp): memory neither the ledger nor the runtime explains
// (leaks, large allocations outside the ledger, thread stacks).
// dev= is the ledger's device memory, which is not in tracked (it is not in RSS);
// dev_used= is what the device's driver reports in use (ProverBackend::device_memory_used).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "memory/process_memory.hpp"

namespace zkpipe::engine {

enum class LogLevel : std::uint8_t { error, warn, info, debug, trace };

std::optional<LogLevel> parse_log_level(std::string_view text);

// "13.1GiB", "512.0MiB", "0" (compact, for log lines); negative values keep their sign.
std::string format_compact_bytes(double bytes);

std::string format_buffer_line(const HookEvent& event, const memory::MemoryBaseline& baseline,
                               std::optional<std::size_t> device_used = std::nullopt);

struct BufferLogOptions {
  LogLevel line_level = LogLevel::debug;  // the level the lines are logged at
  LogLevel threshold = LogLevel::info;    // the most verbose level being printed
  double min_interval_seconds = 0;        // rate limit: at most one line per interval
  memory::MemoryBaseline baseline;
};

class BufferLogger final : public EngineListener {
 public:
  // The lines carry dev_used= when the engine's devices (if given) report their
  // GPUs' memory (groth16::device_memory_used).
  BufferLogger(std::ostream& out, const BufferLogOptions& options,
               std::vector<std::shared_ptr<groth16::ProverBackend>> devices = {})
      : out_(out), options_(options), devices_(std::move(devices)) {}

  void on_hook(const HookEvent& event) override;

 private:
  std::ostream& out_;
  BufferLogOptions options_;
  std::vector<std::shared_ptr<groth16::ProverBackend>> devices_;
  std::optional<double> last_line_;
  std::size_t suppressed_ = 0;
};

}  // namespace zkpipe::engine
