// The time during which at least one start() runs on a device: the device busy as
// the engine sees it. With a backend that the engine serializes (its device lock)
// that is the sum of the start() calls; with one that locks only its own kernel
// region and lets start() calls overlap (ProverBackend::locks_kernel_region), it is
// their union, so it never exceeds the wall time. The clock is a parameter so that a
// test can step it and check the sum and the union exactly.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <utility>

namespace zkpipe::engine {

class DeviceActivity {
 public:
  using Clock = std::chrono::steady_clock;

  explicit DeviceActivity(std::function<Clock::time_point()> now = Clock::now) : now_(std::move(now)) {}

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
  void enter();
  void leave();

  const std::function<Clock::time_point()> now_;
  mutable std::mutex mutex_;
  std::size_t active_ = 0;
  std::size_t peak_ = 0;
  Clock::time_point since_{};
  Clock::duration busy_{};
};

}  // namespace zkpipe::engine
