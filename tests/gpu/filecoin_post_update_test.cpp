// Filecoin PoSt and SnapDeals on the device, from the vanilla proofs filecoin-proofs
// writes: synthetic 2 KiB sectors written as bincode blobs, read back and checked into
// the circuits' partitions as the daemon reads them, each partition proved by the CUDA
// backend from the pce witness. The proofs equal the CPU backend's for the same
// blinding and verify against the circuits' public inputs.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "circuits/filecoin/api/post_vanilla.hpp"
#include "circuits/filecoin/api/update_vanilla.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "circuits/filecoin/synthetic/synthetic_update.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu_test_env.hpp"

namespace zkpipe::gpu {
namespace {

// Every partition proved on the device and on the CPU with the same blinding.
void expect_device_proofs_equal_cpu_and_verify(const r1cs::PartitionedCircuit& circuit) {
  const groth16::ProvingKey key =
      groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(31));
  const groth16::PreparedVerifyingKey pvk(key.vk);
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(circuit));
  groth16::CpuProver cpu;
  CudaProver gpu(0);
  for (std::size_t p = 0; p < circuit.partitions(); ++p) {
    const groth16::Blinding blinding{ff::Fr::from_u64(5 * p + 2), ff::Fr::from_u64(13 * p + 1)};
    const groth16::Proof expected = groth16::prove(cpu, groth16::synthesize_witness(circuit, p), key, blinding);
    const groth16::Proof on_device =
        groth16::prove(gpu, groth16::synthesize_witness(circuit, p, compiled), key, blinding);
    EXPECT_EQ(on_device, expected) << circuit.name() << " partition " << p;
    EXPECT_TRUE(groth16::verify(pvk, on_device, circuit.public_inputs(p))) << circuit.name() << " partition " << p;
  }
}

TEST(CudaProverFilecoinPost, WindowPostFromVanillaProofsEqualsTheCpuProofAndVerifies) {
  ZKPIPE_REQUIRE_GPU();
  const filecoin::post::PostProof proof = filecoin::post::post_proof(filecoin::post::PostKind::kWindow, 2048);
  const filecoin::post::FallbackPostCircuit made = filecoin::synthetic::synthetic_post(proof, 41, 1);
  const filecoin::synthetic::SyntheticPostDraws draws = filecoin::synthetic::synthetic_post_draws(proof, 41, 1);
  std::vector<std::vector<std::uint8_t>> blobs;
  for (const auto& sector : filecoin::api::post_vanilla_proofs(proof, made.assignments()[0], draws.sector_ids)) {
    blobs.push_back(filecoin::api::post_vanilla_proof_bytes(sector));
  }
  std::vector<filecoin::post::PostPartition> partitions{filecoin::api::post_partition_from_bytes(proof, blobs)};
  const filecoin::post::FallbackPostCircuit read(proof.name(), proof.tree_shape(), std::move(partitions));
  expect_device_proofs_equal_cpu_and_verify(read);
}

TEST(CudaProverFilecoinUpdate, TwoKiBUpdateFromVanillaProofsEqualsTheCpuProofAndVerifies) {
  ZKPIPE_REQUIRE_GPU();
  const filecoin::update::UpdateShape shape = filecoin::update::update_shape(
      2048 / 32, filecoin::core::sector_tree_shape(2048), filecoin::update::UpdateHash::kSha256);
  const filecoin::synthetic::SyntheticUpdate update =
      filecoin::synthetic::synthetic_update(shape, 42, filecoin::api::kDefaultUpdateHIndex);
  std::vector<filecoin::update::UpdatePartition> partitions;
  for (std::size_t k = 0; k < update.partitions.size(); ++k) {
    const filecoin::update::UpdatePartition& made = update.partitions[k];
    const std::vector<std::uint8_t> blob =
        filecoin::api::update_vanilla_proof_bytes(filecoin::api::update_vanilla_proof(shape, made));
    partitions.push_back(filecoin::api::update_partition_from_bytes(
        shape, blob, k, {made.comm_r_old, made.comm_r_new, made.comm_d_new}));
  }
  const filecoin::update::EmptySectorUpdateCircuit read("filecoin-snapdeals/2KiB", shape, std::move(partitions));
  expect_device_proofs_equal_cpu_and_verify(read);
}

}  // namespace
}  // namespace zkpipe::gpu
