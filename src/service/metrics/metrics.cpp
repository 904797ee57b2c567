#include "service/metrics/metrics.hpp"

#include <cstdio>
#include <sstream>

namespace zkpipe::service::metrics {

namespace {

// Label values are escaped as the exposition format requires (\\, \", \n).
std::string label(const std::string& value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

void header(std::ostringstream& out, const char* name, const char* type, const char* help) {
  out << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
}

}  // namespace

void JobTally::submitted() {
  std::lock_guard lock(mutex_);
  ++counters_.submitted;
}

void JobTally::ended(queue::JobStatus status, double total_seconds) {
  {
    std::lock_guard lock(mutex_);
    switch (status) {
      case queue::JobStatus::done: ++counters_.done; break;
      case queue::JobStatus::failed: ++counters_.failed; break;
      default: ++counters_.cancelled; break;
    }
  }
  if (status == queue::JobStatus::done) latency_.observe(total_seconds);
}

JobCounters JobTally::counters() const {
  std::lock_guard lock(mutex_);
  return counters_;
}

void LatencyHistogram::observe(double seconds) {
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    if (seconds <= kBounds[i]) ++buckets_[i];
  }
  ++count_;
  sum_ += seconds;
}

std::string LatencyHistogram::render(const std::string& name, const std::string& labels) const {
  std::lock_guard lock(mutex_);
  std::ostringstream out;
  const std::string before_le = labels.empty() ? "{" : "{" + labels + ",";
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    out << name << "_bucket" << before_le << "le=\"" << number(kBounds[i]) << "\"} " << buckets_[i] << "\n";
  }
  out << name << "_bucket" << before_le << "le=\"+Inf\"} " << count_ << "\n";
  const std::string own = labels.empty() ? "" : "{" + labels + "}";
  out << name << "_sum" << own << " " << number(sum_) << "\n" << name << "_count" << own << " " << count_ << "\n";
  return out.str();
}

