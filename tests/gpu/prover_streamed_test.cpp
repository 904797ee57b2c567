// CudaProver with the key's points kept on the host and streamed in chunks gives
// the CPU backend's proofs for the same (r, s); the placement follows the options.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "groth16/device_failure.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu_test_env.hpp"
#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::gpu {
namespace {

using groth16::Blinding;
using groth16::Proof;
using groth16::ProvingKey;
using porep_like::PorepLikeCircuit;

class CudaProverPlacement : public ::testing::Test {
 protected:
  void SetUp() override {
    ZKPIPE_REQUIRE_GPU();
    circuit_ = std::make_unique<PorepLikeCircuit>(porep_like::find_preset("tiny"), 2025, 2);
    key_ = std::make_unique<ProvingKey>(
        groth16::setup(groth16::record_matrices(*circuit_), groth16::ToxicWaste::from_seed(2)));
  }

  std::unique_ptr<PorepLikeCircuit> circuit_;
  std::unique_ptr<ProvingKey> key_;
};

// The G2 MSM on the device (streamed too) and on the host.
class CudaProverStreamed : public CudaProverPlacement, public ::testing::WithParamInterface<bool> {
 protected:
  void prove_streamed(bool pinned, bool overlap);
};

// From a page-locked copy of the points (the default) and from the key's own; H's
// sum beside the others' (the default) and before them.
TEST_P(CudaProverStreamed, ForcedStreamingEqualsCpuProofsAndVerifies) {
  for (const bool pinned : {true, false}) {
    for (const bool overlap : {true, false}) {
      SCOPED_TRACE(std::string(pinned ? "page-locked copy" : "staged from the key") +
                   (overlap ? ", H beside the others" : ", H first"));
      prove_streamed(pinned, overlap);
    }
  }
}

bool has_step(const groth16::PendingProof& pending, const std::string& name) {
  return std::ranges::any_of(pending.timings, [&](const auto& step) { return step.stage == name; });
}

void CudaProverStreamed::prove_streamed(bool pinned, bool overlap) {
  const groth16::PreparedVerifyingKey pvk(key_->vk);
  groth16::CpuProver cpu;
  // Every query in several chunks, the last one short.
  const std::size_t chunk = std::max<std::size_t>(key_->h.size() / 3 + 5, 2);
  CudaProver gpu(0, CudaProverOptions{.g2_msm_on_device = GetParam(),
                                      .max_resident_base_bytes = 1,
                                      .pin_streamed_sources = pinned,
                                      .stream_chunk_points = chunk,
                                      .overlap_streamed_sums = overlap});
  EXPECT_EQ(gpu.base_placement(*key_), BasePlacement::kNotLoaded);
  for (std::size_t p = 0; p < circuit_->partitions(); ++p) {
    const Blinding blinding = p == 0 ? Blinding::zero() : Blinding::random();
    groth16::PartitionWitness w_cpu = groth16::synthesize_witness(*circuit_, p);
    groth16::PartitionWitness w_gpu = groth16::synthesize_witness(*circuit_, p);
    ASSERT_GT(w_gpu.assignment.aux.size(), chunk) << "the L query must take several chunks";
    const Proof expected = groth16::prove(cpu, std::move(w_cpu), *key_, blinding);
    auto pending = gpu.start(std::move(w_gpu), *key_, blinding);
    EXPECT_EQ(gpu.base_placement(*key_), BasePlacement::kStreamed);
    EXPECT_EQ(has_step(*pending, "msm_h_beside"), overlap);
    EXPECT_EQ(has_step(*pending, "msm_h"), !overlap);
    const Proof proof = gpu.finish(std::move(pending));
    EXPECT_EQ(proof, expected) << "partition " << p;
    EXPECT_TRUE(groth16::verify(pvk, proof, circuit_->public_inputs(p))) << "partition " << p;
  }
  // Two G1 chunk buffers, and two G2 ones when the G2 MSM streams too; no resident points.
  const std::size_t chunk_bytes =
      2 * chunk * (sizeof(G1AffineWords) + (GetParam() ? sizeof(G2AffineWords) : 0));
  EXPECT_GE(gpu.device_bytes(), chunk_bytes);
  EXPECT_EQ(gpu.pinned_copy_bytes() > 0, pinned);
}

INSTANTIATE_TEST_SUITE_P(G2MsmOnDevice, CudaProverStreamed, ::testing::Bool());

// Chunks sized from the device's memory: H's sum beside the others' divides it
// between them (StreamedMsm::limit_device_bytes), and the proofs still equal the
// CPU backend's.
TEST_P(CudaProverStreamed, ChunksSizedByTheDivisionEqualCpuProofs) {
  groth16::CpuProver cpu;
  CudaProver gpu(0, CudaProverOptions{.g2_msm_on_device = GetParam(), .max_resident_base_bytes = 1});
  for (std::size_t p = 0; p < circuit_->partitions(); ++p) {
    const Blinding blinding = Blinding::random();
    groth16::PartitionWitness w_cpu = groth16::synthesize_witness(*circuit_, p);
    groth16::PartitionWitness w_gpu = groth16::synthesize_witness(*circuit_, p);
    const Proof expected = groth16::prove(cpu, std::move(w_cpu), *key_, blinding);
    auto pending = gpu.start(std::move(w_gpu), *key_, blinding);
    EXPECT_TRUE(has_step(*pending, "msm_h_beside")) << "the device's memory holds both sides' chunks";
    EXPECT_EQ(gpu.finish(std::move(pending)), expected) << "partition " << p;
  }
}

TEST_F(CudaProverPlacement, SmallKeyStaysResident) {
  CudaProver by_memory(0);
  CudaProver by_limit(0, CudaProverOptions{.max_resident_base_bytes = std::numeric_limits<std::size_t>::max()});
  for (CudaProver* gpu : {&by_memory, &by_limit}) {
    groth16::PartitionWitness w = groth16::synthesize_witness(*circuit_, 0);
    gpu->abort(gpu->start(std::move(w), *key_, Blinding::random()));
    EXPECT_EQ(gpu->base_placement(*key_), BasePlacement::kResident);
  }
}

TEST_F(CudaProverPlacement, ReleaseFreesTheKeysDevicePoints) {
  CudaProver gpu(0);
  groth16::PartitionWitness w = groth16::synthesize_witness(*circuit_, 0);
  gpu.abort(gpu.start(std::move(w), *key_, Blinding::random()));
  ASSERT_EQ(gpu.base_placement(*key_), BasePlacement::kResident);
  const std::size_t with_key = gpu.device_bytes();
  gpu.release(*key_);
  EXPECT_EQ(gpu.base_placement(*key_), BasePlacement::kNotLoaded);
  const std::size_t points = (key_->a.size() + key_->b_g1.size() + key_->l.size() + key_->h.size()) *
                                 sizeof(G1AffineWords) +
                             key_->b_g2.size() * sizeof(G2AffineWords);
  EXPECT_EQ(gpu.device_bytes() + points, with_key);
  // Placed again by the next proof, which still equals the CPU backend's.
  groth16::CpuProver cpu;
  groth16::PartitionWitness w_cpu = groth16::synthesize_witness(*circuit_, 1);
  groth16::PartitionWitness w_gpu = groth16::synthesize_witness(*circuit_, 1);
  const Blinding blinding = Blinding::random();
  EXPECT_EQ(groth16::prove(gpu, std::move(w_gpu), *key_, blinding), groth16::prove(cpu, std::move(w_cpu), *key_, blinding));
  EXPECT_EQ(gpu.base_placement(*key_), BasePlacement::kResident);
}

// Every block of the device's free memory down to 4 KiB, held until destroyed: what
// a start() then allocates fails.
std::vector<DeviceBuffer<std::byte>> hold_free_device_memory() {
  std::vector<DeviceBuffer<std::byte>> held;
  for (std::size_t size = std::size_t{1} << 32; size >= 4096; size /= 2) {
    for (;;) {
      DeviceBuffer<std::byte> block;
      try {
        block.reserve(size);
      } catch (const CudaError&) {
        cudaGetLastError();
        break;
      }
      held.push_back(std::move(block));
    }
  }
  return held;
}

// A partition that finds no device memory is refused with DeviceOutOfMemory (the
// request's failure), not a DeviceFailure; once memory is free, the same prover
// proves it as the CPU backend does.
TEST_F(CudaProverPlacement, OutOfDeviceMemoryRefusesThePartitionNotTheDevice) {
  CudaProver gpu(0);
  const Blinding blinding = Blinding::random();
  {
    const auto held = hold_free_device_memory();
    try {
      gpu.abort(gpu.start(groth16::synthesize_witness(*circuit_, 0), *key_, blinding));
      ADD_FAILURE() << "start() should have run out of device memory";
    } catch (const groth16::DeviceOutOfMemory& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("too little memory"), std::string::npos) << what;
      EXPECT_NE(what.find("free of"), std::string::npos) << what;
    }
  }
  groth16::CpuProver cpu;
  EXPECT_EQ(groth16::prove(gpu, groth16::synthesize_witness(*circuit_, 0), *key_, blinding),
            groth16::prove(cpu, groth16::synthesize_witness(*circuit_, 0), *key_, blinding));
  // Placed afresh, not left streamed by the shortage.
  EXPECT_EQ(gpu.base_placement(*key_), BasePlacement::kResident);
}

