#include "engine/device_health.hpp"

namespace zkpipe::engine {

void DeviceHealth::fail(const std::string& reason) {
  std::lock_guard lock(mutex_);
  if (failed_.load()) return;
  failure_ = reason;
  failed_.store(true);
}

std::string DeviceHealth::failure() const {
  std::lock_guard lock(mutex_);
  return failure_;
}

}  // namespace zkpipe::engine
