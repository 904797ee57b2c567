// Filecoin PoRep C2 on the device: a 2 KiB sector sealed natively, its C1 output
// checked and converted to the stacked circuit as `filecoin c2` converts it, each
// partition proved by the CUDA backend from the pce witness. The proofs equal the CPU
// backend's for the same blinding and verify against the inputs verify_seal derives
// from the sector's values alone.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <random>
#include <vector>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "circuits/filecoin/api/seal_commit1.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/challenges.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu_test_env.hpp"

namespace zkpipe::gpu {
namespace {

using groth16::Blinding;

filecoin::SectorValues random_sector(const filecoin::SealProof& proof, std::mt19937_64& rng) {
  auto bytes = [&rng] {
    std::array<std::uint8_t, 32> out{};
    for (auto& b : out) b = static_cast<std::uint8_t>(rng());
    return out;
  };
  filecoin::SectorValues values;
  values.registered_proof = &proof;
  values.prover_id = bytes();
  values.sector_id = rng() % 1000000;
  values.ticket = bytes();
  values.seed = bytes();
  return values;
}

TEST(CudaProverFilecoin, TwoKiBSealProofEqualsTheCpuProofsAndVerifies) {
  ZKPIPE_REQUIRE_GPU();
  const filecoin::SealProof& proof = filecoin::seal_proof("StackedDrg2KiBV1_1");
  std::mt19937_64 rng(2048);
  const filecoin::SectorValues asked = random_sector(proof, rng);
  std::vector<filecoin::NodeBytes> data(proof.shape().nodes());
  for (auto& node : data) node = filecoin::fr_to_domain(ff::Fr::random(rng));
  const filecoin::SealedSector sealed = filecoin::seal_sector(asked, data);
  const filecoin::C1Output c1 = filecoin::seal_commit_phase1(sealed);
  const filecoin::StackedCircuit circuit = filecoin::stacked_circuit_from_c1(c1, sealed.values, "sealed 2 KiB");

  const groth16::ProvingKey key =
      groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(22));
  const groth16::PreparedVerifyingKey pvk(key.vk);
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(circuit));
  const filecoin::SdrGraph graph = filecoin::seal_graph(proof);
  const filecoin::SectorValues& sector = sealed.values;
  groth16::CpuProver cpu;
  CudaProver gpu(0);
  for (std::size_t p = 0; p < circuit.partitions(); ++p) {
    const Blinding blinding{ff::Fr::from_u64(7 * p + 3), ff::Fr::from_u64(11 * p + 5)};
    const groth16::Proof expected = groth16::prove(cpu, groth16::synthesize_witness(circuit, p), key, blinding);
    const groth16::Proof on_device =
        groth16::prove(gpu, groth16::synthesize_witness(circuit, p, compiled), key, blinding);
    EXPECT_EQ(on_device, expected) << "partition " << p;
    // The verifier's inputs come from the sector's values, not from the circuit.
    const std::vector<ff::Fr> inputs = filecoin::stacked_public_inputs(
        graph, filecoin::domain_to_fr(sector.replica_id()), filecoin::domain_to_fr(sector.comm_d),
        filecoin::domain_to_fr(sector.comm_r),
        filecoin::porep_challenges(proof, sector.replica_id(), sector.seed, sector.comm_r, p));
    EXPECT_TRUE(groth16::verify(pvk, on_device, inputs)) << "partition " << p;
    std::vector<ff::Fr> other_sector = inputs;
    other_sector[0] += ff::Fr::one();
    EXPECT_FALSE(groth16::verify(pvk, on_device, other_sector)) << "partition " << p;
  }
}

}  // namespace
}  // namespace zkpipe::gpu
