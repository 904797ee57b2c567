#include "service/queue/cluster/cluster_worker.hpp"

#include <algorithm>
#include <iostream>

#include "formats/excerpt.hpp"
#include "formats/snarkjs_json.hpp"
#include "proving/hand_off.hpp"

namespace zkpipe::service::queue::cluster {

namespace {

using Clock = std::chrono::steady_clock;

// A pipeline's worth: every synthesis worker and every device's workers busy, one
// more waiting; the engine admits them within the budget.
std::size_t pipeline_partitions(const engine::Engine& engine) {
  return engine.config().synthesis_workers + engine.config().workers_per_device * engine.devices() + 1;
}

}  // namespace

// Partitions of one job claimed together and proved as one engine request; it
// holds their leases (in the queue) until recorded or released.
struct ClusterWorker::Work {
  std::uint64_t seq = 0;  // key in work_
  std::uint64_t job = 0;
  std::vector<std::uint32_t> partitions;  // engine partition k is the job's partitions[k]
  residency::ParameterResidency::Lease lease;
  std::shared_ptr<std::vector<ff::Fr>> public_signals;  // circom jobs
  std::optional<std::uint64_t> engine_id;
  bool cancel_requested = false;
};

ClusterWorker::ClusterWorker(const JobQueueServices& services, ClusterQueue& queue)
    : services_(services), queue_(queue), capacity_(pipeline_partitions(services.engine)) {}

ClusterWorker::~ClusterWorker() { stop(); }

void ClusterWorker::start() {
  // A thread the system refuses throws std::system_error: one already started is
  // stopped first, for a joinable std::thread destroyed by the unwinding aborts.
  try {
    claimer_ = std::thread([this] { claim_loop(); });
    heartbeat_ = std::thread([this] { heartbeat_loop(); });
  } catch (...) {
    stop();
    throw;
  }
}

void ClusterWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    draining_ = true;
  }
  changed_.notify_all();
  services_.events.all_changed();
  for (std::thread* thread : {&claimer_, &heartbeat_}) {
    if (thread->joinable()) thread->join();
  }
}

void ClusterWorker::wake() { changed_.notify_all(); }

bool ClusterWorker::draining() const {
  std::lock_guard lock(mutex_);
  return draining_;
}

std::vector<std::uint64_t> ClusterWorker::cancel_locked(const std::vector<std::uint64_t>& jobs) {
  std::vector<std::uint64_t> engine_ids;
  for (auto& [seq, work] : work_) {
    if (std::find(jobs.begin(), jobs.end(), work->job) == jobs.end()) continue;
    work->cancel_requested = true;
    if (work->engine_id) engine_ids.push_back(*work->engine_id);
  }
  return engine_ids;
}

void ClusterWorker::stop_job(std::uint64_t job) {
  std::vector<std::uint64_t> engine_ids;
  {
    std::lock_guard lock(mutex_);
    engine_ids = cancel_locked({job});
  }
  for (const auto id : engine_ids) services_.engine.cancel(id);
}

std::size_t ClusterWorker::drain(Clock::time_point until) {
  std::unique_lock lock(mutex_);
  draining_ = true;
  changed_.notify_all();
  services_.events.all_changed();
  changed_.wait_until(lock, until, [&] { return work_.empty(); });
  std::vector<std::uint64_t> late;
  for (auto& [seq, work] : work_) {
    work->cancel_requested = true;
    if (work->engine_id) late.push_back(*work->engine_id);
  }
  const std::size_t cut = work_.size();
  lock.unlock();
  // Their leases are given back (claimed_done) so that another daemon takes them at once.
  for (const auto id : late) services_.engine.cancel(id);
  lock.lock();
  changed_.wait(lock, [&] { return work_.empty(); });
  return cut;
}

void ClusterWorker::claim_loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (draining_) {
      changed_.wait(lock);
      continue;
    }
    const std::size_t room = capacity_ > partitions_ ? capacity_ - partitions_ : 0;
    const std::vector<std::uint64_t> skip = cannot_serve_;
    lock.unlock();
    std::vector<ClaimedPartition> claimed;
    try {
      claimed = queue_.claim(room, skip);
    } catch (const StoreError& e) {
      std::cerr << "zkpipe serve: claiming work: " << e.what() << "\n";
    }
    // Claimed in (priority, job, partition) order: one engine request per job.
    for (std::size_t i = 0; i < claimed.size();) {
      std::size_t j = i;
      while (j < claimed.size() && claimed[j].job == claimed[i].job) ++j;
      start_claimed({claimed.begin() + static_cast<std::ptrdiff_t>(i),
                     claimed.begin() + static_cast<std::ptrdiff_t>(j)});
      i = j;
    }
    lock.lock();
    // Woken early by a completion (room again) or a local submit.
    if (claimed.empty() && !stopping_) {
      changed_.wait_for(lock, std::chrono::duration<double>(services_.config.poll_seconds));
    }
  }
}

