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

filecoin::api::SectorValues random_sector(const filecoin::core::SealProof& proof, std::mt19937_64& rng) {
  auto bytes = [&rng] {
    std::array<std::uint8_t, 32> out{};
    for (auto& b : out) b = static_cast<std::uint8_t>(rng());
    return out;
  };
  filecoin::api::SectorValues values;
  values.registered_proof = &proof;
  values.prover_id = bytes();
  values.sector_id = rng() % 1000000;
  values.ticket = bytes();
  values.seed = bytes();
  return values;
}

TEST(CudaProverFilecoin, TwoKiBSealProofEqualsTheCpuProofsAndVerifies) {
  ZKPIPE_REQUIRE_GPU();
  const filecoin::core::SealProof& proof = filecoin::core::seal_proof("StackedDrg2KiBV1_1");
  std::mt19937_64 rng(2048);
  const filecoin::api::SectorValues asked = random_sector(proof, rng);
  std::vector<filecoin::core::NodeBytes> data(proof.shape().nodes());
  for (auto& node : data) node = filecoin::hashers::fr_to_domain(ff::Fr::random(rng));
  const filecoin::api::SealedSector sealed = filecoin::api::seal_sector(asked, data);
  const filecoin::api::C1Output c1 = filecoin::api::seal_commit_phase1(sealed);
  const filecoin::porep::StackedCircuit circuit =
      filecoin::api::stacked_circuit_from_c1(c1, sealed.values, "sealed 2 KiB");

  const groth16::ProvingKey key =
      groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(22));
  const groth16::PreparedVerifyingKey pvk(key.vk);
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(circuit));
  const filecoin::porep::SdrGraph graph = filecoin::api::seal_graph(proof);
  const filecoin::api::SectorValues& sector = sealed.values;
  groth16::CpuProver cpu;
  CudaProver gpu(0);
  for (std::size_t p = 0; p < circuit.partitions(); ++p) {
    const Blinding blinding{ff::Fr::from_u64(7 * p + 3), ff::Fr::from_u64(11 * p + 5)};
    const groth16::Proof expected = groth16::prove(cpu, groth16::synthesize_witness(circuit, p), key, blinding);
    const groth16::Proof on_device =
        groth16::prove(gpu, groth16::synthesize_witness(circuit, p, compiled), key, blinding);
    EXPECT_EQ(on_device, expected) << "partition " << p;
    // The verifier's inputs come from the sector's values, not from the circuit.
    const std::vector<ff::Fr> inputs = filecoin::porep::stacked_public_inputs(
        graph, filecoin::hashers::domain_to_fr(sector.replica_id()), filecoin::hashers::domain_to_fr(sector.comm_d),
        filecoin::hashers::domain_to_fr(sector.comm_r),
        filecoin::porep::porep_challenges(proof, sector.replica_id(), sector.seed, sector.comm_r, p));
    EXPECT_TRUE(groth16::verify(pvk, on_device, inputs)) << "partition " << p;
    std::vector<ff::Fr> other_sector = inputs;
    other_sector[0] += ff::Fr::one();
    EXPECT_FALSE(groth16::verify(pvk, on_device, other_sector)) << "partition " << p;
  }
}

}  // namespace
}  // namespace zkpipe::gpu
