#include "service/queue/local/local_job_queue.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <iostream>
#include <limits>

#include "formats/excerpt.hpp"
#include "formats/snarkjs_json.hpp"
#include "proving/hand_off.hpp"

namespace zkpipe::service::queue::local {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxAttempts = 3;

// Queued jobs keep the circuit submit read from their documents (a C1 output is
// parsed once) while those documents total at most this; a job beyond it has its
// documents read again from the journal when it starts, so that a long queue of
// PoRep jobs does not hold every one's vanilla proofs in memory.
constexpr std::size_t kHeldDocumentBytes = std::size_t{1} << 30;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

struct LocalJobQueue::Job {
  std::uint64_t id = 0;
  // Its circuit (checked.circuit) held while it is queued, or let go (release_circuit_locked).
  jobs::CheckedJob checked;
  v1::SubmitProofRequest request;  // without a Filecoin job's C1 output or vanilla proofs (request_to_prove)
  std::size_t document_bytes = 0;  // what was dropped from `request`; 0: it carries none
  engine::Priority priority = engine::Priority::normal;
  JobStatus status = JobStatus::queued;
  std::string error;
  std::string proof;
  v1::Timings timings;
  std::optional<std::uint64_t> engine_id;  // once submitted to the engine
  bool cancel_requested = false;
  std::string cancel_reason = kCancelledByClient;  // the error a cancelled job ends with
  // A drain cut it short: it stays queued in the journal for the next start.
  bool interrupted = false;
  Clock::time_point submitted = Clock::now();
  Clock::time_point engine_submitted;
  double engine_submitted_at = 0;  // engine clock
  residency::ParameterResidency::Lease lease;
  // Circom jobs: the witness's public signals, set by synthesis (public.json).
  std::shared_ptr<std::vector<ff::Fr>> public_signals;
  std::string proof_json;
  std::string public_json;
  bool parked = false;  // in parked_, waiting for a loader
};

LocalJobQueue::LocalJobQueue(const JobQueueServices& services)
    : services_(services), store_(services.config.data_dir / "jobs.sqlite") {
  for (const JobRecord& record : store_.unfinished()) {
    v1::SubmitProofRequest request;
    if (!request.ParseFromString(record.request)) {
      store_.finish(record.id, unsuccessful(JobStatus::failed, "the journaled request could not be read"),
                    unix_now());
      continue;
    }
    if (record.status == JobStatus::running && record.attempts >= kMaxAttempts) {
      store_.finish(record.id,
                    unsuccessful(JobStatus::failed, "the daemon stopped " + std::to_string(record.attempts) +
                                                        " times while proving this job"),
                    unix_now());
      continue;
    }
    enqueue(record.id, request, {}, record.submitted_at);
  }
}

LocalJobQueue::~LocalJobQueue() { stop(); }

void LocalJobQueue::start() { starter_ = std::thread([this] { starter_loop(); }); }

void LocalJobQueue::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    draining_ = true;
    // What the engine still runs is cut short, not cancelled: it runs at the next start.
    for (auto& [id, job] : jobs_) job->interrupted = true;
  }
  changed_.notify_all();
  services_.events.all_changed();
  if (starter_.joinable()) starter_.join();
  {
    // A loader finishes the load it is in, then leaves its parked jobs queued.
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return loaders_.empty(); });
  }
  join_finished_loaders();
}

