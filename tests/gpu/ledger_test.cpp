// The CUDA backend's memory in the process-wide buffer ledger: device buffers under
// Stage::device (outside the host totals that are reconciled with RSS), page-locked
// buffers under Stage::scratch, each charged while it exists and released with it.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>

#include "gpu/cuda_prover.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_memory.hpp"
#include "gpu_test_env.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "memory/buffer_ledger.hpp"
#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::gpu {
namespace {

using memory::BufferLedger;
using memory::LedgerSnapshot;
using memory::Stage;

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Host memory that records, when asked for, what the ledger it charges holds then.
struct LedgerWatchingAllocator {
  inline static BufferLedger* ledger = nullptr;
  inline static std::size_t scratch_bytes_at_allocation = 0;

  static BufferLedger::Charge charge(BufferLedger& l, std::size_t bytes) { return l.charge(Stage::scratch, bytes); }
  static void* allocate(std::size_t bytes) {
    scratch_bytes_at_allocation = ledger->snapshot()[Stage::scratch].bytes;
    return ::operator new(bytes);
  }
  static void release(void* p) { ::operator delete(p); }
};

// A page-locked allocation's pages are resident while cudaMallocHost runs: a hook's
// sample then (another thread's) must find them charged, or it counts them untracked
// (up to 8.7 % of RSS at 2e24 before the charge came first). No device needed.
TEST(DeviceBufferLedger, ABufferIsChargedBeforeItsMemoryIsAllocated) {
  BufferLedger ledger;
  LedgerWatchingAllocator::ledger = &ledger;
  {
    detail::Buffer<std::byte, LedgerWatchingAllocator> buffer(ledger, 2 * kMiB);
    EXPECT_EQ(LedgerWatchingAllocator::scratch_bytes_at_allocation, 2 * kMiB);
    buffer.reserve(5 * kMiB);
    EXPECT_EQ(LedgerWatchingAllocator::scratch_bytes_at_allocation, 5 * kMiB) << "growing charges first too";
    EXPECT_EQ(ledger.snapshot()[Stage::scratch].count, 1u);
  }
  EXPECT_EQ(ledger.snapshot()[Stage::scratch].bytes, 0u);
}

TEST(DeviceBufferLedger, LargeBuffersChargeThemselvesForTheirLifetime) {
  ZKPIPE_REQUIRE_GPU();
  BufferLedger& ledger = BufferLedger::process();
  const LedgerSnapshot before = ledger.snapshot();
  {
    DeviceBuffer<std::byte> small(kLedgerMinBytes - 1);
    EXPECT_EQ(ledger.snapshot()[Stage::device].count, before[Stage::device].count) << "under the threshold";

    DeviceBuffer<std::uint64_t> big(kMiB / 8 * 2);
    LedgerSnapshot s = ledger.snapshot();
    EXPECT_EQ(s[Stage::device].count, before[Stage::device].count + 1);
    EXPECT_EQ(s[Stage::device].bytes, before[Stage::device].bytes + 2 * kMiB);
    EXPECT_EQ(s.tracked, before.tracked) << "device memory is not host memory";

    // Growing resizes the one charge; moving carries it.
    big.reserve(kMiB / 8 * 5);
    DeviceBuffer<std::uint64_t> moved = std::move(big);
    s = ledger.snapshot();
    EXPECT_EQ(s[Stage::device].count, before[Stage::device].count + 1);
    EXPECT_EQ(s[Stage::device].bytes, before[Stage::device].bytes + 5 * kMiB);

    PinnedBuffer<std::byte> pinned(3 * kMiB);
    s = ledger.snapshot();
    EXPECT_EQ(s[Stage::scratch].bytes, before[Stage::scratch].bytes + 3 * kMiB);
    EXPECT_EQ(s.tracked, before.tracked + 3 * kMiB) << "page-locked memory is host memory";
  }
  const LedgerSnapshot after = ledger.snapshot();
  EXPECT_EQ(after[Stage::device].count, before[Stage::device].count);
  EXPECT_EQ(after[Stage::device].bytes, before[Stage::device].bytes);
  EXPECT_EQ(after.tracked, before.tracked);
}

TEST(DeviceBufferLedger, ProverDeviceMemoryIsAccountedForAndReleased) {
  ZKPIPE_REQUIRE_GPU();
  BufferLedger& ledger = BufferLedger::process();
  // Large enough that the prover's buffers are charged (1 MiB and up: the bases alone
  // are tens of MiB); the few smaller ones are covered by the slack below.
  porep_like::PorepLikeCircuit circuit(porep_like::find_preset("2e16"), 2024, 1);
  const groth16::ProvingKey key = groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(1));
  groth16::PartitionWitness w = groth16::synthesize_witness(circuit, 0);

