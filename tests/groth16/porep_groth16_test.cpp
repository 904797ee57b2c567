#include <gtest/gtest.h>

#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::groth16 {
namespace {

using porep_like::PorepLikeCircuit;
using porep_like::find_preset;

TEST(PorepGroth16, TinyThreePartitionsProveAndVerify) {
  PorepLikeCircuit circuit(find_preset("tiny"), 2024, 3);
  ProvingKey key = setup(record_matrices(circuit), ToxicWaste::from_seed(1));
  PreparedVerifyingKey pvk(key.vk);
  CpuProver cpu;
  std::vector<Proof> proofs;
  std::vector<std::vector<ff::Fr>> inputs;
  for (std::size_t p = 0; p < 3; ++p) {
    PartitionWitness w = synthesize_witness(circuit, p);
    proofs.push_back(prove(cpu, std::move(w), key, Blinding::random()));
    inputs.push_back(circuit.public_inputs(p));
    EXPECT_TRUE(verify(pvk, proofs.back(), inputs.back())) << "partition " << p;
  }
  EXPECT_TRUE(verify_batch(pvk, proofs, inputs));
  // A partition's proof does not verify against another partition's challenges
  // (tiny sectors have 8 nodes, so two partitions may draw the same ones).
  auto other_partition = std::find_if(inputs.begin() + 1, inputs.end(), [&](const auto& in) { return in != inputs[0]; });
  ASSERT_NE(other_partition, inputs.end());
  EXPECT_FALSE(verify(pvk, proofs[0], *other_partition));
  // Nor against another sector (seed).
  PorepLikeCircuit other(find_preset("tiny"), 2025, 1);
  EXPECT_FALSE(verify(pvk, proofs[0], other.public_inputs(0)));
}

}  // namespace
}  // namespace zkpipe::groth16