void LocalJobQueue::enqueue(std::uint64_t id, const v1::SubmitProofRequest& request, jobs::CheckedJob checked,
                            double submitted_at) {
  auto job = std::make_shared<Job>();
  job->id = id;
  job->checked = std::move(checked);
  // A job recovered after a restart was submitted before this process began.
  job->submitted -= std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::max(0.0, unix_now() - submitted_at)));
  job->request = request;
  if (request.instance_case() != v1::SubmitProofRequest::INSTANCE_NOT_SET) {
    const std::size_t before = job->request.ByteSizeLong();
    if (jobs::job_kind(request).drop_documents(job->request)) job->document_bytes = before - job->request.ByteSizeLong();
  }
  job->priority = jobs::engine_priority(request.priority());
  {
    std::lock_guard lock(mutex_);
    if (job->checked.circuit && held_document_bytes_ + job->document_bytes <= kHeldDocumentBytes) {
      held_document_bytes_ += job->document_bytes;
    } else {
      job->checked.circuit.reset();
    }
    jobs_[id] = job;
    to_start_.emplace(static_cast<int>(job->priority), id);
  }
  services_.tally.submitted();
  changed_.notify_all();
}

std::uint64_t LocalJobQueue::submit(const v1::SubmitProofRequest& request, jobs::CheckedJob checked) {
  return insert(request, std::move(checked), nullptr).id;
}

NamedJob LocalJobQueue::submit_named(const v1::SubmitProofRequest& request, jobs::CheckedJob checked,
                                     const JobName& name) {
  return insert(request, std::move(checked), &name);
}

NamedJob LocalJobQueue::insert(const v1::SubmitProofRequest& request, jobs::CheckedJob checked, const JobName* name) {
  {
    std::lock_guard lock(mutex_);
    if (draining_) throw ServiceError(ErrorKind::unavailable, "the daemon is shutting down; submit to it after its restart");
    if (jobs_.size() >= services_.config.max_jobs) {
      throw ServiceError(ErrorKind::resource_exhausted,
                         "the daemon holds " + std::to_string(jobs_.size()) + " unfinished jobs (max_jobs)");
    }
  }
  std::string bytes;
  request.SerializeToString(&bytes);
  const double now = unix_now();
  const NamedJob job = name != nullptr ? store_.insert_named(request.priority(), bytes, now, *name)
                                       : NamedJob{store_.insert(request.priority(), bytes, now), {}, false, std::nullopt};
  if (!job.existed) enqueue(job.id, request, std::move(checked), now);
  if (job.replaced && !is_final(job.replaced->status)) {
    cancel_with(job.replaced->id, replaced_reason(job.id));
  }
  return job;
}

std::optional<NamedJob> LocalJobQueue::named(const std::string& name) const { return store_.find_named(name); }

void LocalJobQueue::starter_loop() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] {
        return stopping_ || !finished_loaders_.empty() || (!draining_ && !to_start_.empty());
      });
      if (stopping_) return;
      if (!finished_loaders_.empty()) {
        lock.unlock();
        join_finished_loaders();
        continue;
      }
      const auto next = to_start_.begin();
      job = jobs_.at(next->second);
      to_start_.erase(next);
    }
    auto [key, loaded] = services_.requests.parameters_of(job->request);
    if (loaded) {
      // A refused path is "loaded" too: start() fails the job at once with the reason.
      start(job);
      continue;
    }
    std::lock_guard lock(mutex_);
    job->parked = true;
    parked_[key].push_back(job);
    if (!loaders_.contains(key)) loaders_.emplace(key, std::thread([this, key] { loader_loop(key); }));
  }
}

void LocalJobQueue::loader_loop(const std::string& key) {
  for (;;) {
    std::vector<std::shared_ptr<Job>> jobs;
    {
      std::lock_guard lock(mutex_);
      jobs = std::exchange(parked_[key], {});
      if (jobs.empty()) {
        parked_.erase(key);
        // Joined by the starter (or stop()); the thread object may move while the
        // thread still runs.
        finished_loaders_.push_back(std::move(loaders_.at(key)));
        loaders_.erase(key);
        changed_.notify_all();
        return;
      }
      // The first loads the parameters; the rest then find them resident.
      std::stable_sort(jobs.begin(), jobs.end(),
                       [](const auto& a, const auto& b) { return a->priority < b->priority; });
      for (const auto& job : jobs) job->parked = false;
    }
    for (const auto& job : jobs) start(job);
  }
}

