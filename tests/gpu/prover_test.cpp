// The CUDA backend's proofs equal the CPU backend's for the same (r, s) and verify.
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <stdexcept>
#include <vector>

#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu_test_env.hpp"
#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::gpu {
namespace {

using groth16::Blinding;
using groth16::Proof;
using groth16::ProvingKey;
using porep_like::PorepLikeCircuit;

// The G2 MSM on the device (the default) and on the host.
class CudaProverG2 : public ::testing::TestWithParam<bool> {};

TEST_P(CudaProverG2, PorepPartitionsEqualCpuProofsAndVerify) {
  ZKPIPE_REQUIRE_GPU();
  PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 2024, 3);
  const ProvingKey key = groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(1));
  const groth16::PreparedVerifyingKey pvk(key.vk);
  groth16::CpuProver cpu;
  CudaProver gpu(0, CudaProverOptions{.g2_msm_on_device = GetParam()});
  for (std::size_t p = 0; p < circuit.partitions(); ++p) {
    const Blinding blinding = p == 0 ? Blinding::zero() : Blinding::random();
    groth16::PartitionWitness w_cpu = groth16::synthesize_witness(circuit, p);
    groth16::PartitionWitness w_gpu = groth16::synthesize_witness(circuit, p);
    const Proof expected = groth16::prove(cpu, std::move(w_cpu), key, blinding);
    auto pending = gpu.start(std::move(w_gpu), key, blinding);
    // start() timed a device G2 MSM exactly when the option asks for one.
    const bool g2_in_start = std::ranges::any_of(pending->timings, [](const auto& t) { return t.stage == "msm_b_g2"; });
    EXPECT_EQ(g2_in_start, GetParam()) << "partition " << p;
    // finish() reads only what the pending proof owns: the witness went into start().
    ASSERT_NE(pending->assignment, nullptr);
    const Proof proof = gpu.finish(std::move(pending));
    EXPECT_EQ(proof, expected) << "partition " << p;
    EXPECT_TRUE(groth16::verify(pvk, proof, circuit.public_inputs(p))) << "partition " << p;
  }
  EXPECT_GT(gpu.device_bytes(), 0u);
}

INSTANTIATE_TEST_SUITE_P(G2MsmOnDevice, CudaProverG2, ::testing::Bool());

// The witness checks run beside the device work: a broken constraint or a density
// that does not match the key still fails start() (naming the constraint), and the
// prover proves the next partition.
// start() locks only its kernel region: pce witnesses proved from four threads at
// once (two witness slots, so uploads wait for each other too) give the CPU's
// proofs for the same blinding.
TEST(CudaProver, ConcurrentStartsGiveTheCpuProofs) {
  ZKPIPE_REQUIRE_GPU();
  PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 31, 8);
  const ProvingKey key = groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(3));
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(circuit));
  CudaProver gpu(0);
  ASSERT_TRUE(gpu.locks_kernel_region());
  groth16::CpuProver cpu;
  std::vector<std::future<Proof>> proofs;
  for (std::size_t p = 0; p < circuit.partitions(); ++p) {
    proofs.push_back(std::async(std::launch::async, [&, p] {
      groth16::PartitionWitness w = groth16::synthesize_witness(circuit, p, compiled);
      return groth16::prove(gpu, std::move(w), key, Blinding::zero());
    }));
  }
  for (std::size_t p = 0; p < circuit.partitions(); ++p) {
    groth16::PartitionWitness w = groth16::synthesize_witness(circuit, p);
    EXPECT_EQ(proofs[p].get(), groth16::prove(cpu, std::move(w), key, Blinding::zero())) << "partition " << p;
  }
}

TEST(CudaProver, UnsatisfiedWitnessIsRejected) {
  ZKPIPE_REQUIRE_GPU();
  PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 2024, 1);
  const ProvingKey key = groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(1));
  CudaProver gpu(0);
  groth16::PartitionWitness broken = groth16::synthesize_witness(circuit, 0);
  const std::size_t bad = broken.c.size() / 2;
  broken.c[bad] += ff::Fr::one();
  try {
    (void)gpu.start(std::move(broken), key, Blinding::zero());
    ADD_FAILURE() << "an unsatisfied witness was accepted";
  } catch (const groth16::UnsatisfiedConstraint& e) {
    EXPECT_EQ(e.index(), bad);
  }
  // An extra A-density bit: the count no longer matches the key's.
  groth16::PartitionWitness other = groth16::synthesize_witness(circuit, 0);
  std::size_t unset = 0;
  while (other.assignment.a_aux_density.test(unset)) ++unset;
  other.assignment.a_aux_density.set(unset);
  EXPECT_THROW((void)gpu.start(std::move(other), key, Blinding::zero()), std::invalid_argument);
  groth16::PartitionWitness good = groth16::synthesize_witness(circuit, 0);
  EXPECT_TRUE(groth16::verify(groth16::PreparedVerifyingKey(key.vk), groth16::prove(gpu, std::move(good), key, Blinding::random()),
                              circuit.public_inputs(0)));
}

}  // namespace
}  // namespace zkpipe::gpu
