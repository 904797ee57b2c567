// The CUDA backend's proofs equal the CPU backend's for the same (r, s) and verify.
#include <gtest/gtest.h>

#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu_test_env.hpp"
#include "r1cs/porep/porep_circuit.hpp"

namespace zkpipe::gpu {
namespace {

using groth16::Blinding;
using groth16::Proof;
using groth16::ProvingKey;
using r1cs::porep::PorepLikeCircuit;

TEST(CudaProver, PorepPartitionsEqualCpuProofsAndVerify) {
  ZKPIPE_REQUIRE_GPU();
  PorepLikeCircuit circuit(r1cs::porep::find_preset("tiny"), 2024, 3);
  const ProvingKey key = groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(1));
  const groth16::PreparedVerifyingKey pvk(key.vk);
  groth16::CpuProver cpu;
  CudaProver gpu;
  for (std::size_t p = 0; p < circuit.partitions(); ++p) {
    const Blinding blinding = p == 0 ? Blinding::zero() : Blinding::random();
    groth16::PartitionWitness w_cpu = groth16::synthesize_witness(circuit, p);
    groth16::PartitionWitness w_gpu = groth16::synthesize_witness(circuit, p);
    const Proof expected = groth16::prove(cpu, w_cpu, key, blinding);
    const Proof proof = groth16::prove(gpu, w_gpu, key, blinding);
    EXPECT_EQ(proof, expected) << "partition " << p;
    EXPECT_TRUE(groth16::verify(pvk, proof, circuit.public_inputs(p))) << "partition " << p;
  }
  EXPECT_GT(gpu.device_bytes(), 0u);
}

}  // namespace
}  // namespace zkpipe::gpu
