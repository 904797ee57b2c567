// Partitions each engine request has completed: the progress an await reports
// while a job runs. Its own lock: the engine calls it with its listener lock held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "engine/engine.hpp"

namespace zkpipe::service::metrics {

class PartitionProgress final : public engine::EngineListener {
 public:
  void on_partition_retired(const engine::PartitionTimeline& t) override;
  std::size_t done(std::uint64_t request) const;
  // The request is over: its count is dropped.
  void forget(std::uint64_t request);

 private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::size_t> done_;
};

}  // namespace zkpipe::service::metrics
