// bench_gpu's arithmetic probe: throughput of the device field products and of
// the G1 mixed addition, the unit costs the MSM's phases are made of.
#pragma once

namespace zkpipe::gpu {

void bench_arith();

}  // namespace zkpipe::gpu