void LocalJobQueue::join_finished_loaders() {
  std::vector<std::thread> done;
  {
    std::lock_guard lock(mutex_);
    done.swap(finished_loaders_);
  }
  for (auto& t : done) t.join();
}

void LocalJobQueue::start(const std::shared_ptr<Job>& job) {
  try {
    jobs::PreparedJob prepared = services_.requests.prepare(request_to_prove(*job), job->checked);
    {
      std::lock_guard lock(mutex_);
      release_circuit_locked(*job);
    }
    engine::ProofRequest request = proving::hand_off(prepared.request, {.label = "job " + std::to_string(job->id),
                                                                         .priority = job->priority,
                                                                         .partitions = {},
                                                                         .verify = true})
                                       .request;
    // The journal counts an attempt when the first partition starts synthesis, not
    // when the job enters the engine's queue: only a job that was really being
    // proved when the daemon died may be the one that kills it.
    auto attempted = std::make_shared<std::atomic<bool>>(false);
    request.synthesize = [this, id = job->id, attempted, synthesize = std::move(request.synthesize)](std::size_t p) {
      if (!attempted->exchange(true)) store_.mark_running(id);
      return synthesize(p);
    };
    request.on_complete = [this, job](const std::shared_future<engine::ProofResult>& result) {
      completed(job, result);
    };
    const double load_seconds = prepared.lease.load_seconds();
    {
      std::lock_guard lock(mutex_);
      job->public_signals = prepared.request.public_signals;
      if (job->cancel_requested) {
        finish_locked(*job, unsuccessful(JobStatus::cancelled, job->cancel_reason), {});
        return;
      }
      if (draining_) {
        // Not started: it stays queued in the journal for the next start.
        job->interrupted = true;
        changed_.notify_all();
        services_.events.changed(job->id);
        return;
      }
      job->lease = std::move(prepared.lease);
      job->timings.set_parameter_load(load_seconds);
      job->engine_submitted = Clock::now();
      job->engine_submitted_at = services_.engine.now();
      job->status = JobStatus::running;
    }
    const engine::ProofTicket ticket = services_.engine.submit(std::move(request));
    bool cancel_now = false;
    {
      std::lock_guard lock(mutex_);
      job->engine_id = ticket.id();
      cancel_now = job->cancel_requested;
    }
    changed_.notify_all();
    if (cancel_now) services_.engine.cancel(ticket.id());
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex_);
    finish_locked(*job, unsuccessful(JobStatus::failed, formats::excerpt(e.what(), 2000)), {});
  }
}

