#pragma once

#include <cstddef>
#include <optional>

#include "groth16/keys.hpp"
#include "groth16/prover.hpp"

namespace zkpipe::cli {

// Before a circuit is compiled or a proof started: one partition of `key` on
// `backend` must fit what this process may take (memory::usable_memory) and, when
// given, a byte budget that also holds the key's host points. Throws
// std::invalid_argument naming the need, its parts and what is there.
void refuse_partition_that_cannot_fit(const groth16::ProvingKey& key, bool through_evaluator,
                                      const groth16::ProverBackend& backend,
                                      std::optional<std::size_t> budget_bytes = std::nullopt);

}  // namespace zkpipe::cli
