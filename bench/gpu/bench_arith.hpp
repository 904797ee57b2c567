// bench_gpu's arithmetic probe: throughput of the device Fp products (the MSM's
// field), beside device_rates.hpp's Fr products, G1 mixed additions and memory copy.
#pragma once

namespace zkpipe::gpu {

void bench_arith();

}  // namespace zkpipe::gpu
