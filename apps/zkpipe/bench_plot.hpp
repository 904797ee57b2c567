// An SVG plot of a run, drawn by hand (no plotting dependency): partitions in flight
// per stage over time (top) and memory over time — RSS above the baseline, the
// ledger's tracked total and its bytes per stage (bottom).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/run_recorder.hpp"

namespace zkpipe::cli {

void write_buffer_plot(const std::string& path, const std::vector<engine::LedgerSample>& samples,
                       std::size_t baseline_rss, const std::string& title);

}  // namespace zkpipe::cli
