// Setup on the device against setup on the host: the fixed-base products equal the
// host's bit for bit (0, 1, −1 and random scalars, a partial last block), the whole
// key equals the CPU setup's for the same seed, and a key kept on the device proves
// in place (no host copy) the same proofs as the host key, which verify.
#include <gtest/gtest.h>

#include <random>

#include "ec/generators.hpp"
#include "ec/msm/testing.hpp"
#include "memory/buffer_ledger.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu/device_setup.hpp"
#include "gpu/fixed_base.hpp"
#include "gpu_test_env.hpp"
#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::gpu {
namespace {

using ff::Fr;

std::vector<Fr> edge_and_random_scalars(std::size_t n) {
  std::vector<Fr> s = ec::msm_testing::random_scalars(n, 77);
  s[0] = Fr::zero();
  s[1] = Fr::one();
  s[2] = -Fr::one();
  s[3] = Fr::from_u64(256);  // a single non-zero digit in the second window
  return s;
}

template <class Curve>
void expect_device_products_equal_host(const ec::Affine<Curve>& generator) {
  const ec::FixedBaseTable<Curve> table(generator);
  const std::vector<Fr> scalars = edge_and_random_scalars(3 * 128 + 5);
  cudaStream_t stream = nullptr;  // the legacy default stream
  PinnedStaging staging;
  const DeviceFixedBase<Curve> device(table, stream);
  const DeviceBases<Curve> products = device.mul(scalars, staging, stream);
  const std::vector<ec::Affine<Curve>> got = products.download(stream);
  const std::vector<ec::Affine<Curve>> expected = table.mul_many(scalars);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "scalar " << i;
  EXPECT_TRUE(got[0].is_identity());
  EXPECT_EQ(got[1], generator);
  EXPECT_EQ(got[2], -generator);
}

TEST(DeviceFixedBase, G1ProductsEqualTheHosts) {
  ZKPIPE_REQUIRE_GPU();
  expect_device_products_equal_host<ec::G1Curve>(ec::kG1Generator);
}

TEST(DeviceFixedBase, G2ProductsEqualTheHosts) {
  ZKPIPE_REQUIRE_GPU();
  expect_device_products_equal_host<ec::G2Curve>(ec::kG2Generator);
}

// Products of 1 MiB and more are large buffers: the device stage of the ledger holds them.
TEST(DeviceFixedBase, ProductsAreChargedToTheLedgersDeviceStage) {
  ZKPIPE_REQUIRE_GPU();
  memory::BufferLedger ledger;
  const ec::FixedBaseTable<ec::G1Curve> table(ec::kG1Generator);
  const std::vector<Fr> scalars = edge_and_random_scalars(std::size_t{1} << 14);
  PinnedStaging staging;
  const DeviceFixedBase<ec::G1Curve> device(table, nullptr);
  const DeviceBases<ec::G1Curve> products = device.mul(scalars, staging, nullptr, {}, ledger);
  EXPECT_EQ(ledger.snapshot()[memory::Stage::device].bytes, scalars.size() * sizeof(G1AffineWords));
}

class DeviceSetup : public ::testing::Test {
 protected:
  DeviceSetup()
      : circuit_(porep_like::find_preset("tiny"), 11, 2),
        secrets_(groth16::ToxicWaste::from_seed(6)),
        scalars_(groth16::setup_scalars(groth16::compile_circuit(circuit_), secrets_)) {}

  porep_like::PorepLikeCircuit circuit_;
  groth16::ToxicWaste secrets_;
  groth16::SetupScalars scalars_;
};

TEST_F(DeviceSetup, DownloadedKeyEqualsTheCpuSetup) {
  ZKPIPE_REQUIRE_GPU();
  EXPECT_EQ(setup_on_device(scalars_, secrets_, 0, KeyPlacement::host), groth16::setup(scalars_, secrets_));
}

TEST_F(DeviceSetup, KeyKeptOnTheDeviceProvesInPlace) {
  ZKPIPE_REQUIRE_GPU();
  const groth16::ProvingKey on_device = setup_on_device(scalars_, secrets_, 0, KeyPlacement::device);
  const groth16::ProvingKey on_host = groth16::setup(scalars_, secrets_);
  ASSERT_FALSE(on_device.a.on_host());
  ASSERT_FALSE(on_device.h.on_host());
  EXPECT_EQ(on_device.vk, on_host.vk);

  const groth16::PreparedVerifyingKey pvk(on_device.vk);
  CudaProver gpu(0);
  groth16::CpuProver cpu;
  for (std::size_t p = 0; p < circuit_.partitions(); ++p) {
    groth16::PartitionWitness w_gpu = groth16::synthesize_witness(circuit_, p);
    groth16::PartitionWitness w_cpu = groth16::synthesize_witness(circuit_, p);
    const groth16::Proof proof = groth16::prove(gpu, std::move(w_gpu), on_device, groth16::Blinding::zero());
    EXPECT_EQ(proof, groth16::prove(cpu, std::move(w_cpu), on_host, groth16::Blinding::zero())) << "partition " << p;
    EXPECT_TRUE(groth16::verify(pvk, proof, circuit_.public_inputs(p))) << "partition " << p;
  }
  EXPECT_EQ(gpu.base_placement(on_device), BasePlacement::kResident);

  // The host prover cannot read such a key, and says where its points are.
  groth16::PartitionWitness w = groth16::synthesize_witness(circuit_, 0);
  EXPECT_THROW(groth16::prove(cpu, std::move(w), on_device, groth16::Blinding::zero()), std::logic_error);
}

// MSMs longer than a pass (1000 terms here, 2^26 by default) add up their passes.
TEST_F(DeviceSetup, MsmsInSeveralPassesGiveTheSameProofs) {
  ZKPIPE_REQUIRE_GPU();
  const groth16::ProvingKey on_device = setup_on_device(scalars_, secrets_, 0, KeyPlacement::device);
  CudaProver one_pass(0);
  CudaProver passes(0, CudaProverOptions{.max_msm_pass_terms = 1000});
  groth16::PartitionWitness w1 = groth16::synthesize_witness(circuit_, 1);
  groth16::PartitionWitness w2 = groth16::synthesize_witness(circuit_, 1);
  ASSERT_GT(on_device.h.size(), 3000u);
  EXPECT_EQ(groth16::prove(passes, std::move(w1), on_device, groth16::Blinding::zero()),
            groth16::prove(one_pass, std::move(w2), on_device, groth16::Blinding::zero()));
  EXPECT_THROW(CudaProver(0, CudaProverOptions{.max_msm_pass_terms = 0}), std::invalid_argument);
}

TEST_F(DeviceSetup, DeviceKeyNeedsTheG2MsmOnTheDevice) {
  ZKPIPE_REQUIRE_GPU();
  const groth16::ProvingKey on_device = setup_on_device(scalars_, secrets_, 0, KeyPlacement::device);
  CudaProver gpu(0, CudaProverOptions{.g2_msm_on_device = false});
  groth16::PartitionWitness w = groth16::synthesize_witness(circuit_, 0);
  EXPECT_THROW(gpu.start(std::move(w), on_device, groth16::Blinding::zero()), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::gpu
