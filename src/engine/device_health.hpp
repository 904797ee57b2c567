// A device's standing in the engine. Healthy until its backend reports a
// groth16::DeviceFailure; failed for good after it (no device is given work again
// in the engine's life: a device that failed once is not trusted with a proof).
// Also counts what the device did: partitions proved, and partitions it failed
// under that went to another device.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>

namespace zkpipe::engine {

class DeviceHealth {
 public:
  bool healthy() const { return !failed_.load(); }
  // Marks the device failed for `reason`; only the first reason is kept.
  void fail(const std::string& reason);
  // Empty while healthy.
  std::string failure() const;

  void count_proved() { ++proved_; }
  void count_reassigned() { ++reassigned_; }
  std::size_t proved() const { return proved_.load(); }
  std::size_t reassigned() const { return reassigned_.load(); }

 private:
  std::atomic<bool> failed_{false};
  mutable std::mutex mutex_;
  std::string failure_;
  std::atomic<std::size_t> proved_{0};
  std::atomic<std::size_t> reassigned_{0};
};

}  // namespace zkpipe::engine
