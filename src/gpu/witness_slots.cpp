#include "gpu/witness_slots.hpp"

#include <utility>

namespace zkpipe::gpu {

namespace {

// A pce witness is ~80 MiB at 2^27 constraints (bits, and 32 bytes per wide value):
// smaller chunks than the default keep the two slots' pinned memory small.
constexpr std::size_t kSlotStagingChunkBytes = std::size_t{16} << 20;

}  // namespace

struct WitnessSlots::Slot {
  explicit Slot(memory::BufferLedger& ledger) : assignment(ledger), staging(ledger, kSlotStagingChunkBytes) {}

  DeviceAssignment assignment;
  PinnedStaging staging;
  CudaStream stream;
  CudaEvent uploaded;
  CudaEvent consumed;
  bool leased = false;
};

WitnessSlots::WitnessSlots(memory::BufferLedger& ledger) {
  for (auto& slot : slots_) slot = std::make_unique<Slot>(ledger);
}

WitnessSlots::~WitnessSlots() = default;

WitnessSlots::Lease WitnessSlots::acquire() {
  std::unique_lock lock(mutex_);
  for (;;) {
    for (auto& slot : slots_) {
      if (!slot->leased) {
        slot->leased = true;
        return Lease(*this, *slot);
      }
    }
    freed_.wait(lock);
  }
}

void WitnessSlots::release(Slot& slot) {
  {
    std::lock_guard lock(mutex_);
    slot.leased = false;
  }
  freed_.notify_one();
}

std::size_t WitnessSlots::device_bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t bytes = 0;
  for (const auto& slot : slots_) bytes += slot->assignment.device_bytes();
  return bytes;
}

WitnessSlots::Lease::Lease(Lease&& o) noexcept
    : owner_(std::exchange(o.owner_, nullptr)), slot_(o.slot_), consumed_recorded_(o.consumed_recorded_) {}

WitnessSlots::Lease::~Lease() {
  if (owner_ == nullptr) return;
  // A lease that ends before its consumer recorded the event (an error on the way)
  // leaves no copy in flight into the slot.
  if (!consumed_recorded_) cudaStreamSynchronize(slot_->stream.get());
  owner_->release(*slot_);
}

void WitnessSlots::Lease::upload(std::span<const ff::Fr> inputs, const r1cs::CompactValues& compact_aux) {
  check(cudaEventSynchronize(slot_->consumed.get()), "witness slot: previous contents consumed");
  slot_->assignment.upload(inputs, compact_aux, slot_->staging, slot_->stream.get());
  check(cudaEventRecord(slot_->uploaded.get(), slot_->stream.get()), "witness slot: record the upload");
}

const DeviceAssignment& WitnessSlots::Lease::ready_on(cudaStream_t stream) {
  check(cudaStreamWaitEvent(stream, slot_->uploaded.get()), "witness slot: wait for the upload");
  return slot_->assignment;
}

void WitnessSlots::Lease::consumed_on(cudaStream_t stream) {
  check(cudaEventRecord(slot_->consumed.get(), stream), "witness slot: record its consumption");
  consumed_recorded_ = true;
}

}  // namespace zkpipe::gpu