void LocalJobQueue::completed(const std::shared_ptr<Job>& job, const std::shared_future<engine::ProofResult>& result) {
  JobOutcome outcome;
  v1::Timings timings;
  try {
    const engine::ProofResult& r = result.get();
    const auto bytes = groth16::encode_proofs(r.proofs);
    outcome.proof.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (job->public_signals) {
      outcome.proof_json = formats::proof_to_json(r.proofs.at(0));
      outcome.public_json = formats::public_to_json(*job->public_signals);
    }
    double first_synthesis = std::numeric_limits<double>::infinity();
    for (const auto& t : r.timelines) {
      first_synthesis = std::min(first_synthesis, t.when(engine::Hook::synth_start));
      timings.set_synthesis(timings.synthesis() + t.seconds_in(memory::Stage::synthesizing));
      timings.set_device(timings.device() + t.seconds_in(memory::Stage::on_device));
      timings.set_finalize(timings.finalize() + t.seconds_in(memory::Stage::pending_finalize));
    }
    std::lock_guard lock(mutex_);
    timings.set_parameter_load(job->timings.parameter_load());
    // Waiting for the starter (less loading) plus waiting for admission.
    const double before_engine = seconds(job->engine_submitted - job->submitted) - timings.parameter_load();
    timings.set_queue_wait(std::max(0.0, before_engine) + std::max(0.0, first_synthesis - job->engine_submitted_at));
  } catch (const engine::RequestCancelled&) {
    outcome.status = JobStatus::cancelled;
    std::lock_guard lock(mutex_);
    outcome.error = job->cancel_reason;
  } catch (const std::exception& e) {
    outcome.status = JobStatus::failed;
    outcome.error = formats::excerpt(e.what(), 2000);
  }
  // Read after the proofs are made, before they are kept: zeros read from a key
  // truncated under the job (io/mapping_faults.hpp) make no proof.
  if (auto damage = job->lease.damage(); damage && outcome.status != JobStatus::cancelled) {
    outcome = unsuccessful(JobStatus::failed, formats::excerpt(*damage, 2000));
  }
  std::lock_guard lock(mutex_);
  if (job->interrupted && outcome.status != JobStatus::done) {
    try {
      store_.requeue(job->id);
    } catch (const StoreError& e) {
      std::cerr << "zkpipe serve: " << e.what() << "\n";
    }
    job->lease.release();
    if (job->engine_id) services_.progress.forget(*job->engine_id);
    changed_.notify_all();
    services_.events.changed(job->id);
    return;
  }
  finish_locked(*job, std::move(outcome), timings);
}

void LocalJobQueue::finish_locked(Job& job, JobOutcome outcome, const v1::Timings& timings) {
  if (is_final(job.status)) return;
  release_circuit_locked(job);
  job.status = outcome.status;
  job.error = outcome.error;
  job.proof = outcome.proof;
  job.proof_json = outcome.proof_json;
  job.public_json = outcome.public_json;
  job.timings = timings;
  job.timings.set_total(seconds(Clock::now() - job.submitted));
  job.timings.SerializeToString(&outcome.timings);
  try {
    store_.finish(job.id, outcome, unix_now());
  } catch (const StoreError& e) {
    // The awaiters still get the result; only a restart would not know it.
    std::cerr << "zkpipe serve: job " << job.id << ": " << e.what() << "\n";
  }
  services_.tally.ended(job.status, job.timings.total());
  job.lease.release();
  job.public_signals.reset();
  if (job.engine_id) services_.progress.forget(*job.engine_id);
  services_.events.finished(job.id, response_locked(job));
  to_start_.erase({static_cast<int>(job.priority), job.id});
  jobs_.erase(job.id);
  changed_.notify_all();
}

void LocalJobQueue::release_circuit_locked(Job& job) {
  if (!job.checked.circuit) return;
  held_document_bytes_ -= job.document_bytes;
  job.checked.circuit.reset();
}

v1::SubmitProofRequest LocalJobQueue::request_to_prove(const Job& job) const {
  if (job.document_bytes == 0 || job.checked.circuit) return job.request;
  const std::optional<JobRecord> record = store_.get(job.id);
  v1::SubmitProofRequest request;
  if (!record || !request.ParseFromString(record->request)) {
    throw std::runtime_error("the journaled request could not be read");
  }
  return request;
}

JobRecord LocalJobQueue::journaled(std::uint64_t id) const {
  auto record = store_.get(id);
  if (!record) throw ServiceError(ErrorKind::not_found, "no job " + std::to_string(id));
  return std::move(*record);
}

v1::AwaitProofResponse LocalJobQueue::response_locked(const Job& job) const {
  v1::AwaitProofResponse out;
  out.set_job_id(job.id);
  out.set_state(state_of(job.status));
  out.set_error(job.error);
  out.set_proof(job.proof);
  out.set_proof_json(job.proof_json);
  out.set_public_json(job.public_json);
  *out.mutable_timings() = job.timings;
  out.set_partitions(jobs::partitions_of(job.request));
  out.set_partitions_done(job.status == JobStatus::done ? jobs::partitions_of(job.request)
                          : job.engine_id                ? services_.progress.done(*job.engine_id)
                                                         : 0);
  return out;
}