std::string render_metrics(const v1::GetStatusResponse& status, const JobCounters& jobs,
                           const LatencyHistogram& latency) {
  std::ostringstream out;
  header(out, "zkpipe_jobs_submitted_total", "counter", "Jobs accepted since the daemon started.");
  out << "zkpipe_jobs_submitted_total " << jobs.submitted << "\n";
  header(out, "zkpipe_jobs_finished_total", "counter", "Jobs finished since the daemon started, by outcome.");
  out << "zkpipe_jobs_finished_total{state=\"done\"} " << jobs.done << "\n";
  out << "zkpipe_jobs_finished_total{state=\"failed\"} " << jobs.failed << "\n";
  out << "zkpipe_jobs_finished_total{state=\"cancelled\"} " << jobs.cancelled << "\n";
  header(out, "zkpipe_queue_jobs", "gauge", "Jobs queued or running, by priority.");
  for (const auto& q : status.queue()) out << "zkpipe_queue_jobs{priority=\"" << q.priority() << "\"} " << q.jobs() << "\n";
  header(out, "zkpipe_partitions", "gauge", "Partitions in each pipeline stage.");
  for (const auto& p : status.partitions()) {
    out << "zkpipe_partitions{stage=\"" << label(p.stage()) << "\"} " << p.partitions() << "\n";
  }
  header(out, "zkpipe_ledger_bytes", "gauge", "Bytes the buffer ledger holds, by stage.");
  for (const auto& s : status.ledger().stages()) {
    out << "zkpipe_ledger_bytes{stage=\"" << label(s.stage()) << "\"} " << s.bytes() << "\n";
  }
  header(out, "zkpipe_ledger_buffers", "gauge", "Buffers the ledger holds, by stage.");
  for (const auto& s : status.ledger().stages()) {
    out << "zkpipe_ledger_buffers{stage=\"" << label(s.stage()) << "\"} " << s.count() << "\n";
  }
  header(out, "zkpipe_ledger_peak_bytes", "gauge", "High-water mark of the ledger's bytes, by stage.");
  for (const auto& s : status.ledger().stages()) {
    out << "zkpipe_ledger_peak_bytes{stage=\"" << label(s.stage()) << "\"} " << s.peak_bytes() << "\n";
  }
  header(out, "zkpipe_tracked_bytes", "gauge", "Host bytes the ledger tracks.");
  out << "zkpipe_tracked_bytes " << status.ledger().tracked_bytes() << "\n";
  header(out, "zkpipe_rss_bytes", "gauge", "Resident set size of the daemon.");
  out << "zkpipe_rss_bytes " << status.ledger().rss_bytes() << "\n";
  header(out, "zkpipe_untracked_bytes", "gauge", "RSS less the baseline at start less tracked bytes.");
  out << "zkpipe_untracked_bytes " << status.ledger().untracked_bytes() << "\n";
  header(out, "zkpipe_pinned_bytes", "gauge", "Page-locked host bytes (GPU staging), within tracked.");
  out << "zkpipe_pinned_bytes " << status.ledger().pinned_bytes() << "\n";
  header(out, "zkpipe_key_cache_bytes", "gauge", "Bytes of the key cache directory's files.");
  out << "zkpipe_key_cache_bytes " << status.key_cache_bytes() << "\n";
  header(out, "zkpipe_key_cache_budget_bytes", "gauge", "The key cache directory's disk budget (0: none).");
  out << "zkpipe_key_cache_budget_bytes " << status.key_cache_budget_bytes() << "\n";
  header(out, "zkpipe_budget_bytes", "gauge", "The memory budget shared by parameters and working sets.");
  out << "zkpipe_budget_bytes " << status.budget_bytes() << "\n";
  header(out, "zkpipe_resident_parameter_bytes", "gauge", "Resident proving keys, by file and tier.");
  for (const auto& r : status.parameters()) {
    out << "zkpipe_resident_parameter_bytes{file=\"" << label(r.parameter_file()) << "\",tier=\"" << label(r.tier())
        << "\"} " << r.bytes() << "\n";
  }
  // Every engine device by its index and backend; the GPU's memory by its ordinal too
  // (engine devices on one GPU report the same memory).
  auto device_labels = [&](const v1::Device& d) {
    return "device=\"" + std::to_string(d.index()) + "\",backend=\"" + label(d.backend()) + "\"";
  };
  header(out, "zkpipe_device_busy_seconds_total", "counter", "Time each device spent proving.");
  for (const auto& d : status.devices()) {
    out << "zkpipe_device_busy_seconds_total{" << device_labels(d) << "} " << number(d.busy_seconds()) << "\n";
  }
  header(out, "zkpipe_device_healthy", "gauge", "1 while the device is given work, 0 once it failed.");
  for (const auto& d : status.devices()) {
    out << "zkpipe_device_healthy{" << device_labels(d) << "} " << (d.healthy() ? 1 : 0) << "\n";
  }
  header(out, "zkpipe_device_partitions_proved_total", "counter", "Partitions each device proved.");
  for (const auto& d : status.devices()) {
    out << "zkpipe_device_partitions_proved_total{" << device_labels(d) << "} " << d.partitions_proved() << "\n";
  }
  header(out, "zkpipe_device_partitions_reassigned_total", "counter",
         "Partitions a device failed under, proved by another device.");
  for (const auto& d : status.devices()) {
    out << "zkpipe_device_partitions_reassigned_total{" << device_labels(d) << "} " << d.partitions_reassigned()
        << "\n";
  }
  header(out, "zkpipe_device_memory_bytes", "gauge", "Device memory the ledger holds on each device's GPU.");
  for (const auto& d : status.devices()) {
    if (!d.has_ordinal()) continue;
    out << "zkpipe_device_memory_bytes{" << device_labels(d) << ",ordinal=\"" << d.ordinal() << "\"} "
        << d.memory_bytes() << "\n";
  }
  header(out, "zkpipe_device_keys", "gauge",
         "Keys a GPU keeps resident, or streams from host memory at every MSM.");
  for (const auto& d : status.devices()) {
    if (!d.has_ordinal()) continue;
    out << "zkpipe_device_keys{" << device_labels(d) << ",placement=\"resident\"} " << d.keys_resident() << "\n";
    out << "zkpipe_device_keys{" << device_labels(d) << ",placement=\"streamed\"} " << d.keys_streamed() << "\n";
  }
  header(out, "zkpipe_device_streamed_bytes_total", "counter",
         "Bytes a GPU streamed from host memory: key points of non-zero terms and pce evaluator matrices.");
  for (const auto& d : status.devices()) {
    if (!d.has_ordinal()) continue;
    out << "zkpipe_device_streamed_bytes_total{" << device_labels(d) << "} " << d.streamed_bytes() << "\n";
  }
  header(out, "zkpipe_job_seconds", "histogram", "Job latency, submission to completion.");
  out << latency.render("zkpipe_job_seconds");
  if (status.has_cluster()) {
    const auto& c = status.cluster();
    header(out, "zkpipe_cluster_partitions", "gauge", "Partitions of the shared queue's unfinished jobs, by state.");
    out << "zkpipe_cluster_partitions{state=\"queued\"} " << c.queued_partitions() << "\n";
    out << "zkpipe_cluster_partitions{state=\"leased\"} " << c.leased_partitions() << "\n";
    header(out, "zkpipe_cluster_reclaimed_partitions", "gauge",
           "Partitions claimed again after a lease expired, over the jobs the queue keeps.");
    out << "zkpipe_cluster_reclaimed_partitions " << c.reclaimed_partitions() << "\n";
    header(out, "zkpipe_cluster_daemon_leases", "gauge", "Partitions each daemon on the queue holds.");
    for (const auto& d : c.daemons()) {
      out << "zkpipe_cluster_daemon_leases{daemon=\"" << label(d.name()) << "\"} " << d.leases() << "\n";
    }
    header(out, "zkpipe_cluster_daemon_heartbeat_age_seconds", "gauge", "Seconds since each daemon's last heartbeat.");
    for (const auto& d : c.daemons()) {
      out << "zkpipe_cluster_daemon_heartbeat_age_seconds{daemon=\"" << label(d.name()) << "\"} "
          << number(d.heartbeat_age_seconds()) << "\n";
    }
  }
  header(out, "zkpipe_awaits_parked", "gauge", "AwaitProof and Prove calls waiting for a job to finish.");
  out << "zkpipe_awaits_parked " << status.awaits_parked() << "\n";
  header(out, "zkpipe_uptime_seconds", "gauge", "Seconds since the daemon started.");
  out << "zkpipe_uptime_seconds " << number(status.uptime_seconds()) << "\n";
  return out.str();
}

}  // namespace zkpipe::service::metrics
