#include "partition_lines.hpp"

#include <iostream>
#include <optional>

#include "memory/buffer_ledger.hpp"
#include "memory/process_memory.hpp"
#include "progress.hpp"

namespace zkpipe::cli {

void PartitionLines::on_partition_retired(const engine::PartitionTimeline& t) {
  using memory::Stage;
  std::string steps;
  for (const auto& step : t.start_steps) steps += " " + step.stage + "=" + format_seconds(step.seconds);
  std::cerr << "partition " << t.partition + 1 << "/" << t.partitions
            << (name_device_ ? " on device " + std::to_string(t.device) : std::string()) << ": synthesis "
            << format_seconds(t.seconds_in(Stage::synthesizing)) << ", queued "
            << format_seconds(t.seconds_in(Stage::queued)) << ", start "
            << format_seconds(t.seconds_in(Stage::on_device)) << (steps.empty() ? "" : " (" + steps.substr(1) + ")")
            << ", finish " << format_seconds(t.seconds_in(Stage::pending_finalize)) << ", peak RSS "
            << format_bytes(static_cast<double>(memory::peak_resident_bytes())) << device_note() << "\n";
}

std::string PartitionLines::device_note() const {
  const memory::StageTotals dev = memory::BufferLedger::process().snapshot()[memory::Stage::device];
  const std::optional<std::size_t> used = groth16::device_memory_used(backends_);
  if (!used && dev.peak_bytes == 0) return "";
  std::string note = ", device memory " + format_bytes(static_cast<double>(dev.bytes)) + " in " +
                     std::to_string(dev.count) + " ledger buffers";
  if (used) note += " (" + format_bytes(static_cast<double>(*used)) + " in use)";
  return note;
}

}  // namespace zkpipe::cli
