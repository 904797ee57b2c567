// The rates kernel_bounds.hpp divides by, measured on one device: how fast its memory
// copies (a device-to-device copy's reads and writes counted), and how many Fr
// products and G1 mixed additions its multiprocessors complete per second in
// dependent chains, one per thread, every multiprocessor full.
#pragma once

#include "gpu/kernel_bounds.hpp"

namespace zkpipe::gpu {

// Threads for the probes' chains: four waves of every multiprocessor of `device` full
// (its threads per multiprocessor, which differ between architectures), in whole
// blocks of `block`.
unsigned probe_threads(int device, unsigned block);

// About a second of device work; takes 2 GiB of device memory for the copy. Call
// with no other work on the device, as a benchmark.
DeviceRates measure_device_rates(int device);

}  // namespace zkpipe::gpu
