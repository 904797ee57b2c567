// bench_gpu's arithmetic probe: throughput of the device field products and of
// the G1 mixed addition, the unit costs the MSM's and the NTT's phases are made of.
#pragma once

#include "gpu/kernel_bounds.hpp"

namespace zkpipe::gpu {

void bench_arith();
// The rates kernel_bounds.hpp divides by, measured on device 0: a 1 GiB device-to-device
// copy (its reads and writes), dependent chains of Fr products and of G1 mixed additions.
DeviceRates measure_device_rates();

}  // namespace zkpipe::gpu
