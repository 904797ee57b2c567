#include "engine/device_activity.hpp"

#include <algorithm>

namespace zkpipe::engine {

void DeviceActivity::enter() {
  std::lock_guard lock(mutex_);
  if (active_++ == 0) since_ = now_();
  peak_ = std::max(peak_, active_);
}

void DeviceActivity::leave() {
  std::lock_guard lock(mutex_);
  if (--active_ == 0) busy_ += now_() - since_;
}

double DeviceActivity::busy_seconds() const {
  std::lock_guard lock(mutex_);
  const Clock::duration running = active_ > 0 ? now_() - since_ : Clock::duration{};
  return std::chrono::duration<double>(busy_ + running).count();
}

std::size_t DeviceActivity::peak_concurrency() const {
  std::lock_guard lock(mutex_);
  return peak_;
}

}  // namespace zkpipe::engine
