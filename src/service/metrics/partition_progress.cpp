#include "service/metrics/partition_progress.hpp"

namespace zkpipe::service::metrics {

void PartitionProgress::on_partition_retired(const engine::PartitionTimeline& t) {
  if (!t.complete()) return;
  std::lock_guard lock(mutex_);
  ++done_[t.request];
}

std::size_t PartitionProgress::done(std::uint64_t request) const {
  std::lock_guard lock(mutex_);
  const auto it = done_.find(request);
  return it == done_.end() ? 0 : it->second;
}

void PartitionProgress::forget(std::uint64_t request) {
  std::lock_guard lock(mutex_);
  done_.erase(request);
}

}  // namespace zkpipe::service::metrics