std::optional<AwaitAnswer> LocalJobQueue::answer(std::uint64_t id, bool expired) const {
  std::unique_lock lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) {
    lock.unlock();
    return response_from_record(journaled(id), 0);
  }
  const Job& job = *it->second;
  if (!is_final(job.status) && (job.interrupted || (draining_ && !job.engine_id))) {
    throw ServiceError(ErrorKind::unavailable, "the daemon is shutting down; job " + std::to_string(id) +
                                                   " stays queued and runs at its next start");
  }
  if (!is_final(job.status) && !expired) return std::nullopt;
  return response_locked(job);
}

v1::JobState LocalJobQueue::cancel(std::uint64_t id) { return cancel_with(id, kCancelledByClient); }

v1::JobState LocalJobQueue::cancel_with(std::uint64_t id, const std::string& reason) {
  std::unique_lock lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) {
    lock.unlock();
    return state_of(journaled(id).status);
  }
  const std::shared_ptr<Job> job = it->second;
  if (to_start_.contains({static_cast<int>(job->priority), id})) {
    finish_locked(*job, unsuccessful(JobStatus::cancelled, reason), {});
    return v1::JOB_STATE_CANCELLED;
  }
  if (job->parked) {
    // Waiting for another job's parameter load: nothing held yet.
    for (auto& [key, jobs] : parked_) std::erase(jobs, job);
    job->parked = false;
    finish_locked(*job, unsuccessful(JobStatus::cancelled, reason), {});
    return v1::JOB_STATE_CANCELLED;
  }
  // Being started (the starter sees the flag) or in the engine.
  job->cancel_requested = true;
  job->cancel_reason = reason;
  const std::optional<std::uint64_t> engine_id = job->engine_id;
  lock.unlock();
  if (engine_id) services_.engine.cancel(*engine_id);
  lock.lock();
  // The engine retires the job's partitions (freeing their buffers) before it
  // completes the request: once final, nothing of the job is held.
  changed_.wait(lock, [&] { return is_final(job->status) || job->interrupted; });
  return state_of(job->status);
}

bool LocalJobQueue::draining() const {
  std::lock_guard lock(mutex_);
  return draining_;
}

std::size_t LocalJobQueue::drain(Clock::time_point until) {
  auto running = [&] {
    std::vector<std::shared_ptr<Job>> out;
    for (const auto& [id, job] : jobs_) {
      if (job->engine_id && !job->interrupted) out.push_back(job);
    }
    return out;
  };
  std::unique_lock lock(mutex_);
  draining_ = true;
  changed_.notify_all();
  services_.events.all_changed();
  // The starter may be loading parameters for one more job: it sees draining_ and
  // leaves it queued.
  changed_.wait_until(lock, until, [&] { return running().empty(); });
  const auto late = running();
  for (const auto& job : late) job->interrupted = true;
  services_.events.all_changed();
  lock.unlock();
  for (const auto& job : late) services_.engine.cancel(*job->engine_id);
  lock.lock();
  changed_.wait(lock, [&] {
    return std::all_of(late.begin(), late.end(),
                       [&](const auto& job) { return !jobs_.contains(job->id) || !job->lease.parameters(); });
  });
  return late.size();
}

void LocalJobQueue::purge_finished_before(double cutoff) { store_.purge_finished_before(cutoff); }

void LocalJobQueue::report(v1::GetStatusResponse& out) const {
  std::array<std::uint32_t, 4> depth{};
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, job] : jobs_) ++depth[static_cast<std::size_t>(job->priority)];
  }
  for (std::size_t p = 0; p < depth.size(); ++p) {
    auto* row = out.add_queue();
    row->set_priority(priority_label(static_cast<engine::Priority>(p)));
    row->set_jobs(depth[p]);
  }
}

}  // namespace zkpipe::service::queue::local
