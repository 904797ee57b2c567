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

// The H MSM's scalars, computed in place in a (which must hold the constraint
// evaluations; b and c are clobbered): for kMonomial the coefficients h_0 … h_{N−2}
// of h = (A·B − C)/Z, for kSnarkjsOddCoset the N values of A·B − C on the coset
// ω_2N·H. Shared by backends as the reference for their own h computation.
void compute_h_in_place(std::vector<ff::Fr>& a, std::vector<ff::Fr>& b, std::vector<ff::Fr>& c,
                        std::size_t domain_size, HQuery query = HQuery::kMonomial);

}  // namespace zkpipe::groth16
