#include "service/queue/cluster/cluster_job_queue.hpp"

#include <unistd.h>

#include <array>

namespace zkpipe::service::queue::cluster {

namespace {

std::string default_daemon_name() {
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) != 0) host = {};
  return std::string(host.data()) + ":" + std::to_string(::getpid());
}

ClusterOptions options_of(const config::ServiceConfig& config) {
  ClusterOptions options;
  options.url = config.queue;
  options.daemon = config.daemon_name.empty() ? default_daemon_name() : config.daemon_name;
  options.address = config.listen;
  options.lease_seconds = config.lease_seconds;
  options.reconnect_seconds = config.reconnect_seconds;
  return options;
}

}  // namespace

ClusterJobQueue::ClusterJobQueue(const JobQueueServices& services)
    : services_(services), queue_(options_of(services.config)), worker_(services, queue_) {}

void ClusterJobQueue::start() { worker_.start(); }

void ClusterJobQueue::stop() { worker_.stop(); }

std::uint64_t ClusterJobQueue::submit(const v1::SubmitProofRequest& request, jobs::CheckedJob) {
  return insert(request, nullptr).id;
}

NamedJob ClusterJobQueue::submit_named(const v1::SubmitProofRequest& request, jobs::CheckedJob, const JobName& name) {
  return insert(request, &name);
}

NamedJob ClusterJobQueue::insert(const v1::SubmitProofRequest& request, const JobName* name) {
  // The files are checked again by the daemon that claims the job: it may be another.
  if (worker_.draining()) {
    throw ServiceError(ErrorKind::unavailable, "the daemon is shutting down; submit to it after its restart");
  }
  std::string bytes;
  request.SerializeToString(&bytes);
  try {
    // Stored as the engine's priority order (critical 0 … low 3): the claim's ORDER BY.
    const int priority = static_cast<int>(jobs::engine_priority(request.priority()));
    const std::uint32_t partitions = jobs::partitions_of(request);
    const double now = unix_now();
    const NamedJob job = name != nullptr ? queue_.insert_named(priority, bytes, partitions, now, *name)
                                         : NamedJob{queue_.insert(priority, bytes, partitions, now), {}, false, std::nullopt};
    if (!job.existed) {
      services_.tally.submitted();
      worker_.wake();  // the local claimer asks at once
    }
    if (job.replaced && !is_final(job.replaced->status)) cancel_with(job.replaced->id, replaced_reason(job.id));
    return job;
  } catch (const StoreError& e) {
    throw unavailable(e);
  }
}

std::optional<NamedJob> ClusterJobQueue::named(const std::string& name) const {
  try {
    return queue_.find_named(name);
  } catch (const StoreError& e) {
    throw unavailable(e);
  }
}

std::optional<AwaitAnswer> ClusterJobQueue::answer(std::uint64_t job, bool expired) const {
  try {
    // Parked waiters ask every answer_poll(): the state alone, until there is an answer.
    const std::optional<JobStatus> state = queue_.state(job);
    if (!state) throw ServiceError(ErrorKind::not_found, "no job " + std::to_string(job));
    if (!is_final(*state) && !expired && !worker_.draining()) return std::nullopt;
    const std::optional<JobRecord> record = queue_.get(job);
    if (!record) throw ServiceError(ErrorKind::not_found, "no job " + std::to_string(job));
    return response_from_record(*record, queue_.partitions_done(job));
  } catch (const StoreError& e) {
    throw unavailable(e);
  }
}

std::optional<std::chrono::steady_clock::duration> ClusterJobQueue::answer_poll() const {
  return std::chrono::milliseconds(100);
}

v1::JobState ClusterJobQueue::cancel(std::uint64_t job) { return cancel_with(job, kCancelledByClient); }

v1::JobState ClusterJobQueue::cancel_with(std::uint64_t job, const std::string& reason) {
  std::optional<JobStatus> state;
  try {
    state = queue_.end(job, unsuccessful(JobStatus::cancelled, reason), unix_now());
  } catch (const StoreError& e) {
    throw unavailable(e);
  }
  if (!state) throw ServiceError(ErrorKind::not_found, "no job " + std::to_string(job));
  if (*state == JobStatus::cancelled) services_.tally.ended(JobStatus::cancelled, 0);
  // This daemon's part stops now; other daemons notice at their next heartbeat.
  worker_.stop_job(job);
  return state_of(*state);
}

std::size_t ClusterJobQueue::drain(std::chrono::steady_clock::time_point until) { return worker_.drain(until); }

bool ClusterJobQueue::draining() const { return worker_.draining(); }

void ClusterJobQueue::purge_finished_before(double cutoff) { queue_.purge_finished_before(cutoff); }

void ClusterJobQueue::report(v1::GetStatusResponse& out) const {
  ClusterStatus cluster;
  try {
    cluster = queue_.status();
  } catch (const StoreError& e) {
    throw unavailable(e);
  }
  // The whole queue's depth, not this daemon's share.
  std::array<std::uint64_t, 4> jobs{};
  for (const auto& [priority, n] : cluster.queue) {
    if (priority >= 0 && priority < 4) jobs[static_cast<std::size_t>(priority)] = n;
  }
  for (std::size_t p = 0; p < jobs.size(); ++p) {
    auto* row = out.add_queue();
    row->set_priority(priority_label(static_cast<engine::Priority>(p)));
    row->set_jobs(static_cast<std::uint32_t>(jobs[p]));
  }
  auto* c = out.mutable_cluster();
  c->set_daemon(queue_.options().daemon);
  c->set_queued_partitions(cluster.queued_partitions);
  c->set_leased_partitions(cluster.leased);
  c->set_reclaimed_partitions(cluster.reclaimed);
  for (const ClusterDaemonInfo& d : cluster.daemons) {
    auto* row = c->add_daemons();
    row->set_name(d.name);
    row->set_address(d.address);
    row->set_heartbeat_age_seconds(d.heartbeat_age);
    row->set_leases(d.leases);
    row->set_partitions_proved(d.partitions_proved);
  }
}

}  // namespace zkpipe::service::queue::cluster
