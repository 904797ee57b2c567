// What a client hands the engine (a proof request) and what it gets back.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/admission.hpp"
#include "engine/hook.hpp"
#include "engine/priority.hpp"
#include "groth16/footprint.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/witness.hpp"
#include "memory/buffer_ledger.hpp"
#include "memory/mapped_charge.hpp"
#include "memory/stage.hpp"
#include "r1cs/compiled_r1cs.hpp"

namespace zkpipe::engine {

// The engine counts its buffers in the memory layer's ledger, under its stage tags.
using memory::BufferLedger;
using memory::kAllStages;
using memory::kStageCount;
using memory::LedgerSnapshot;
using memory::Stage;
using memory::StageTotals;

// A proving key made resident for the engine, with its circuit's pre-compiled
// evaluator when the requests synthesize through it: their bytes are reserved from
// the memory budget and charged to the ledger under "parameters" for as long as any
// request (or the caller) holds them. The reservation is for all their bytes; the
// ledger's charge counts what lives in memory the program allocated in full, and
// what views a mapped file (a parameter or evaluator file) by its pages present in
// the process (memory::MappedCharge), which is what RSS holds of it.
class ResidentParameters {
 public:
  const groth16::ProvingKey& key() const { return *key_; }
  // Null when the requests synthesize without it.
  const std::shared_ptr<const r1cs::CompiledR1cs>& evaluator() const { return evaluator_; }
  // The bytes charged to the ledger now.
  std::size_t bytes() const { return charge_.bytes() + (mapped_ ? mapped_->bytes() : 0); }
  // The bytes reserved from the budget (the most the charge can grow to).
  std::size_t reserved_bytes() const { return reservation_.bytes(); }

 private:
  friend class Engine;
  ResidentParameters(std::shared_ptr<const groth16::ProvingKey> key, std::shared_ptr<const r1cs::CompiledR1cs> evaluator,
                     Admission::Reservation reservation, BufferLedger::Charge charge,
                     std::shared_ptr<memory::MappedCharge> mapped)
      : key_(std::move(key)),
        evaluator_(std::move(evaluator)),
        reservation_(std::move(reservation)),
        charge_(std::move(charge)),
        mapped_(std::move(mapped)) {}

  std::shared_ptr<const groth16::ProvingKey> key_;
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator_;
  Admission::Reservation reservation_;
  BufferLedger::Charge charge_;
  std::shared_ptr<memory::MappedCharge> mapped_;  // null when nothing views a mapped file
};

// The host bytes of the key's points (what residency costs the host; a query kept on a
// device counts there, in the ledger's device stage).
std::size_t parameter_bytes(const groth16::ProvingKey& key);
// The evaluator's matrices, coefficient table and densities.
std::size_t evaluator_bytes(const r1cs::CompiledR1cs& evaluator);
// The parts of those bytes that view read-only file mappings.
std::vector<memory::AddressRange> file_mapped_ranges(const groth16::ProvingKey& key);
std::vector<memory::AddressRange> file_mapped_ranges(const r1cs::CompiledR1cs& evaluator);

// Builds the witness of one partition; called on a synthesis worker.
using Synthesizer = std::function<groth16::PartitionWitness(std::size_t partition)>;
// Checks the assembled proof (partition proofs in order); false fails the request.
using ProofCheck = std::function<bool(std::span<const groth16::Proof> proofs)>;

struct ProofResult;

struct ProofRequest {
  std::string label;
  std::shared_ptr<const ResidentParameters> parameters;
  std::size_t partitions = 1;
  // Per partition, from the circuit's real dimensions (groth16::PartitionFootprint::of).
  groth16::PartitionFootprint footprint;
  Synthesizer synthesize;
  ProofCheck verify;  // optional
  Priority priority = Priority::normal;
  // Optional: each partition's r and s; empty: fresh from the system CSPRNG (as a
  // proof must be). Tests fix them to compare the proofs of backends or devices bit
  // for bit.
  std::function<groth16::Blinding(std::size_t partition)> blinding;
  // Optional; called on the completion thread once the result (or error) is set.
  // It may submit or cancel requests but must not shut the engine down.
  std::function<void(const std::shared_future<ProofResult>&)> on_complete;
};

// When each hook fired for one partition, in seconds since the engine started
// (NaN for hooks never reached: a cancelled or failed partition).
struct PartitionTimeline {
  std::uint64_t request = 0;
  std::size_t partition = 0;
  std::size_t partitions = 0;
  std::size_t device = 0;
  std::array<double, kHookCount> at;
  // The backend's own steps inside start() (its PendingProof's timings).
  std::vector<groth16::StageTime> start_steps;

  PartitionTimeline() { at.fill(std::numeric_limits<double>::quiet_NaN()); }

  double when(Hook h) const { return at[static_cast<std::size_t>(h)]; }
  bool reached(Hook h) const { return !std::isnan(when(h)); }
  bool complete() const { return reached(Hook::dealloc_done) && reached(Hook::finalize_done); }
  // Time spent in a partition stage (synthesizing … awaiting dealloc); NaN if the
  // partition never went through it.
  double seconds_in(Stage stage) const;
};

struct ProofResult {
  std::uint64_t id = 0;
  std::string label;
  std::vector<groth16::Proof> proofs;  // in partition order
  bool verified = false;               // the request's check ran and passed
  double seconds = 0;                  // submission to completion
  std::vector<PartitionTimeline> timelines;
};

class RequestCancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A partition failed (synthesis, start, finish) or the assembled proof did not verify.
class RequestFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace zkpipe::engine
