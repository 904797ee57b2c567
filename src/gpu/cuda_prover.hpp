// The CUDA backend of the split prover: start() runs the h polynomial (NTTs), the
// four G1 MSMs and (by default) the B query's G2 MSM on one GPU; finish() only
// assembles the proof on the CPU. With the G2 MSM on the CPU instead, finish() runs
// it there, as CpuProver does. Either way both backends give the same proof for the
// same Blinding.
//
// Per key, the query points (G1: A, B, L, H; G2: B) are uploaded once and stay resident;
// per domain, the NTT tables. Device vectors for a, b, c and the MSM scratch grow to
// the largest partition seen and are reused, so steady-state partitions allocate no
// device memory. One CudaProver drives one device (chosen by ordinal); calls on
// one prover are serialized.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "groth16/prover.hpp"

namespace zkpipe::gpu {

struct CudaProverOptions {
  // The B query's G2 MSM in start() on the device (its bases resident, like the G1
  // ones), rather than in finish() on the host's threads.
  bool g2_msm_on_device = true;
};

class CudaProver final : public groth16::ProverBackend {
 public:
  explicit CudaProver(int device = 0, CudaProverOptions options = {});
  ~CudaProver() override;

  std::string name() const override { return "cuda"; }
  std::unique_ptr<groth16::PendingProof> start(groth16::PartitionWitness& witness, const groth16::ProvingKey& key,
                                               const groth16::Blinding& blinding) override;
  groth16::Proof finish(std::unique_ptr<groth16::PendingProof> pending) override;
  void abort(std::unique_ptr<groth16::PendingProof> pending) override;

  // Device memory held by this prover (resident bases, tables, pools), in bytes.
  std::size_t device_bytes() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace zkpipe::gpu
