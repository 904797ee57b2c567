// Device buffers for deferred (pce) witnesses — inputs and compact aux — two of
// them, so that one partition's witness goes up while another partition's kernels
// run. A slot is leased for one start(): filled before the prover's kernel region
// on the slot's own stream through its own staging, read inside the region, and
// handed back once the prover's stream has consumed it (an event the next lessee
// waits for before it overwrites the buffers).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>

#include "ff/fr.hpp"
#include "gpu/sparse_product.hpp"
#include "gpu/staging.hpp"
#include "memory/buffer_ledger.hpp"
#include "r1cs/compact_values.hpp"

namespace zkpipe::gpu {

class WitnessSlots {
  struct Slot;

 public:
  class Lease {
   public:
    Lease(Lease&& o) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Lease& operator=(Lease&&) = delete;
    ~Lease();

    // Queues the witness's upload on the slot's stream (the host arrays may be
    // freed on return), after the slot's previous contents were consumed.
    void upload(std::span<const ff::Fr> inputs, const r1cs::CompactValues& compact_aux);
    // Makes `stream` wait for the upload; then the assignment may be read there.
    const DeviceAssignment& ready_on(cudaStream_t stream);
    // Work queued on `stream` so far is the last to read the slot.
    void consumed_on(cudaStream_t stream);

   private:
    friend class WitnessSlots;
    Lease(WitnessSlots& owner, Slot& slot) : owner_(&owner), slot_(&slot) {}

    WitnessSlots* owner_;
    Slot* slot_;
    bool consumed_recorded_ = false;
  };

  explicit WitnessSlots(memory::BufferLedger& ledger);
  ~WitnessSlots();

  // A free slot, waiting while every slot is leased.
  Lease acquire();

  std::size_t device_bytes() const;

 private:
  void release(Slot& slot);

  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::unique_ptr<Slot> slots_[2];
};

}  // namespace zkpipe::gpu
