// The buffer ledger: at every moment, how many large buffers sit in each stage,
// how many bytes they hold, the high-water marks, and how long buffers stayed in
// each stage. Every large allocation is represented by one Charge (RAII): made when
// the memory exists, moved as the buffer changes stage, resized when part of it is
// freed, released when it is gone. TrackedBuffer owns one; the engine holds one per
// partition for the witness vectors, which live in the groth16 layer (see
// DESIGN.md, "Buffer ledger and tracing").
//
// There is one process-wide ledger, BufferLedger::process(), so that every engine
// and backend in the process reports into the same numbers that are reconciled with
// RSS; tests that need isolation make their own instance and hand it to the engine.
//
// Device memory (Stage::device) is in the ledger too, with its own count, bytes and
// peaks, but not in the host totals (tracked, count, peak_tracked): those are what
// RSS and the memory budget are compared against. It is also broken down by device
// ordinal (LedgerSnapshot::devices): a charge names its device (charge_device; 0
// for one made with charge()), so that a host with several GPUs sees each one's
// memory, and the breakdown always sums to the device stage's totals (peaks aside:
// each device's peak is its own).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "memory/stage.hpp"

namespace zkpipe::memory {

struct StageTotals {
  std::size_t count = 0;
  std::size_t bytes = 0;
  std::size_t peak_count = 0;
  std::size_t peak_bytes = 0;
  // Time buffers spent in the stage, summed over the buffers that left it.
  double seconds = 0;
  std::size_t exits = 0;

  double mean_seconds() const { return exits == 0 ? 0.0 : seconds / static_cast<double>(exits); }
};

struct LedgerSnapshot {
  std::array<StageTotals, kStageCount> stages{};
  std::size_t tracked = 0;       // bytes over the host stages (all but Stage::device)
  std::size_t peak_tracked = 0;
  std::size_t count = 0;         // buffers over the host stages
  // Stage::device by device ordinal: devices[d] is device d's share (empty until a
  // charge names a device; a device that held memory once keeps its entry).
  std::vector<StageTotals> devices;
  // Page-locked host memory (charge_pinned), counted in its host stage too: what the
  // kernel cannot page out or reclaim, reported apart (cuzk's pinned_memory_bytes).
  std::size_t pinned = 0;
  std::size_t peak_pinned = 0;

  const StageTotals& operator[](Stage s) const { return stages[index_of(s)]; }
  StageTotals& operator[](Stage s) { return stages[index_of(s)]; }
  // Device d's share of Stage::device; zeros for a device that never held memory.
  StageTotals device(std::size_t ordinal) const { return ordinal < devices.size() ? devices[ordinal] : StageTotals{}; }
};

enum class LedgerChange : std::uint8_t { add, move, resize, remove };

// What an observer sees: the change and the ledger right after it.
struct LedgerEvent {
  LedgerChange change;
  Stage stage;  // the stage the buffer is in after the change (before it, for remove)
  std::size_t bytes;
  const LedgerSnapshot& after;
};

// A device charge, or a device charge's growth, that would take its device's share
// past the limit set for it (BufferLedger::set_device_limit): nothing was charged.
class DeviceLimitExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class BufferLedger {
 public:
  using Clock = std::chrono::steady_clock;
  // Called under the ledger's lock at every change, so that a check sees every
  // intermediate state; it must be quick and must not touch the ledger.
  using Observer = std::function<void(const LedgerEvent&)>;

  class Charge;

  BufferLedger() = default;
  BufferLedger(const BufferLedger&) = delete;
  BufferLedger& operator=(const BufferLedger&) = delete;

  static BufferLedger& process();

  Charge charge(Stage stage, std::size_t bytes);
  // Device memory on the device of that ordinal (Stage::device, counted in its
  // share). Throws std::invalid_argument for a negative ordinal.
  Charge charge_device(int ordinal, std::size_t bytes);
  // Page-locked host memory (a CUDA staging buffer): Stage::scratch, and counted in
  // LedgerSnapshot::pinned while it lives.
  Charge charge_pinned(std::size_t bytes);

  // Caps device `ordinal`'s share of Stage::device at `bytes` (0: no cap, the
  // default): a charge_device, or a device charge's growth, past it throws
  // DeviceLimitExceeded and changes nothing. How a device-memory budget
  // (--device-memory) holds for every buffer charged here.
  void set_device_limit(int ordinal, std::size_t bytes);
  // The cap (0 when none) and the device's share now.
  std::size_t device_limit(int ordinal) const;
  std::size_t device_bytes(int ordinal) const;

  LedgerSnapshot snapshot() const;
  // Peaks restart from the current values (a benchmark does this per run).
  void reset_peaks();

  std::size_t add_observer(Observer observer);
  void remove_observer(std::size_t id);

 private:
  void add(Stage stage, std::size_t device, std::size_t bytes);
  void move(Stage from, Stage to, std::size_t device, std::size_t bytes, double seconds_in_from);
  void resize(Stage stage, std::size_t device, std::size_t old_bytes, std::size_t new_bytes);
  void remove(Stage stage, std::size_t device, std::size_t bytes, double seconds_in_stage);
  // tracked and count follow the host stages only; a device's share, Stage::device.
  void enter_totals(Stage stage, std::size_t device, std::size_t bytes);
  void leave_totals(Stage stage, std::size_t device, std::size_t bytes, double seconds_in_stage);
  StageTotals& device_share(std::size_t device);
  // Under the lock: throws DeviceLimitExceeded unless the device's share may grow by `more`.
  void admit_device(std::size_t device, std::size_t more);
  void raise_peaks(Stage stage, std::size_t device);
  // A pinned charge's bytes going from `from` to `to`.
  void repin(std::size_t from, std::size_t to);
  void notify(LedgerChange change, Stage stage, std::size_t bytes);

  mutable std::mutex mutex_;
  LedgerSnapshot state_;
  std::vector<std::size_t> device_limits_;  // by ordinal; 0: none
  std::vector<std::pair<std::size_t, Observer>> observers_;
  std::size_t next_observer_ = 0;
};

// One buffer's entry in the ledger. Move-only; releases itself on destruction.
class BufferLedger::Charge {
 public:
  Charge() = default;
  Charge(Charge&& other) noexcept { *this = std::move(other); }
  Charge& operator=(Charge&& other) noexcept;
  Charge(const Charge&) = delete;
  Charge& operator=(const Charge&) = delete;
  ~Charge() { release(); }

  void move_to(Stage stage);
  void resize(std::size_t bytes);
  void release();

  bool active() const { return ledger_ != nullptr; }
  Stage stage() const { return stage_; }
  std::size_t bytes() const { return bytes_; }
  // The device whose share the bytes count in while the charge is in Stage::device.
  std::size_t device() const { return device_; }

 private:
  friend class BufferLedger;
  Charge(BufferLedger* ledger, Stage stage, std::size_t device, std::size_t bytes)
      : ledger_(ledger), stage_(stage), device_(device), bytes_(bytes), since_(Clock::now()) {}
  double lap();

  BufferLedger* ledger_ = nullptr;
  Stage stage_ = Stage::scratch;
  std::size_t device_ = 0;
  std::size_t bytes_ = 0;
  bool pinned_ = false;
  Clock::time_point since_{};
};

}  // namespace zkpipe::memory
