// Records a run of the engine — the ledger and RSS at every hook, and every
// partition's timeline — and turns it into a Chrome trace-event JSON file (opens in
// Perfetto / chrome://tracing) and per-stage statistics.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

#include "engine/engine.hpp"

namespace zkpipe::engine {

struct LedgerSample {
  double time = 0;
  Hook hook = Hook::synth_start;
  std::uint64_t request = 0;
  std::size_t partition = 0;
  std::array<std::size_t, kStageCount> count{};
  std::array<std::size_t, kStageCount> bytes{};
  std::size_t tracked = 0;
  std::size_t rss = 0;
  std::size_t runtime = 0;  // HookEvent::runtime
};

struct StageStats {
  std::size_t samples = 0;
  double mean = 0;
  double p50 = 0;
  double p95 = 0;
};

class RunRecorder final : public EngineListener {
 public:
  void on_hook(const HookEvent& event) override;
  void on_partition_retired(const PartitionTimeline& timeline) override;

  const std::vector<LedgerSample>& samples() const { return samples_; }
  // Partitions that went through every stage.
  const std::vector<PartitionTimeline>& timelines() const { return timelines_; }

  // Time in a partition stage (synthesizing … awaiting dealloc) over the recorded partitions.
  StageStats stage_stats(Stage stage) const;

  // One span per partition per stage (a row per partition), counter tracks for the
  // partitions and bytes per stage, the tracked total and RSS.
  void write_chrome_trace(std::ostream& out) const;

 private:
  std::vector<LedgerSample> samples_;
  std::vector<PartitionTimeline> timelines_;
};

// Mean and nearest-rank percentiles.
StageStats summarize(std::vector<double> values);

}  // namespace zkpipe::engine
