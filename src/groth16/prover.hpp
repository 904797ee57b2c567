// The split prover interface every backend (CPU, CUDA) implements.
//
//   start(witness, key, blinding) -> pending   everything that needs a, b, c: the h
//                                              polynomial (NTTs) and the G1 MSMs for
//                                              A, B, L and H. It takes the witness by
//                                              value: a, b, c are its scratch, freed
//                                              as the call returns; the assignment
//                                              moves into the pending proof.
//   finish(pending) -> proof                   the G2 MSM for B, r/s blinding, assembly
//   abort(pending)                             drops everything on the error path
//
// The pending proof owns what finish() reads, so the caller keeps nothing alive for
// it. The assignment is shared: a caller that wants to choose the thread its memory
// is freed on (the engine's dealloc thread) holds on to PendingProof::assignment.
// start() and finish() throw DeviceFailure when the device itself failed (the
// engine moves the partition to another device), anything else for a bad witness
// or key (the request fails).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/device_failure.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "groth16/witness.hpp"
#include "memory/buffer_ledger.hpp"

namespace zkpipe::groth16 {

// The r and s of a proof. Fresh from the system CSPRNG in production; tests fix them.
struct Blinding {
  ff::Fr r;
  ff::Fr s;

  static Blinding random();
  static Blinding zero() { return {}; }
};

struct StageTime {
  std::string stage;
  double seconds = 0;
};

class PendingProof {
 public:
  PendingProof() = default;
  PendingProof(const PendingProof&) = delete;
  PendingProof& operator=(const PendingProof&) = delete;
  virtual ~PendingProof() = default;

  // The witness's assignment, set by start() before it returns. A backend whose
  // finish() reads none of it keeps it too, so that it is freed where the caller
  // lets go of it, not on the thread that called start().
  std::shared_ptr<const Assignment> assignment;
  // Wall time of each step so far, in order.
  std::vector<StageTime> timings;
};

class ProverBackend {
 public:
  virtual ~ProverBackend() = default;

  virtual std::string name() const = 0;
  // Host bytes start() adds to a deferred (pce) witness when it materializes it: a,
  // b, c at the domain size (freed when start() returns) and the full aux (kept for
  // finish()) for a backend that computes them on the host; only what it keeps on
  // the host for finish() for one that computes them on its device. Lets the engine
  // charge and reserve what really exists.
  struct MaterializedBytes {
    std::size_t abc = 0;
    std::size_t aux = 0;
  };
  virtual MaterializedBytes host_bytes_to_materialize(std::size_t domain_size, std::size_t aux) const {
    return {3 * sizeof(ff::Fr) * domain_size, sizeof(ff::Fr) * aux};
  }
  virtual std::unique_ptr<PendingProof> start(PartitionWitness witness, const ProvingKey& key,
                                              const Blinding& blinding) = 0;
  // Seconds the device itself spent in start()'s kernel regions since construction,
  // as the device measures them (CUDA events); nullopt for a backend without a device.
  virtual std::optional<double> device_busy_seconds() const { return std::nullopt; }
  // True when start() takes the backend's own lock around its kernels and may be
  // called from several threads at once (their uploads and host-side work then
  // overlap each other's kernels); false when the caller must serialize start().
  virtual bool locks_kernel_region() const { return false; }
  // True when the key's points are already on this backend's device, so that
  // start() with it uploads none: the engine's device assignment prefers such a
  // device. Cheap, and never waits for a start() in progress (the engine asks it
  // under its channel's lock). False for a backend without a device.
  virtual bool holds_key(const ProvingKey& /*key*/) const { return false; }
  // The ordinal of the device the backend drives (its share of the ledger's device
  // memory); nullopt for a backend without a device.
  virtual std::optional<int> device_ordinal() const { return std::nullopt; }
  // What a device backend keeps on its device and what it streams from host memory:
  // the keys placed so far (their points resident or streamed at every MSM), whether
  // the last pce evaluator is streamed, and the bytes sent from host memory since
  // construction (points — every one from a page-locked copy, otherwise those of
  // non-zero terms and their indices — and evaluator matrices).
  struct Placement {
    std::size_t keys_resident = 0;
    std::size_t keys_streamed = 0;
    bool evaluator_streamed = false;
    std::size_t streamed_bytes = 0;
  };
  // nullopt for a backend without a device. Waits for a start()'s kernel region.
  virtual std::optional<Placement> placement() const { return std::nullopt; }
  // Places a key, and the evaluator of its deferred witnesses, ahead of their first
  // partition as start() would (a device backend uploads the points, or makes the
  // copy it streams them from), so that the first proof does not wait for it.
  // Engine::make_resident calls it. Whatever fails here is left for start(), which
  // places again and reports. Default: nothing.
  virtual void prepare(const ProvingKey& /*key*/, const std::shared_ptr<const r1cs::CompiledR1cs>& /*evaluator*/) {}
  virtual Proof finish(std::unique_ptr<PendingProof> pending) = 0;
  virtual void abort(std::unique_ptr<PendingProof> pending) = 0;
  // The ledger the backend's own buffers (device memory, staging, scratch it
  // allocates itself) charge; null for a backend that allocates none of its own. An
  // engine takes only backends that charge its ledger, so that its figures and its
  // budget see all their memory.
  virtual const memory::BufferLedger* ledger() const { return nullptr; }
  // True when the working memory of start() and finish() is the backend's own
  // tracked buffers, charged to ledger() (the CUDA backend: scalars gathered on
  // the device, one staging buffer per prover); false when it is host vectors per
  // partition that the caller reserves and charges (PartitionFootprint::scratch).
  virtual bool allocates_own_scratch() const { return false; }
  // The memory in use on the backend's device as its driver reports it (context
  // and allocations under the ledger's size included); nullopt for a backend
  // without a device, or when the driver cannot tell: a figure for a log line,
  // which must not fail the proof it describes.
  virtual std::optional<std::size_t> device_memory_used() const { return std::nullopt; }
  // The device's whole memory as its driver reports it; nullopt as above.
  virtual std::optional<std::size_t> device_memory_total() const { return std::nullopt; }
};

// The device memory in use on the GPUs the backends drive, as their drivers report
// it, each GPU once (several engine devices may share one); nullopt when none can
// tell.
std::optional<std::size_t> device_memory_used(std::span<const std::shared_ptr<ProverBackend>> backends);

// Checks that a witness has the shape the key was made for; throws
// std::invalid_argument naming the first mismatch. Both halves below.
void check_witness_matches_key(const PartitionWitness& witness, const ProvingKey& key);
// The vector sizes (cheap): inputs, aux, constraints.
void check_witness_sizes(const PartitionWitness& witness, const ProvingKey& key);
// The A/B densities (a pass over the key's density vectors).
void check_witness_densities(const Assignment& assignment, const ProvingKey& key);

// Throws UnsatisfiedConstraint for the first constraint i with a_i·b_i ≠ c_i: a
// prover must refuse such a witness rather than emit a proof that fails later.
class UnsatisfiedConstraint : public std::runtime_error {
 public:
  explicit UnsatisfiedConstraint(std::size_t index);
  std::size_t index() const { return index_; }

 private:
  std::size_t index_;
};
void check_satisfied(const PartitionWitness& witness);

// One-shot convenience: start, then finish.
Proof prove(ProverBackend& backend, PartitionWitness witness, const ProvingKey& key, const Blinding& blinding);

}  // namespace zkpipe::groth16