// With a larger key's points uploaded and the rest of the device held, a start()
// with the small key runs out of memory, frees the larger key's points and the
// working buffers, and proves on what they held; the larger key is placed again at
// its next proof. Both proofs equal the CPU backend's.
TEST_F(CudaProverPlacement, OutOfDeviceMemoryFreesTheOtherKeysUploadedPoints) {
  const PorepLikeCircuit large_circuit(porep_like::find_preset("2e16"), 2026, 1);
  const ProvingKey large =
      groth16::setup(groth16::record_matrices(large_circuit), groth16::ToxicWaste::from_seed(3));
  CudaProver gpu(0);
  groth16::CpuProver cpu;
  gpu.abort(gpu.start(groth16::synthesize_witness(large_circuit, 0), large, Blinding::random()));
  ASSERT_EQ(gpu.base_placement(large), BasePlacement::kResident);
  const Blinding blinding = Blinding::random();
  {
    const auto held = hold_free_device_memory();
    EXPECT_EQ(groth16::prove(gpu, groth16::synthesize_witness(*circuit_, 1), *key_, blinding),
              groth16::prove(cpu, groth16::synthesize_witness(*circuit_, 1), *key_, blinding));
    EXPECT_EQ(gpu.base_placement(large), BasePlacement::kNotLoaded);
  }
  EXPECT_EQ(groth16::prove(gpu, groth16::synthesize_witness(large_circuit, 0), large, blinding),
            groth16::prove(cpu, groth16::synthesize_witness(large_circuit, 0), large, blinding));
}

}  // namespace
}  // namespace zkpipe::gpu
