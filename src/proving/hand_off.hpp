// How a prepared request goes to an engine, the one way for `zkpipe prove`, `zkpipe
// filecoin c2`, `zkpipe groth16 prove`, `zkpipe bench` and the daemon's queues alike:
// which of its partitions are proved, under what label and priority, and the check
// every proof passes before the engine hands it back. When every partition is proved
// the request's own batch check (one multi-pairing) runs first, and the partitions are
// checked one by one only when it fails, to name the first that does.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/request.hpp"
#include "proving/proof_request.hpp"

namespace zkpipe::proving {

struct HandOff {
  std::string label;  // empty: the request's own (the circuit's name)
  engine::Priority priority = engine::Priority::normal;
  std::vector<std::size_t> partitions;  // of the request, in order; empty: all of them
  bool verify = true;
};

struct HandedRequest {
  // Partition k of it is partition partitions[k] of the prepared request; the caller
  // adds on_complete.
  engine::ProofRequest request;
  // The first partition (the prepared request's numbering) whose proof did not
  // verify; the prepared request's partition count while none has failed.
  std::shared_ptr<const std::atomic<std::size_t>> first_failed;
};

// Moves prepared.request out; prepared.check and public_signals stay. Throws
// std::invalid_argument for a partition the request does not have.
HandedRequest hand_off(PreparedRequest& prepared, HandOff how);

}  // namespace zkpipe::proving
