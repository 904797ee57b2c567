// Prometheus text exposition (format 0.0.4) of the daemon's state: job counters,
// queue depth, the ledger per stage, RSS and untracked memory, resident parameters,
// device busy time, and a histogram of job latency.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <string>

#include "service/queue/job_record.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::metrics {

// Job latency (submission to completion), in fixed buckets, for p50 / p99 in Prometheus.
class LatencyHistogram {
 public:
  static constexpr std::array<double, 12> kBounds = {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800};

  void observe(double seconds);
  // The histogram's series, named `name`, with `labels` (`kind="x"`, or none) on each.
  std::string render(const std::string& name, const std::string& labels = {}) const;

 private:
  mutable std::mutex mutex_;
  std::array<std::uint64_t, kBounds.size()> buckets_{};
  std::uint64_t count_ = 0;
  double sum_ = 0;
};

struct JobCounters {
  std::uint64_t submitted = 0;
  std::uint64_t done = 0;
  std::uint64_t failed = 0;
  std::uint64_t cancelled = 0;
};

// The counters and the latency histogram, kept by whichever job queue the daemon
// runs (each call under its own lock: queues count from their own threads).
class JobTally {
 public:
  void submitted();
  // A job ended with `status`; a done job's total time goes into the latency histogram.
  void ended(queue::JobStatus status, double total_seconds);
  JobCounters counters() const;
  const LatencyHistogram& latency() const { return latency_; }

 private:
  mutable std::mutex mutex_;
  JobCounters counters_;
  LatencyHistogram latency_;
};

std::string render_metrics(const v1::GetStatusResponse& status, const JobCounters& jobs,
                           const LatencyHistogram& latency);

}  // namespace zkpipe::service::metrics
