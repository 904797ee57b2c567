// zkpipe bench limit: the partition's heavy kernels on one GPU beside the least time
// their work takes at the device's measured rates (src/gpu/kernel_bounds.hpp).
#pragma once

#include <CLI/CLI.hpp>

namespace zkpipe::cli {

void register_bench_limit(CLI::App& bench);

}  // namespace zkpipe::cli
