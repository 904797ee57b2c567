// One line per engine device after a run: health (and why it failed), partitions
// proved and moved to another device, busy share of the wall time, and the device
// memory the ledger holds for its GPU.
#pragma once

#include <ostream>
#include <vector>

#include "engine/device_status.hpp"

namespace zkpipe::cli {

void print_device_summary(std::ostream& out, const std::vector<engine::DeviceStatus>& devices, double wall_seconds);

}  // namespace zkpipe::cli