void ClusterWorker::start_claimed(const std::vector<ClaimedPartition>& batch) {
  auto work = std::make_shared<Work>();
  work->job = batch.front().job;
  for (const auto& p : batch) work->partitions.push_back(p.partition);
  auto give_back = [&](bool never_again) {
    try {
      queue_.release(work->job, work->partitions);
    } catch (const StoreError& e) {
      std::cerr << "zkpipe serve: " << e.what() << "\n";
    }
    if (never_again) {
      std::lock_guard lock(mutex_);
      cannot_serve_.push_back(work->job);
    }
  };
  auto fail_job = [&](const std::string& why) {
    try {
      queue_.end(work->job, unsuccessful(JobStatus::failed, formats::excerpt(why, 2000)), unix_now());
    } catch (const StoreError& e) {
      std::cerr << "zkpipe serve: " << e.what() << "\n";
    }
  };

  v1::SubmitProofRequest job;
  if (!job.ParseFromString(batch.front().request)) {
    fail_job("the queued request could not be read");
    return;
  }
  jobs::PreparedJob prepared;
  try {
    prepared = services_.requests.prepare(job, {});
  } catch (const ServiceError& e) {
    // A file this daemon cannot reach (outside its roots, missing here): another may.
    std::cerr << "zkpipe serve: job " << work->job << " left to other daemons: " << e.what() << "\n";
    give_back(true);
    return;
  } catch (const residency::ParametersDoNotFit& e) {
    std::cerr << "zkpipe serve: job " << work->job << " left to other daemons: " << e.what() << "\n";
    give_back(true);
    return;
  } catch (const std::exception& e) {
    fail_job(e.what());  // the job's own files are bad: no daemon would do better
    return;
  }
  work->lease = std::move(prepared.lease);
  work->public_signals = prepared.request.public_signals;
  const std::string label = "job " + std::to_string(work->job) + " partitions " +
                            std::to_string(work->partitions.front()) + ".." + std::to_string(work->partitions.back());
  engine::ProofRequest request =
      proving::hand_off(prepared.request,
                        {.label = label,
                         // Stored as the engine's priority order.
                         .priority = static_cast<engine::Priority>(std::clamp(batch.front().priority, 0, 3)),
                         .partitions = {work->partitions.begin(), work->partitions.end()},
                         .verify = true})
          .request;
  request.on_complete = [this, work](const std::shared_future<engine::ProofResult>& result) {
    claimed_done(work, result);
  };
  {
    std::lock_guard lock(mutex_);
    work->seq = next_work_++;
    work_.emplace(work->seq, work);
    partitions_ += work->partitions.size();
  }
  try {
    const engine::ProofTicket ticket = services_.engine.submit(std::move(request));
    bool cancel_now = false;
    bool completed = false;
    {
      std::lock_guard lock(mutex_);
      work->engine_id = ticket.id();
      cancel_now = work->cancel_requested;
      completed = !work_.contains(work->seq);
    }
    if (cancel_now) services_.engine.cancel(ticket.id());
    // Completed before its id was known here: claimed_done could not forget it.
    if (completed) services_.progress.forget(ticket.id());
  } catch (const std::exception& e) {
    {
      std::lock_guard lock(mutex_);
      work_.erase(work->seq);
      partitions_ -= work->partitions.size();
    }
    work->lease.release();
    // A partition larger than this daemon's whole budget: another daemon's may hold it.
    std::cerr << "zkpipe serve: job " << work->job << " left to other daemons: " << e.what() << "\n";
    give_back(true);
  }
}

