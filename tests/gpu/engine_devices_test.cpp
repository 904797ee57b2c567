// Two engine devices mapped onto GPU 0: the several-device path of a multi-GPU host
// (one CudaProver per engine device, each with its own resident key, evaluator and
// pools; the shared channel and the device assignment), run on one GPU. One proof's
// partitions go to both devices, every proof equals the CPU backend's for the same
// blinding and verifies, and the ledger puts both provers' memory on device 0.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "engine/engine.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/footprint.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu_test_env.hpp"
#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::gpu {
namespace {

using groth16::Blinding;

TEST(EngineOnTwoDevicesOfOneGpu, ProofsEqualTheCpuBackendsAndVerify) {
  ZKPIPE_REQUIRE_GPU();
  constexpr std::size_t kPartitions = 8;
  const porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 77, kPartitions);
  const r1cs::R1csMatrices m = groth16::record_matrices(circuit);
  const auto key = std::make_shared<const groth16::ProvingKey>(groth16::setup(m, groth16::ToxicWaste::from_seed(9)));
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(circuit));
  const groth16::PreparedVerifyingKey pvk(key->vk);
  // r and s per partition, so that the CPU backend can prove the same proofs.
  auto blinding = [](std::size_t p) { return Blinding{ff::Fr::from_u64(3 * p + 1), ff::Fr::from_u64(5 * p + 2)}; };

  memory::BufferLedger ledger;
  const std::vector<std::shared_ptr<groth16::ProverBackend>> devices = {
      std::make_shared<CudaProver>(0, CudaProverOptions{.ledger = &ledger}),
      std::make_shared<CudaProver>(0, CudaProverOptions{.ledger = &ledger})};
  engine::ProofResult result;
  std::vector<engine::DeviceStatus> status;
  {
    engine::Engine eng({.synthesis_workers = 4,
                        .channel_capacity = kPartitions,
                        .ledger = &ledger,
                        .start_paused = true},
                       devices);
    engine::ProofRequest request;
    request.label = "tiny on two engine devices";
    request.parameters = eng.make_resident(key, compiled);
    request.partitions = kPartitions;
    request.footprint = groth16::PartitionFootprint::of_deferred(groth16::CircuitShape::of(m), *devices.front());
    request.synthesize = [&](std::size_t p) { return groth16::synthesize_witness(circuit, p, compiled); };
    request.blinding = blinding;
    request.verify = [&](std::span<const groth16::Proof> proofs) {
      for (std::size_t p = 0; p < proofs.size(); ++p) {
        if (!groth16::verify(pvk, proofs[p], circuit.public_inputs(p))) return false;
      }
      return true;
    };
    engine::ProofTicket ticket = eng.submit(std::move(request));
    eng.resume();  // every partition admitted at once: both devices find work queued
    result = ticket.get();
    status = eng.device_status();
    const memory::LedgerSnapshot s = ledger.snapshot();
    EXPECT_GT(s.device(0).bytes, 0u);
    EXPECT_EQ(s.device(0).bytes, s[memory::Stage::device].bytes) << "all of it on GPU 0";
    EXPECT_EQ(status[0].memory.bytes, s.device(0).bytes);
    eng.shutdown(engine::ShutdownMode::drain);
  }
  EXPECT_TRUE(result.verified);
  ASSERT_EQ(result.proofs.size(), kPartitions);
  groth16::CpuProver cpu;
  for (std::size_t p = 0; p < kPartitions; ++p) {
    EXPECT_EQ(result.proofs[p], groth16::prove(cpu, groth16::synthesize_witness(circuit, p), *key, blinding(p)))
        << "partition " << p;
  }
  ASSERT_EQ(status.size(), 2u);
  std::size_t proved = 0;
  for (std::size_t d = 0; d < 2; ++d) {
    EXPECT_TRUE(status[d].healthy) << "device " << d;
    EXPECT_EQ(status[d].ordinal, 0) << "device " << d;
    EXPECT_GT(status[d].partitions_proved, 0u) << "device " << d << " took none of the proof's partitions";
    EXPECT_TRUE(devices[d]->holds_key(*key)) << "device " << d;
    proved += status[d].partitions_proved;
  }
  EXPECT_EQ(proved, kPartitions);
}

}  // namespace
}  // namespace zkpipe::gpu
