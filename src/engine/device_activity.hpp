// The time during which at least one start() runs on a device: the device busy as
// the engine sees it. With a backend that the engine serializes (its device lock)
// that is the sum of the start() calls; with one that locks only its own kernel
// region and lets start() calls overlap (ProverBackend::locks_kernel_region), it is
// their union, so it never exceeds the wall time.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>

namespace zkpipe::engine {

class DeviceActivity {
 public:
  // One start() in progress for as long as it lives.
  class Scope {
   public:
    explicit Scope(DeviceActivity& activity) : activity_(activity) { activity_.enter(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { activity_.leave(); }

   private:
    DeviceActivity& activity_;
  };

  // Busy seconds so far, a span in progress included.
  double busy_seconds() const;
  // The most start() calls that were in progress at once.
  std::size_t peak_concurrency() const;

 private:
  using Clock = std::chrono::steady_clock;

  void enter();
  void leave();

  mutable std::mutex mutex_;
  std::size_t active_ = 0;
  std::size_t peak_ = 0;
  Clock::time_point since_{};
  Clock::duration busy_{};
};

}  // namespace zkpipe::engine
