// Density-pruned scalar sets built on the device: the MSMs of the A and B queries
// take the aux values whose density bit is set, in order. Selecting them from aux
// already resident on the device replaces a single-threaded host gather and a
// second upload of (most of) aux.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/staging.hpp"
#include "r1cs/density.hpp"

namespace zkpipe::gpu {

// The number of set bits among the first n of density (n ≤ density.size()).
std::size_t count_selected(const r1cs::DensityBitmap& density, std::size_t n);

class DeviceSelect {
 public:
  DeviceSelect() = default;
  // The buffers charge `ledger`.
  explicit DeviceSelect(memory::BufferLedger& ledger) : ledger_(&ledger) {}

  // out[j] = values[i_j] for the indices i_0 < i_1 < … < n whose density bit is
  // set; values and out are device pointers, out has room for
  // count_selected(density, n) elements. Throws std::invalid_argument when density
  // is shorter than n. Queued on stream; returns the count.
  std::size_t select(const ff::Fr* values, std::size_t n, const r1cs::DensityBitmap& density, ff::Fr* out,
                     PinnedStaging& staging, cudaStream_t stream);

  std::size_t device_bytes() const {
    return words_.capacity() * sizeof(std::uint64_t) +
           (counts_.capacity() + offsets_.capacity()) * sizeof(std::uint32_t) + scan_temp_.capacity();
  }

 private:
  memory::BufferLedger* ledger_ = &memory::BufferLedger::process();
  DeviceBuffer<std::uint64_t> words_{*ledger_};
  DeviceBuffer<std::uint32_t> counts_{*ledger_};   // set bits per word
  DeviceBuffer<std::uint32_t> offsets_{*ledger_};  // exclusive prefix sums of counts_
  DeviceBuffer<std::byte> scan_temp_{*ledger_};
};

}  // namespace zkpipe::gpu