  const LedgerSnapshot before = ledger.snapshot();
  const std::size_t used_before = device_memory_used(0);  // after the context exists
  {
    CudaProver gpu(0);
    auto pending = gpu.start(std::move(w), key, groth16::Blinding::random());
    (void)gpu.finish(std::move(pending));

    const LedgerSnapshot s = ledger.snapshot();
    const std::size_t ledger_device = s[Stage::device].bytes - before[Stage::device].bytes;
    const auto driver_delta = static_cast<std::int64_t>(device_memory_used(0)) - static_cast<std::int64_t>(used_before);
    std::cout << "prover device_bytes() " << gpu.device_bytes() << ", ledger device bytes " << ledger_device << " in "
              << s[Stage::device].count - before[Stage::device].count << " buffers, driver's used bytes +"
              << driver_delta << "\n";
    // device_bytes() counts the resident bases and the partition vectors; the ledger
    // also holds the MSM and NTT scratch, so it covers at least as much, less the
    // buffers under 1 MiB that it does not charge (a handful at this size).
    EXPECT_GT(gpu.device_bytes(), 16 * kMiB);
    EXPECT_GE(ledger_device + 8 * kMiB, gpu.device_bytes());
    // The driver saw at least the ledger's bytes go (small allocations may have
    // landed in a slab the driver already held, hence the slack).
    EXPECT_GE(driver_delta + static_cast<std::int64_t>(8 * kMiB), static_cast<std::int64_t>(ledger_device));
    // The only new host charges are the page-locked staging chunks: the device's
    // bytes are not in the host total.
    EXPECT_GT(s[Stage::scratch].bytes, before[Stage::scratch].bytes);
    EXPECT_EQ(s.tracked - before.tracked, s[Stage::scratch].bytes - before[Stage::scratch].bytes);
  }
  const LedgerSnapshot after = ledger.snapshot();
  EXPECT_EQ(after[Stage::device].count, before[Stage::device].count);
  EXPECT_EQ(after[Stage::device].bytes, before[Stage::device].bytes);
  EXPECT_EQ(after.tracked, before.tracked);
  EXPECT_GT(after[Stage::device].peak_bytes, before[Stage::device].bytes);
}

// A prover given a ledger (the engine's) charges every device and page-locked buffer
// there, none to the process-wide ledger.
TEST(DeviceBufferLedger, ProverChargesTheLedgerItIsGiven) {
  ZKPIPE_REQUIRE_GPU();
  porep_like::PorepLikeCircuit circuit(porep_like::find_preset("2e16"), 2024, 1);
  const groth16::ProvingKey key = groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(1));
  groth16::PartitionWitness w = groth16::synthesize_witness(circuit, 0);

  BufferLedger own;
  const LedgerSnapshot process_before = BufferLedger::process().snapshot();
  {
    CudaProver gpu(0, CudaProverOptions{.ledger = &own});
    EXPECT_EQ(gpu.ledger(), &own);
    auto pending = gpu.start(std::move(w), key, groth16::Blinding::random());
    (void)gpu.finish(std::move(pending));
    const LedgerSnapshot s = own.snapshot();
    EXPECT_GT(s[Stage::device].bytes, 16 * kMiB);
    EXPECT_GE(s[Stage::device].bytes + 8 * kMiB, gpu.device_bytes());
    EXPECT_GT(s[Stage::scratch].bytes, 0u) << "the staging chunks";
    const LedgerSnapshot p = BufferLedger::process().snapshot();
    EXPECT_EQ(p[Stage::device].peak_bytes, process_before[Stage::device].peak_bytes);
    EXPECT_EQ(p[Stage::device].bytes, process_before[Stage::device].bytes);
    EXPECT_EQ(p.tracked, process_before.tracked);
  }
  EXPECT_EQ(own.snapshot()[Stage::device].count, 0u);
  EXPECT_EQ(own.snapshot().tracked, 0u);
}

// Runs with and without a GPU: the error names the problem instead of a bare CUDA code.
TEST(DeviceMemory, RequireDeviceNamesTheProblem) {
  const int count = device_count();
  if (count > 0) {
    EXPECT_NO_THROW(require_device(0));
    EXPECT_GT(device_memory_used(0), 0u);
  }
  try {
    require_device(count);
    ADD_FAILURE() << "device " << count << " accepted on a machine with " << count;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA device"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace zkpipe::gpu
