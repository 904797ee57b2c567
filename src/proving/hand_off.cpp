#include "proving/hand_off.hpp"

#include <numeric>
#include <span>
#include <stdexcept>
#include <utility>

namespace zkpipe::proving {

HandedRequest hand_off(PreparedRequest& prepared, HandOff how) {
  engine::ProofRequest request = std::move(prepared.request);
  const std::size_t total = request.partitions;
  const bool whole = how.partitions.empty();
  if (whole) {
    how.partitions.resize(total);
    std::iota(how.partitions.begin(), how.partitions.end(), std::size_t{0});
  }
  for (std::size_t p : how.partitions) {
    if (p >= total) {
      throw std::invalid_argument("partition " + std::to_string(p) + " of a request of " + std::to_string(total));
    }
  }
  if (!how.label.empty()) request.label = std::move(how.label);
  request.priority = how.priority;
  auto indices = std::make_shared<const std::vector<std::size_t>>(std::move(how.partitions));
  request.partitions = indices->size();
  if (!whole) {
    request.synthesize = [synthesize = std::move(request.synthesize), indices](std::size_t k) {
      return synthesize((*indices)[k]);
    };
  }
  auto first_failed = std::make_shared<std::atomic<std::size_t>>(total);
  if (!how.verify) {
    request.verify = nullptr;
  } else {
    // The batch check covers every partition in the request's order: only for a whole one.
    engine::ProofCheck batch = whole ? std::move(request.verify) : nullptr;
    request.verify = [batch = std::move(batch), check = prepared.check, indices,
                      first_failed](std::span<const groth16::Proof> proofs) {
      if (batch && batch(proofs)) return true;
      for (std::size_t k = 0; k < proofs.size(); ++k) {
        if (!check((*indices)[k], proofs[k])) {
          first_failed->store((*indices)[k]);
          return false;
        }
      }
      // Every partition passes on its own: true without a batch check, and false
      // where the batch check failed all the same (nothing to name, still refused).
      return !batch;
    };
  }
  return {std::move(request), std::move(first_failed)};
}

}  // namespace zkpipe::proving
