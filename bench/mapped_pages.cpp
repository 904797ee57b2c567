// The pagemap scan behind the ledger's charge for mapped files (memory::present_bytes,
// which MappedCharge::refresh runs): its cost per GiB of mapping with every page
// present and with the pages given back (io::release_mapped_pages). It sets how often
// the engine's hooks may refresh the charges of a resident key (docs/BENCHMARKS.md).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/file_mapping.hpp"
#include "memory/process_memory.hpp"

namespace {

using namespace zkpipe;

// A file of `bytes` mapped read-only, every page read once.
std::shared_ptr<const io::FileMapping> mapped_file(std::size_t bytes) {
  const auto path = std::filesystem::temp_directory_path() / ("zkpipe_bench_mapped_" + std::to_string(getpid()));
  {
    std::ofstream out(path, std::ios::binary);
    const std::vector<char> block(std::size_t{1} << 20, 1);
    for (std::size_t written = 0; written < bytes; written += block.size()) {
      out.write(block.data(), static_cast<std::streamsize>(block.size()));
    }
  }
  auto mapping = io::FileMapping::open(path);
  std::filesystem::remove(path);
  unsigned sum = 0;
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  for (std::size_t at = 0; at < bytes; at += page) sum += mapping->bytes()[at];
  benchmark::DoNotOptimize(sum);
  return mapping;
}

// Arg: GiB mapped; arg 2: 1 when the pages are given back first.
void BM_PresentBytes(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) << 30;
  const auto mapping = mapped_file(bytes);
  if (state.range(1) != 0) io::release_mapped_pages(mapping->bytes().data(), bytes);
  const memory::AddressRange range{mapping->bytes().data(), bytes};
  for (auto _ : state) benchmark::DoNotOptimize(memory::present_bytes({&range, 1}));
  state.counters["GiB_scanned_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(state.range(0)), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PresentBytes)->Args({1, 0})->Args({1, 1})->Args({4, 0})->Args({4, 1})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
