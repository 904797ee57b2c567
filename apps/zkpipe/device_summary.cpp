#include "device_summary.hpp"

#include <cstdio>
#include <string>

#include "progress.hpp"

namespace zkpipe::cli {

void print_device_summary(std::ostream& out, const std::vector<engine::DeviceStatus>& devices, double wall_seconds) {
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const engine::DeviceStatus& s = devices[d];
    char busy[32];
    std::snprintf(busy, sizeof busy, "%.1f %%", wall_seconds > 0 ? 100 * s.busy_seconds / wall_seconds : 0.0);
    out << "device " << d << " (" << s.backend << (s.ordinal ? " on GPU " + std::to_string(*s.ordinal) : "")
        << "): " << (s.healthy ? "healthy" : "FAILED: " + s.failure) << ", " << s.partitions_proved
        << " partitions proved";
    if (s.partitions_reassigned > 0) out << ", " << s.partitions_reassigned << " moved to another device";
    out << ", busy " << busy;
    if (s.ordinal) {
      out << ", GPU memory in the ledger " << format_bytes(static_cast<double>(s.memory.bytes)) << " (peak "
          << format_bytes(static_cast<double>(s.memory.peak_bytes)) << ")";
    }
    out << "\n";
  }
}

}  // namespace zkpipe::cli
