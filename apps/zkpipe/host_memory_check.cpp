#include "host_memory_check.hpp"

#include <stdexcept>
#include <string>

#include "engine/request.hpp"
#include "progress.hpp"
#include "memory/process_memory.hpp"
#include "proving/proof_request.hpp"

namespace zkpipe::cli {

void refuse_partition_that_cannot_fit(const groth16::ProvingKey& key, bool through_evaluator,
                                      const groth16::ProverBackend& backend, std::optional<std::size_t> budget_bytes) {
  const std::size_t partition = proving::partition_footprint(key, through_evaluator, backend).total();
  auto gib = [](std::size_t bytes) { return format_bytes(static_cast<double>(bytes)); };
  if (budget_bytes) {
    const std::size_t points = engine::parameter_bytes(key);
    if (points + partition > *budget_bytes) {
      throw std::invalid_argument("--budget " + gib(*budget_bytes) + " cannot hold the key's host points (" +
                                  gib(points) + ") and one partition's working set (" + gib(partition) +
                                  "): at least " + gib(points + partition) + " is needed");
    }
  }
  const memory::UsableMemory available = memory::usable_memory();
  if (available.bytes != 0 && partition > available.bytes) {
    throw std::invalid_argument("one partition's working set needs about " + gib(partition) + " of host memory, " +
                                gib(available.bytes) + " is available (" + available.bound + ")");
  }
}

}  // namespace zkpipe::cli
