// The CPU backend: h by NTTs on the coset, MSMs by Pippenger, all on oneTBB threads.
#pragma once

#include "groth16/prover.hpp"

namespace zkpipe::groth16 {

class CpuProver final : public ProverBackend {
 public:
  std::string name() const override { return "cpu"; }
  std::unique_ptr<PendingProof> start(PartitionWitness witness, const ProvingKey& key,
                                      const Blinding& blinding) override;
  Proof finish(std::unique_ptr<PendingProof> pending) override;
  void abort(std::unique_ptr<PendingProof> pending) override;
};

// start() and finish() in one call, with the G2 MSM running alongside start()'s work
// so that the serial stretches of each (gathering scalars, bucket reductions) fill
// the other's idle threads. It holds the B query's gathered scalars while start()
// holds its own, which the engine's footprint does not count: this is for one-shot
// proving (the groth16 command line), not for the engine's pipeline.
struct OneShotProof {
  Proof proof;
  std::vector<StageTime> timings;  // start()'s steps, then "msm_b_g2" (concurrent with them)
};
OneShotProof prove_on_cpu(PartitionWitness witness, const ProvingKey& key, const Blinding& blinding);

// The H MSM's scalars, computed in place in a (which must hold the constraint
// evaluations; b and c are clobbered): for kMonomial the coefficients h_0 … h_{N−2}
// of h = (A·B − C)/Z, for kSnarkjsOddCoset the N values of A·B − C on the coset
// ω_2N·H. Shared by backends as the reference for their own h computation.
void compute_h_in_place(std::vector<ff::Fr>& a, std::vector<ff::Fr>& b, std::vector<ff::Fr>& c,
                        std::size_t domain_size, HQuery query = HQuery::kMonomial);

}  // namespace zkpipe::groth16