void ClusterWorker::claimed_done(const std::shared_ptr<Work>& work,
                                 const std::shared_future<engine::ProofResult>& result) {
  std::vector<std::string> proofs;
  std::optional<std::string> failure;
  bool cancelled = false;
  try {
    for (const groth16::Proof& proof : result.get().proofs) {
      const auto bytes = groth16::encode_proofs(std::span(&proof, 1));
      proofs.emplace_back(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
  } catch (const engine::RequestCancelled&) {
    cancelled = true;
  } catch (const std::exception& e) {
    failure = e.what();
  }
  // As a local job: zeros read from a key truncated under the job make no proof.
  if (auto damage = work->lease.damage(); damage && !cancelled) failure = std::move(damage);
  std::size_t recorded = 0;
  try {
    if (cancelled) {
      // A drain or a cancelled job: the leases go back (a cancelled job is never claimed).
      queue_.release(work->job, work->partitions);
    } else if (failure) {
      // Synthesis failed or a proof did not verify: the job's own inputs are at fault.
      queue_.end(work->job, unsuccessful(JobStatus::failed, formats::excerpt(*failure, 2000)), unix_now());
    } else {
      const std::string public_json = work->public_signals ? formats::public_to_json(*work->public_signals) : "";
      for (std::size_t k = 0; k < proofs.size(); ++k) {
        // False when the lease was lost (this daemon stalled past it and another
        // daemon took the partition): its proof is the one that counts.
        if (queue_.record(work->job, work->partitions[k], proofs[k], public_json)) ++recorded;
      }
    }
  } catch (const StoreError& e) {
    // The leases expire and another daemon proves these partitions again.
    std::cerr << "zkpipe serve: job " << work->job << ": " << e.what() << "\n";
  }
  if (recorded != 0) try_assemble(work->job);
  work->lease.release();
  std::lock_guard lock(mutex_);
  if (work->engine_id) services_.progress.forget(*work->engine_id);
  work_.erase(work->seq);
  partitions_ -= work->partitions.size();
  changed_.notify_all();
}

void ClusterWorker::try_assemble(std::uint64_t job) {
  try {
    JobOutcome outcome;
    const bool assembled = queue_.assemble(
        job,
        [&](const JobRecord& record, const std::vector<ProvedPartition>& partitions) {
          outcome = assemble(record, partitions);
          return outcome;
        },
        unix_now());
    if (!assembled) return;
    v1::Timings timings;
    timings.ParseFromString(outcome.timings);
    services_.tally.ended(outcome.status, timings.total());
  } catch (const StoreError& e) {
    std::cerr << "zkpipe serve: assembling job " << job << ": " << e.what() << "\n";
  }
}

JobOutcome ClusterWorker::assemble(const JobRecord& job, const std::vector<ProvedPartition>& partitions) const {
  JobOutcome out;
  try {
    v1::SubmitProofRequest request;
    if (!request.ParseFromString(job.request)) throw std::runtime_error("the queued request could not be read");
    if (partitions.size() != jobs::partitions_of(request)) {
      throw std::runtime_error(std::to_string(partitions.size()) + " partitions recorded for a job of " +
                               std::to_string(jobs::partitions_of(request)));
    }
    std::vector<groth16::Proof> proofs;
    for (const ProvedPartition& p : partitions) {
      const auto decoded =
          groth16::decode_proofs(std::span(reinterpret_cast<const std::uint8_t*>(p.proof.data()), p.proof.size()));
      if (decoded.size() != 1) throw std::runtime_error("a recorded partition proof is not 192 bytes");
      proofs.push_back(decoded.front());
      out.proof += p.proof;
    }
    // Verified once more as a whole, by the one daemon that assembles it: the
    // partitions may come from several daemons.
    const bool answers_json = jobs::job_kind(request).answers_json();
    const std::string public_json = answers_json ? partitions.front().public_json : "";
    if (!services_.requests.verifies(request, proofs, public_json)) {
      throw std::runtime_error("the assembled proof does not verify");
    }
    if (answers_json) {
      out.proof_json = formats::proof_to_json(proofs.front());
      out.public_json = public_json;
    }
    out.status = JobStatus::done;
  } catch (const std::exception& e) {
    out = unsuccessful(JobStatus::failed, formats::excerpt(e.what(), 2000));
  }
  v1::Timings timings;
  timings.set_total(std::max(0.0, unix_now() - job.submitted_at));
  timings.SerializeToString(&out.timings);
  return out;
}

void ClusterWorker::heartbeat_loop() {
  auto next_sweep = Clock::now();
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    changed_.wait_for(lock, std::chrono::duration<double>(services_.config.heartbeat_seconds),
                      [&] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    try {
      const std::vector<std::uint64_t> ended = queue_.heartbeat();
      std::vector<std::uint64_t> engine_ids;
      {
        std::lock_guard guard(mutex_);
        engine_ids = cancel_locked(ended);
      }
      for (const auto id : engine_ids) services_.engine.cancel(id);
      // Jobs whose last partition was recorded by a daemon that died before
      // assembling them.
      if (Clock::now() >= next_sweep) {
        for (const std::uint64_t job : queue_.unassembled()) try_assemble(job);
        next_sweep = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(services_.config.lease_seconds));
      }
    } catch (const StoreError& e) {
      std::cerr << "zkpipe serve: heartbeat: " << e.what() << "\n";
    }
    lock.lock();
  }
}

}  // namespace zkpipe::service::queue::cluster
