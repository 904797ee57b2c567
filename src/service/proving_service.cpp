#include "service/proving_service.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <iostream>
#include <limits>
#include <thread>

#include "memory/process_memory.hpp"
#include "formats/excerpt.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "io/read_only_file.hpp"
#include "proving/proof_request.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "service/errors.hpp"

namespace zkpipe::service {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxPartitions = 1024;
constexpr std::size_t kMaxLabel = 256;
constexpr int kMaxAttempts = 3;
constexpr auto kMaxAwait = std::chrono::seconds(60);

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

engine::Priority engine_priority(int p) {
  switch (p) {
    case v1::PRIORITY_CRITICAL: return engine::Priority::critical;
    case v1::PRIORITY_HIGH: return engine::Priority::high;
    case v1::PRIORITY_LOW: return engine::Priority::low;
    default: return engine::Priority::normal;
  }
}

v1::JobState state_of(JobStatus s) { return static_cast<v1::JobState>(static_cast<int>(s)); }

std::string priority_label(engine::Priority p) {
  std::string name(engine::priority_name(p));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name;
}

std::shared_ptr<const r1cs::PartitionedCircuit> circuit_of(const v1::PorepInstance& porep) {
  return std::make_shared<r1cs::porep::PorepLikeCircuit>(r1cs::porep::find_preset(porep.preset()), porep.seed(),
                                                         porep.partitions());
}

// The circuit's name as PorepLikeCircuit::name() gives it, without building the circuit.
std::string porep_circuit_name(const v1::PorepInstance& porep) {
  return "porep-like/" + r1cs::porep::find_preset(porep.preset()).name;
}

// A job's end without a proof (failed, cancelled).
JobOutcome unsuccessful(JobStatus status, std::string error) {
  JobOutcome out;
  out.status = status;
  out.error = std::move(error);
  return out;
}

std::uint32_t partitions_of(const v1::SubmitProofRequest& request) {
  return request.has_circom() ? 1 : request.porep().partitions();
}

// A journaled job's state and result as AwaitProof reports it; `done_so_far` is the
// partitions done while it is not finished (all of them once it is).
void fill_from_record(v1::AwaitProofResponse& out, const JobRecord& record, std::uint32_t done_so_far) {
  v1::SubmitProofRequest request;
  request.ParseFromString(record.request);
  out.set_state(state_of(record.status));
  out.set_error(record.error);
  out.set_proof(record.proof);
  out.set_proof_json(record.proof_json);
  out.set_public_json(record.public_json);
  out.mutable_timings()->ParseFromString(record.timings);
  out.set_partitions(partitions_of(request));
  out.set_partitions_done(record.status == JobStatus::done ? partitions_of(request) : done_so_far);
}

std::string default_daemon_name() {
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) != 0) host = {};
  return std::string(host.data()) + ":" + std::to_string(::getpid());
}

ServiceError unavailable(const StoreError& e) { return ServiceError(ErrorKind::unavailable, e.what()); }

}  // namespace

// Partitions each engine request has completed (the progress an await reports).
// Its own lock: the engine calls it with its listener lock held.
class ProvingService::Progress final : public engine::EngineListener {
 public:
  void on_partition_retired(const engine::PartitionTimeline& t) override {
    if (!t.complete()) return;
    std::lock_guard lock(mutex_);
    ++done_[t.request];
  }
  std::size_t done(std::uint64_t request) const {
    std::lock_guard lock(mutex_);
    const auto it = done_.find(request);
    return it == done_.end() ? 0 : it->second;
  }
  void forget(std::uint64_t request) {
    std::lock_guard lock(mutex_);
    done_.erase(request);
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::size_t> done_;
};

// The files a job named, as found when it was submitted: it is proved with these or
// fails (PathPolicy::reopen), whatever the paths name by the time it starts. None for
// a job resumed from the journal, whose paths are checked again when it starts.
struct ProvingService::CheckedFiles {
  std::optional<io::FileIdentity> key;  // the parameter file or .zkey
  std::optional<io::FileIdentity> witness;
};

struct ProvingService::Job {
  std::uint64_t id = 0;
  CheckedFiles checked;
  v1::SubmitProofRequest request;
  engine::Priority priority = engine::Priority::normal;
  JobStatus status = JobStatus::queued;
  std::string error;
  std::string proof;
  v1::Timings timings;
  std::optional<std::uint64_t> engine_id;  // once submitted to the engine
  bool cancel_requested = false;
  // A drain cut it short: it stays queued in the journal for the next start.
  bool interrupted = false;
  Clock::time_point submitted = Clock::now();
  Clock::time_point engine_submitted;
  double engine_submitted_at = 0;  // engine clock
  ParameterResidency::Lease lease;
  // Circom jobs: the witness's public signals, set by synthesis (public.json).
  std::shared_ptr<std::vector<ff::Fr>> public_signals;
  std::string proof_json;
  std::string public_json;
  bool parked = false;  // in parked_, waiting for a loader
};

// A job ready for the engine: its parameters held and its request built
// (synthesize(p) builds partition p of the instance).
struct ProvingService::Prepared {
  ParameterResidency::Lease lease;
  engine::ProofRequest request;
  // Whether partition p's proof verifies: every proof is checked before it is
  // journaled or recorded, as `zkpipe prove` does.
  std::function<bool(std::size_t partition, const groth16::Proof&)> check;
};

// Cluster mode: partitions of one job claimed together and proved as one engine
// request; it holds their leases (in the queue) until recorded or released.
struct ProvingService::ClusterWork {
  std::uint64_t seq = 0;  // key in cluster_work_
  std::uint64_t job = 0;
  std::vector<std::uint32_t> partitions;  // engine partition k is the job's partitions[k]
  ParameterResidency::Lease lease;
  std::shared_ptr<std::vector<ff::Fr>> public_signals;  // circom jobs
  std::optional<std::uint64_t> engine_id;
  bool cancel_requested = false;
};

ProvingService::ProvingService(const ServiceConfig& config, BackendSetup backend)
    : config_(config),
      started_(Clock::now()),
      baseline_rss_(memory::resident_bytes()),
      backend_(std::move(backend)),
      paths_(config.effective_parameter_roots()),
      store_(config.queue.empty() ? std::make_unique<JobStore>(config.data_dir / "jobs.sqlite") : nullptr),
      progress_(std::make_shared<Progress>()) {
  // In cluster mode another daemon may finish a job: the queue is polled for its awaiters.
  awaits_ = std::make_unique<AwaitRegistry>(
      [this](std::uint64_t id, bool expired) { return answer_now(id, expired); },
      config.queue.empty() ? std::nullopt : std::optional<Clock::duration>(std::chrono::milliseconds(100)));
  engine::EngineConfig ec;
  ec.synthesis_workers =
      config.synthesis_workers != 0 ? config.synthesis_workers : std::max(1u, std::thread::hardware_concurrency());
  ec.workers_per_device = config.workers_per_device;
  ec.finalizers = config.finalizers;
  ec.budget_bytes = config.budget_bytes;
  engine_ = std::make_unique<engine::Engine>(ec, backend_.backends);
  engine_->add_listener(progress_);
  residency_ = std::make_unique<ParameterResidency>(*engine_, backend_.tiers, config.param_idle_seconds);
  // A pipeline's worth: every synthesis worker and every device's workers busy, one more
  // waiting; the engine admits them within the budget.
  claim_capacity_ = ec.synthesis_workers + ec.workers_per_device * backend_.backends.size() + 1;

  if (!config.queue.empty()) {
    ClusterOptions options;
    options.url = config.queue;
    options.daemon = config.daemon_name.empty() ? default_daemon_name() : config.daemon_name;
    options.address = config.listen;
    options.lease_seconds = config.lease_seconds;
    options.reconnect_seconds = config.reconnect_seconds;
    cluster_ = std::make_unique<ClusterQueue>(options);
    start_threads();
    return;
  }
  for (const JobRecord& record : store_->unfinished()) {
    v1::SubmitProofRequest request;
    if (!request.ParseFromString(record.request)) {
      store_->finish(record.id, unsuccessful(JobStatus::failed, "the journaled request could not be read"),
                    unix_now());
      continue;
    }
    if (record.status == JobStatus::running && record.attempts >= kMaxAttempts) {
      store_->finish(record.id,
                    unsuccessful(JobStatus::failed, "the daemon stopped " + std::to_string(record.attempts) +
                                                        " times while proving this job"),
                    unix_now());
      continue;
    }
    enqueue(record.id, request, {}, record.submitted_at);
  }
  start_threads();
}

void ProvingService::start_threads() {
  // A thread the system refuses throws std::system_error: those already started are
  // stopped first, for a joinable std::thread destroyed by the unwinding aborts the process.
  try {
    if (cluster_) {
      starter_ = std::thread([this] { claim_loop(); });
      heartbeat_ = std::thread([this] { heartbeat_loop(); });
    } else {
      starter_ = std::thread([this] { starter_loop(); });
    }
    janitor_ = std::thread([this] { janitor_loop(); });
  } catch (...) {
    stop();
    throw;
  }
}

ProvingService::~ProvingService() { stop(); }

void ProvingService::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    draining_ = true;
    // What the engine still runs is cut short, not cancelled: it runs at the next start.
    for (auto& [id, job] : jobs_) job->interrupted = true;
  }
  changed_.notify_all();
  awaits_->notify_all();
  for (std::thread* thread : {&starter_, &janitor_, &heartbeat_}) {
    if (thread->joinable()) thread->join();
  }
  {
    // A loader finishes the load it is in, then leaves its parked jobs queued.
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return loaders_.empty(); });
  }
  join_finished_loaders();
  engine_->shutdown(engine::ShutdownMode::cancel);
}

std::shared_ptr<ProvingService::Job> ProvingService::enqueue(std::uint64_t id, const v1::SubmitProofRequest& request,
                                                             CheckedFiles checked, double submitted_at) {
  auto job = std::make_shared<Job>();
  job->id = id;
  job->checked = std::move(checked);
  // A job recovered after a restart was submitted before this process began.
  job->submitted -= std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::max(0.0, unix_now() - submitted_at)));
  job->request = request;
  job->priority = engine_priority(request.priority());
  {
    std::lock_guard lock(mutex_);
    jobs_[id] = job;
    to_start_.emplace(static_cast<int>(job->priority), id);
    ++counters_.submitted;
  }
  changed_.notify_all();
  return job;
}

ProvingService::CheckedFiles ProvingService::validate(const v1::SubmitProofRequest& request) const {
  auto bad = [](const std::string& why) { return ServiceError(ErrorKind::invalid_argument, why); };
  if (request.label().size() > kMaxLabel) throw bad("label longer than " + std::to_string(kMaxLabel) + " bytes");
  if (!v1::Priority_IsValid(request.priority())) {
    throw bad("unknown priority " + std::to_string(request.priority()));
  }
  if (request.has_circom()) {
    const v1::CircomJob& c = request.circom();
    if (c.zkey().empty()) throw bad("circom job without a zkey");
    if (c.witness().empty()) throw bad("circom job without a witness (.wtns)");
    return {paths_.open(c.zkey())->identity(), paths_.open(c.witness(), "witness file")->identity()};
  }
  if (!request.has_porep()) throw bad("no instance given (porep or circom)");
  const v1::PorepInstance& p = request.porep();
  if (!p.circuit().empty() && p.circuit() != "porep-like") {
    throw bad("unknown circuit '" + formats::excerpt(p.circuit(), 64) + "' (known: porep-like)");
  }
  try {
    r1cs::porep::find_preset(p.preset());
  } catch (const std::invalid_argument& e) {
    throw bad(formats::excerpt(e.what(), 300));
  }
  if (p.partitions() < 1 || p.partitions() > kMaxPartitions) {
    throw bad("partitions must be between 1 and " + std::to_string(kMaxPartitions) + ", not " +
              std::to_string(p.partitions()));
  }
  const auto opened = paths_.open(p.parameter_file());
  const std::filesystem::path key_file = opened->name();
  try {
    // Refused now when the key was read before (cheap: counts cached); otherwise
    // the load checks it before compiling the evaluator.
    residency_->check_shape(key_file, [&] {
      v1::PorepInstance one = p;
      one.set_partitions(1);
      return circuit_of(one);
    });
  } catch (const ShapeMismatch& e) {
    throw bad(formats::excerpt(e.what(), 1000));
  }
  return {opened->identity(), {}};
}

std::uint64_t ProvingService::submit(const v1::SubmitProofRequest& request) {
  CheckedFiles checked = validate(request);
  {
    std::lock_guard lock(mutex_);
    if (draining_) throw ServiceError(ErrorKind::unavailable, "the daemon is shutting down; submit to it after its restart");
    if (jobs_.size() >= config_.max_jobs) {
      throw ServiceError(ErrorKind::resource_exhausted,
                         "the daemon holds " + std::to_string(jobs_.size()) + " unfinished jobs (max_jobs)");
    }
  }
  std::string bytes;
  request.SerializeToString(&bytes);
  if (cluster_) {
    try {
      // Stored as the engine's priority order (critical 0 … low 3): the claim's ORDER BY.
      const std::uint64_t id = cluster_->insert(static_cast<int>(engine_priority(request.priority())), bytes,
                                                partitions_of(request), unix_now());
      {
        std::lock_guard lock(mutex_);
        ++counters_.submitted;
      }
      changed_.notify_all();  // the local claimer asks at once
      return id;
    } catch (const StoreError& e) {
      throw unavailable(e);
    }
  }
  const double now = unix_now();
  const std::uint64_t id = store_->insert(request.priority(), bytes, now);
  enqueue(id, request, std::move(checked), now);
  return id;
}

void ProvingService::starter_loop() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || (!draining_ && !to_start_.empty()); });
      if (stopping_) return;
      const auto next = to_start_.begin();
      job = jobs_.at(next->second);
      to_start_.erase(next);
    }
    auto [key, loaded] = parameters_of(*job);
    if (loaded) {
      start(job);
      continue;
    }
    std::lock_guard lock(mutex_);
    job->parked = true;
    parked_[key].push_back(job);
    if (!loaders_.contains(key)) loaders_.emplace(key, std::thread([this, key] { loader_loop(key); }));
  }
}

std::pair<std::string, bool> ProvingService::parameters_of(const Job& job) const {
  try {
    if (job.request.has_circom()) {
      const std::filesystem::path file = paths_.confine(job.request.circom().zkey());
      return {file.string() + "\n" + kCircomCircuit, residency_->loaded(file, kCircomCircuit)};
    }
    const std::filesystem::path file = paths_.confine(job.request.porep().parameter_file());
    const std::string circuit = porep_circuit_name(job.request.porep());
    return {file.string() + "\n" + circuit, residency_->loaded(file, circuit)};
  } catch (const std::exception&) {
    // start() fails the job at once with the reason: nothing to wait for.
    return {"", true};
  }
}

void ProvingService::loader_loop(const std::string& key) {
  for (;;) {
    std::vector<std::shared_ptr<Job>> jobs;
    {
      std::lock_guard lock(mutex_);
      jobs = std::exchange(parked_[key], {});
      if (jobs.empty()) {
        parked_.erase(key);
        // Joined by the janitor (or the destructor); the thread object may move
        // while the thread still runs.
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

void ProvingService::join_finished_loaders() {
  std::vector<std::thread> done;
  {
    std::lock_guard lock(mutex_);
    done.swap(finished_loaders_);
  }
  for (auto& t : done) t.join();
}

ProvingService::Prepared ProvingService::prepare_porep(const std::shared_ptr<Job>& job) {
  const v1::PorepInstance& porep = job->request.porep();
  const auto circuit = circuit_of(porep);
  const auto key_file = paths_.reopen(porep.parameter_file(), job->checked.key);
  Prepared out{residency_->acquire(key_file, *circuit), {}, {}};
  proving::PreparedRequest prepared =
      proving::preset_request(proving::request_basis(out.lease.parameters(), *backend_.backends.front()), circuit);
  out.request = std::move(prepared.request);
  out.check = std::move(prepared.check);
  return out;
}

ProvingService::Prepared ProvingService::prepare_circom(const std::shared_ptr<Job>& job) {
  const v1::CircomJob& circom = job->request.circom();
  const auto zkey_file = paths_.reopen(circom.zkey(), job->checked.key);
  // Open from now until synthesis reads it: what is read is the file checked.
  const auto witness_file = paths_.reopen(circom.witness(), job->checked.witness, "witness file");
  Prepared out{residency_->acquire_zkey(zkey_file), {}, {}};
  // As `zkpipe groth16 prove`: nothing is returned that does not verify.
  proving::PreparedRequest prepared = proving::circom_request(
      proving::request_basis(out.lease.parameters(), *backend_.backends.front()),
      {.witness = witness_file, .zkey = out.lease.zkey()});
  out.request = std::move(prepared.request);
  out.check = std::move(prepared.check);
  job->public_signals = prepared.public_signals;
  return out;
}

void ProvingService::start(const std::shared_ptr<Job>& job) {
  try {
    Prepared prepared = job->request.has_circom() ? prepare_circom(job) : prepare_porep(job);
    engine::ProofRequest& request = prepared.request;
    request.label = "job " + std::to_string(job->id);
    request.priority = job->priority;
    request.verify = [check = prepared.check](std::span<const groth16::Proof> proofs) {
      for (std::size_t p = 0; p < proofs.size(); ++p) {
        if (!check(p, proofs[p])) return false;
      }
      return true;
    };
    // The journal counts an attempt when the first partition starts synthesis, not
    // when the job enters the engine's queue: only a job that was really being
    // proved when the daemon died may be the one that kills it.
    auto attempted = std::make_shared<std::atomic<bool>>(false);
    request.synthesize = [this, id = job->id, attempted, synthesize = std::move(request.synthesize)](std::size_t p) {
      if (!attempted->exchange(true)) store_->mark_running(id);
      return synthesize(p);
    };
    request.on_complete = [this, job](const std::shared_future<engine::ProofResult>& result) {
      completed(job, result);
    };
    const double load_seconds = prepared.lease.load_seconds();
    {
      std::lock_guard lock(mutex_);
      if (job->cancel_requested) {
        finish_locked(*job, unsuccessful(JobStatus::cancelled, "cancelled by the client"), {});
        return;
      }
      if (draining_) {
        // Not started: it stays queued in the journal for the next start.
        job->interrupted = true;
        changed_.notify_all();
        awaits_->notify(job->id);
        return;
      }
      job->lease = std::move(prepared.lease);
      job->timings.set_parameter_load(load_seconds);
      job->engine_submitted = Clock::now();
      job->engine_submitted_at = engine_->now();
      job->status = JobStatus::running;
    }
    const engine::ProofTicket ticket = engine_->submit(std::move(request));
    bool cancel_now = false;
    {
      std::lock_guard lock(mutex_);
      job->engine_id = ticket.id();
      cancel_now = job->cancel_requested;
    }
    changed_.notify_all();
    if (cancel_now) engine_->cancel(ticket.id());
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex_);
    finish_locked(*job, unsuccessful(JobStatus::failed, formats::excerpt(e.what(), 2000)), {});
  }
}

void ProvingService::completed(const std::shared_ptr<Job>& job, const std::shared_future<engine::ProofResult>& result) {
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
    outcome.error = "cancelled by the client";
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
      store_->requeue(job->id);
    } catch (const StoreError& e) {
      std::cerr << "zkpipe serve: " << e.what() << "\n";
    }
    job->lease.release();
    if (job->engine_id) progress_->forget(*job->engine_id);
    changed_.notify_all();
    awaits_->notify(job->id);
    return;
  }
  finish_locked(*job, std::move(outcome), timings);
}

void ProvingService::finish_locked(Job& job, JobOutcome outcome, const v1::Timings& timings) {
  if (is_final(job.status)) return;
  const JobStatus status = outcome.status;
  job.status = status;
  job.error = outcome.error;
  job.proof = outcome.proof;
  job.proof_json = outcome.proof_json;
  job.public_json = outcome.public_json;
  job.timings = timings;
  job.timings.set_total(seconds(Clock::now() - job.submitted));
  job.timings.SerializeToString(&outcome.timings);
  try {
    store_->finish(job.id, outcome, unix_now());
  } catch (const StoreError& e) {
    // The awaiters still get the result; only a restart would not know it.
    std::cerr << "zkpipe serve: job " << job.id << ": " << e.what() << "\n";
  }
  switch (status) {
    case JobStatus::done:
      ++counters_.done;
      latency_.observe(job.timings.total());
      break;
    case JobStatus::failed: ++counters_.failed; break;
    default: ++counters_.cancelled; break;
  }
  job.lease.release();
  job.public_signals.reset();
  if (job.engine_id) progress_->forget(*job.engine_id);
  awaits_->resolve(job.id, response_locked(job));
  to_start_.erase({static_cast<int>(job.priority), job.id});
  jobs_.erase(job.id);
  changed_.notify_all();
}

JobRecord ProvingService::journaled(std::uint64_t id) const {
  auto record = store_->get(id);
  if (!record) throw ServiceError(ErrorKind::not_found, "no job " + std::to_string(id));
  return std::move(*record);
}

v1::AwaitProofResponse ProvingService::response_locked(const Job& job) const {
  v1::AwaitProofResponse out;
  out.set_job_id(job.id);
  out.set_state(state_of(job.status));
  out.set_error(job.error);
  out.set_proof(job.proof);
  out.set_proof_json(job.proof_json);
  out.set_public_json(job.public_json);
  *out.mutable_timings() = job.timings;
  out.set_partitions(partitions_of(job.request));
  out.set_partitions_done(job.status == JobStatus::done ? partitions_of(job.request)
                          : job.engine_id                ? progress_->done(*job.engine_id)
                                                         : 0);
  return out;
}

std::optional<AwaitAnswer> ProvingService::answer_now(std::uint64_t id, bool expired) const {
  v1::AwaitProofResponse out;
  out.set_job_id(id);
  if (cluster_) {
    try {
      const std::optional<JobRecord> record = cluster_->get(id);
      if (!record) throw ServiceError(ErrorKind::not_found, "no job " + std::to_string(id));
      if (!is_final(record->status) && !expired && !draining()) return std::nullopt;
      fill_from_record(out, *record, cluster_->partitions_done(id));
      return out;
    } catch (const StoreError& e) {
      throw unavailable(e);
    }
  }
  std::unique_lock lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) {
    lock.unlock();
    fill_from_record(out, journaled(id), 0);
    return out;
  }
  const Job& job = *it->second;
  if (!is_final(job.status) && (job.interrupted || (draining_ && !job.engine_id))) {
    throw ServiceError(ErrorKind::unavailable, "the daemon is shutting down; job " + std::to_string(id) +
                                                   " stays queued and runs at its next start");
  }
  if (!is_final(job.status) && !expired) return std::nullopt;
  return response_locked(job);
}

std::optional<AwaitRegistry::Ticket> ProvingService::await_async(std::uint64_t id,
                                                                 std::optional<std::chrono::milliseconds> wait,
                                                                 AwaitRegistry::Callback done) {
  const Clock::time_point deadline =
      wait ? Clock::now() + std::min<Clock::duration>(*wait, kMaxAwait) : Clock::time_point::max();
  std::optional<AwaitAnswer> now;
  try {
    now = answer_now(id, Clock::now() >= deadline);
  } catch (const ServiceError& e) {
    now = e;
  }
  if (now) {
    done(std::move(*now));
    return std::nullopt;
  }
  // A job that finishes between the check and the registration is checked again by add().
  return awaits_->add(id, deadline, std::move(done));
}

bool ProvingService::cancel_await(AwaitRegistry::Ticket ticket) { return awaits_->remove(ticket); }

v1::AwaitProofResponse ProvingService::await(std::uint64_t id, std::chrono::milliseconds wait) {
  auto answer = std::make_shared<std::promise<AwaitAnswer>>();
  std::future<AwaitAnswer> answered = answer->get_future();
  await_async(id, wait, [answer](AwaitAnswer a) { answer->set_value(std::move(a)); });
  AwaitAnswer a = answered.get();
  if (const auto* error = std::get_if<ServiceError>(&a)) throw *error;
  return std::get<v1::AwaitProofResponse>(std::move(a));
}

v1::JobState ProvingService::cancel(std::uint64_t id) {
  if (cluster_) {
    std::optional<JobStatus> state;
    try {
      state = cluster_->end(id, unsuccessful(JobStatus::cancelled, "cancelled by the client"), unix_now());
    } catch (const StoreError& e) {
      throw unavailable(e);
    }
    if (!state) throw ServiceError(ErrorKind::not_found, "no job " + std::to_string(id));
    // This daemon's part stops now; other daemons notice at their next heartbeat.
    std::vector<std::uint64_t> engine_ids;
    {
      std::lock_guard lock(mutex_);
      if (*state == JobStatus::cancelled) ++counters_.cancelled;
      for (auto& [seq, work] : cluster_work_) {
        if (work->job != id) continue;
        work->cancel_requested = true;
        if (work->engine_id) engine_ids.push_back(*work->engine_id);
      }
    }
    for (const auto e : engine_ids) engine_->cancel(e);
    return state_of(*state);
  }
  std::unique_lock lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) {
    lock.unlock();
    return state_of(journaled(id).status);
  }
  const std::shared_ptr<Job> job = it->second;
  if (to_start_.contains({static_cast<int>(job->priority), id})) {
    finish_locked(*job, unsuccessful(JobStatus::cancelled, "cancelled by the client"), {});
    return v1::JOB_STATE_CANCELLED;
  }
  if (job->parked) {
    // Waiting for another job's parameter load: nothing held yet.
    for (auto& [key, jobs] : parked_) std::erase(jobs, job);
    job->parked = false;
    finish_locked(*job, unsuccessful(JobStatus::cancelled, "cancelled by the client"), {});
    return v1::JOB_STATE_CANCELLED;
  }
  // Being started (the starter sees the flag) or in the engine.
  job->cancel_requested = true;
  const std::optional<std::uint64_t> engine_id = job->engine_id;
  lock.unlock();
  if (engine_id) engine_->cancel(*engine_id);
  lock.lock();
  // The engine retires the job's partitions (freeing their buffers) before it
  // completes the request: once final, nothing of the job is held.
  changed_.wait(lock, [&] { return is_final(job->status) || job->interrupted; });
  return state_of(job->status);
}

v1::LedgerSnapshot ProvingService::ledger_snapshot() const {
  const memory::LedgerSnapshot s = engine_->ledger().snapshot();
  const std::size_t rss = memory::resident_bytes();
  v1::LedgerSnapshot out;
  for (const memory::Stage stage : memory::kAllStages) {
    auto* row = out.add_stages();
    row->set_stage(std::string(memory::stage_name(stage)));
    row->set_count(s[stage].count);
    row->set_bytes(s[stage].bytes);
    row->set_peak_bytes(s[stage].peak_bytes);
  }
  out.set_tracked_bytes(s.tracked);
  out.set_peak_tracked_bytes(s.peak_tracked);
  out.set_rss_bytes(rss);
  out.set_untracked_bytes(static_cast<std::int64_t>(rss) - static_cast<std::int64_t>(baseline_rss_) -
                          static_cast<std::int64_t>(s.tracked));
  return out;
}

v1::GetStatusResponse ProvingService::status() const {
  v1::GetStatusResponse out;
  *out.mutable_ledger() = ledger_snapshot();
  // The engine charges one ledger entry per partition for its witness in each
  // partition stage: the entries are the partitions.
  for (const auto& s : out.ledger().stages()) {
    if (s.stage() == memory::stage_name(memory::Stage::parameters)) break;
    auto* row = out.add_partitions();
    row->set_stage(s.stage());
    row->set_partitions(static_cast<std::uint32_t>(s.count()));
  }
  for (const ResidentInfo& r : residency_->list()) {
    auto* row = out.add_parameters();
    row->set_parameter_file(r.file.string());
    row->set_tier(r.tier);
    row->set_bytes(r.bytes);
    row->set_in_use(static_cast<std::uint32_t>(r.in_use));
    row->set_idle_seconds(r.idle_seconds);
  }
  const std::vector<engine::DeviceStatus> devices = engine_->device_status();
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const engine::DeviceStatus& device = devices[d];
    auto* row = out.add_devices();
    row->set_index(static_cast<std::uint32_t>(d));
    row->set_backend(device.backend);
    row->set_busy_seconds(device.measured_busy_seconds.value_or(device.busy_seconds));
    if (device.ordinal) row->set_ordinal(*device.ordinal);
    row->set_healthy(device.healthy);
    row->set_failure(device.failure);
    row->set_partitions_proved(device.partitions_proved);
    row->set_partitions_reassigned(device.partitions_reassigned);
    row->set_memory_bytes(device.memory.bytes);
    row->set_peak_memory_bytes(device.memory.peak_bytes);
  }
  out.set_budget_bytes(engine_->budget_bytes());
  out.set_uptime_seconds(seconds(Clock::now() - started_));
  // Asked before mutex_ is taken: the database may be slow or reconnecting.
  std::optional<ClusterStatus> cluster;
  if (cluster_) {
    try {
      cluster = cluster_->status();
    } catch (const StoreError& e) {
      throw unavailable(e);
    }
  }
  std::array<std::uint32_t, 4> depth{};
  std::lock_guard lock(mutex_);
  for (const auto& [id, job] : jobs_) ++depth[static_cast<std::size_t>(job->priority)];
  for (std::size_t p = 0; p < depth.size(); ++p) {
    auto* row = out.add_queue();
    row->set_priority(priority_label(static_cast<engine::Priority>(p)));
    row->set_jobs(depth[p]);
  }
  if (cluster) {
    // The whole queue's depth, not this daemon's share.
    out.clear_queue();
    std::array<std::uint64_t, 4> jobs{};
    for (const auto& [priority, n] : cluster->queue) {
      if (priority >= 0 && priority < 4) jobs[static_cast<std::size_t>(priority)] = n;
    }
    for (std::size_t p = 0; p < jobs.size(); ++p) {
      auto* row = out.add_queue();
      row->set_priority(priority_label(static_cast<engine::Priority>(p)));
      row->set_jobs(static_cast<std::uint32_t>(jobs[p]));
    }
    auto* c = out.mutable_cluster();
    c->set_daemon(cluster_->options().daemon);
    c->set_queued_partitions(cluster->queued_partitions);
    c->set_leased_partitions(cluster->leased);
    c->set_reclaimed_partitions(cluster->reclaimed);
    for (const ClusterDaemonInfo& d : cluster->daemons) {
      auto* row = c->add_daemons();
      row->set_name(d.name);
      row->set_address(d.address);
      row->set_heartbeat_age_seconds(d.heartbeat_age);
      row->set_leases(d.leases);
      row->set_partitions_proved(d.partitions_proved);
    }
  }
  out.set_jobs_done(counters_.done);
  out.set_jobs_failed(counters_.failed);
  out.set_jobs_cancelled(counters_.cancelled);
  out.set_draining(draining_);
  return out;
}

std::string ProvingService::metrics() const {
  const v1::GetStatusResponse s = status();
  JobCounters counters;
  {
    std::lock_guard lock(mutex_);
    counters = counters_;
  }
  return render_metrics(s, counters, latency_);
}

v1::PreloadParamsResponse ProvingService::preload(const v1::PreloadParamsRequest& request) {
  const bool circom = request.circuit() == kCircomCircuit;
  if (!circom && !request.circuit().empty() && request.circuit() != "porep-like") {
    throw ServiceError(ErrorKind::invalid_argument,
                       "unknown circuit '" + formats::excerpt(request.circuit(), 64) + "' (known: porep-like, circom)");
  }
  if (circom && !request.preset().empty()) {
    throw ServiceError(ErrorKind::invalid_argument, "a circom .zkey has no preset: the key is the circuit");
  }
  if (!circom && request.preset().empty()) {
    throw ServiceError(ErrorKind::invalid_argument, "preset is required: the circuit the parameters were set up for");
  }
  std::shared_ptr<const r1cs::PartitionedCircuit> circuit;
  if (!circom) {
    v1::PorepInstance porep;
    porep.set_preset(request.preset());
    porep.set_partitions(1);
    try {
      circuit = circuit_of(porep);
    } catch (const std::invalid_argument& e) {
      throw ServiceError(ErrorKind::invalid_argument, formats::excerpt(e.what(), 300));
    }
  }
  const auto opened = paths_.open(request.parameter_file());
  const std::filesystem::path file = opened->name();
  const std::string circuit_name = circom ? std::string(kCircomCircuit) : circuit->name();
  ParameterResidency::Lease lease;
  try {
    lease = circom ? residency_->acquire_zkey(opened) : residency_->acquire(opened, *circuit);
  } catch (const ParametersDoNotFit& e) {
    throw ServiceError(ErrorKind::resource_exhausted, e.what());
  } catch (const std::exception& e) {
    throw ServiceError(ErrorKind::invalid_argument, formats::excerpt(e.what(), 2000));
  }
  v1::PreloadParamsResponse out;
  out.set_load_seconds(lease.load_seconds());
  lease.release();
  for (const ResidentInfo& r : residency_->list()) {
    if (r.file != file || r.circuit != circuit_name) continue;
    auto* p = out.mutable_parameters();
    p->set_parameter_file(r.file.string());
    p->set_tier(r.tier);
    p->set_bytes(r.bytes);
    p->set_in_use(static_cast<std::uint32_t>(r.in_use));
  }
  return out;
}

std::uint64_t ProvingService::evict(const std::string& parameter_file) {
  const std::filesystem::path file = paths_.confine(parameter_file);
  try {
    return residency_->evict(file);
  } catch (const ParametersInUse& e) {
    throw ServiceError(ErrorKind::failed_precondition, e.what());
  }
}

void ProvingService::pause() { engine_->pause(); }
void ProvingService::resume() { engine_->resume(); }

bool ProvingService::draining() const {
  std::lock_guard lock(mutex_);
  return draining_;
}

std::size_t ProvingService::drain(std::chrono::duration<double> deadline) {
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(deadline);
  if (cluster_) {
    // No more claims; what runs past the deadline is cancelled, and its leases are
    // given back (claimed_done) so that another daemon takes them at once.
    std::unique_lock lock(mutex_);
    draining_ = true;
    changed_.notify_all();
    awaits_->notify_all();
    changed_.wait_until(lock, until, [&] { return cluster_work_.empty(); });
    std::vector<std::uint64_t> late;
    for (auto& [seq, work] : cluster_work_) {
      work->cancel_requested = true;
      if (work->engine_id) late.push_back(*work->engine_id);
    }
    const std::size_t cut = cluster_work_.size();
    lock.unlock();
    for (const auto id : late) engine_->cancel(id);
    lock.lock();
    changed_.wait(lock, [&] { return cluster_work_.empty(); });
    return cut;
  }
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
  awaits_->notify_all();
  // The starter may be loading parameters for one more job: it sees draining_ and
  // leaves it queued.
  changed_.wait_until(lock, until, [&] { return running().empty(); });
  const auto late = running();
  for (const auto& job : late) job->interrupted = true;
  awaits_->notify_all();
  lock.unlock();
  for (const auto& job : late) engine_->cancel(*job->engine_id);
  lock.lock();
  changed_.wait(lock, [&] {
    return std::all_of(late.begin(), late.end(), [&](const auto& job) { return !jobs_.contains(job->id) || !job->lease.parameters(); });
  });
  return late.size();
}

void ProvingService::janitor_loop() {
  auto next_purge = Clock::now();
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    changed_.wait_for(lock, std::chrono::seconds(1));
    if (stopping_) break;
    lock.unlock();
    join_finished_loaders();
    residency_->evict_idle();
    if (Clock::now() >= next_purge) {
      try {
        if (cluster_) {
          cluster_->purge_finished_before(unix_now() - config_.keep_results_seconds);
        } else {
          store_->purge_finished_before(unix_now() - config_.keep_results_seconds);
        }
      } catch (const StoreError& e) {
        std::cerr << "zkpipe serve: " << e.what() << "\n";
      }
      next_purge = Clock::now() + std::chrono::minutes(10);
    }
    lock.lock();
  }
}

// ---- Cluster mode -------------------------------------------------------------

void ProvingService::claim_loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (draining_) {
      changed_.wait(lock);
      continue;
    }
    const std::size_t room = claim_capacity_ > cluster_partitions_ ? claim_capacity_ - cluster_partitions_ : 0;
    const std::vector<std::uint64_t> skip = cannot_serve_;
    lock.unlock();
    std::vector<ClaimedPartition> claimed;
    try {
      claimed = cluster_->claim(room, skip);
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
      changed_.wait_for(lock, std::chrono::duration<double>(config_.poll_seconds));
    }
  }
}

void ProvingService::start_claimed(const std::vector<ClaimedPartition>& batch) {
  auto work = std::make_shared<ClusterWork>();
  work->job = batch.front().job;
  for (const auto& p : batch) work->partitions.push_back(p.partition);
  auto give_back = [&](bool never_again) {
    try {
      cluster_->release(work->job, work->partitions);
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
      cluster_->end(work->job, unsuccessful(JobStatus::failed, formats::excerpt(why, 2000)), unix_now());
    } catch (const StoreError& e) {
      std::cerr << "zkpipe serve: " << e.what() << "\n";
    }
  };

  auto job = std::make_shared<Job>();
  job->id = work->job;
  if (!job->request.ParseFromString(batch.front().request)) {
    fail_job("the queued request could not be read");
    return;
  }
  job->priority = static_cast<engine::Priority>(std::clamp(batch.front().priority, 0, 3));
  Prepared prepared;
  try {
    prepared = job->request.has_circom() ? prepare_circom(job) : prepare_porep(job);
  } catch (const ServiceError& e) {
    // A file this daemon cannot reach (outside its roots, missing here): another may.
    std::cerr << "zkpipe serve: job " << work->job << " left to other daemons: " << e.what() << "\n";
    give_back(true);
    return;
  } catch (const ParametersDoNotFit& e) {
    std::cerr << "zkpipe serve: job " << work->job << " left to other daemons: " << e.what() << "\n";
    give_back(true);
    return;
  } catch (const std::exception& e) {
    fail_job(e.what());  // the job's own files are bad: no daemon would do better
    return;
  }
  work->lease = std::move(prepared.lease);
  work->public_signals = job->public_signals;
  engine::ProofRequest& request = prepared.request;
  request.label = "job " + std::to_string(work->job) + " partitions " + std::to_string(work->partitions.front()) +
                  ".." + std::to_string(work->partitions.back());
  request.priority = job->priority;
  request.partitions = work->partitions.size();
  request.synthesize = [synthesize = std::move(request.synthesize), indices = work->partitions](std::size_t k) {
    return synthesize(indices[k]);
  };
  request.verify = [check = prepared.check, indices = work->partitions](std::span<const groth16::Proof> proofs) {
    for (std::size_t k = 0; k < proofs.size(); ++k) {
      if (!check(indices[k], proofs[k])) return false;
    }
    return true;
  };
  request.on_complete = [this, work](const std::shared_future<engine::ProofResult>& result) {
    claimed_done(work, result);
  };
  {
    std::lock_guard lock(mutex_);
    work->seq = next_work_++;
    cluster_work_.emplace(work->seq, work);
    cluster_partitions_ += work->partitions.size();
  }
  try {
    const engine::ProofTicket ticket = engine_->submit(std::move(request));
    bool cancel_now = false;
    bool completed = false;
    {
      std::lock_guard lock(mutex_);
      work->engine_id = ticket.id();
      cancel_now = work->cancel_requested;
      completed = !cluster_work_.contains(work->seq);
    }
    if (cancel_now) engine_->cancel(ticket.id());
    // Completed before its id was known here: claimed_done could not forget it.
    if (completed) progress_->forget(ticket.id());
  } catch (const std::exception& e) {
    {
      std::lock_guard lock(mutex_);
      cluster_work_.erase(work->seq);
      cluster_partitions_ -= work->partitions.size();
    }
    work->lease.release();
    // A partition larger than this daemon's whole budget: another daemon's may hold it.
    std::cerr << "zkpipe serve: job " << work->job << " left to other daemons: " << e.what() << "\n";
    give_back(true);
  }
}

void ProvingService::claimed_done(const std::shared_ptr<ClusterWork>& work,
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
  if (auto damage = work->lease.damage(); damage && !cancelled) failure = std::move(damage);  // as completed()
  std::size_t recorded = 0;
  try {
    if (cancelled) {
      // A drain or a cancelled job: the leases go back (a cancelled job is never claimed).
      cluster_->release(work->job, work->partitions);
    } else if (failure) {
      // Synthesis failed or a proof did not verify: the job's own inputs are at fault.
      cluster_->end(work->job, unsuccessful(JobStatus::failed, formats::excerpt(*failure, 2000)), unix_now());
    } else {
      const std::string public_json = work->public_signals ? formats::public_to_json(*work->public_signals) : "";
      for (std::size_t k = 0; k < proofs.size(); ++k) {
        // False when the lease was lost (this daemon stalled past it and another
        // daemon took the partition): its proof is the one that counts.
        if (cluster_->record(work->job, work->partitions[k], proofs[k], public_json)) ++recorded;
      }
    }
  } catch (const StoreError& e) {
    // The leases expire and another daemon proves these partitions again.
    std::cerr << "zkpipe serve: job " << work->job << ": " << e.what() << "\n";
  }
  if (recorded != 0) try_assemble(work->job);
  work->lease.release();
  std::lock_guard lock(mutex_);
  if (work->engine_id) progress_->forget(*work->engine_id);
  cluster_work_.erase(work->seq);
  cluster_partitions_ -= work->partitions.size();
  changed_.notify_all();
}

void ProvingService::try_assemble(std::uint64_t job) {
  try {
    JobOutcome outcome;
    const bool assembled = cluster_->assemble(
        job,
        [&](const JobRecord& record, const std::vector<ProvedPartition>& partitions) {
          outcome = assemble(record, partitions);
          return outcome;
        },
        unix_now());
    if (!assembled) return;
    v1::Timings timings;
    timings.ParseFromString(outcome.timings);
    std::lock_guard lock(mutex_);
    if (outcome.status == JobStatus::done) {
      ++counters_.done;
      latency_.observe(timings.total());
    } else {
      ++counters_.failed;
    }
  } catch (const StoreError& e) {
    std::cerr << "zkpipe serve: assembling job " << job << ": " << e.what() << "\n";
  }
}

JobOutcome ProvingService::assemble(const JobRecord& job, const std::vector<ProvedPartition>& partitions) {
  JobOutcome out;
  try {
    v1::SubmitProofRequest request;
    if (!request.ParseFromString(job.request)) throw std::runtime_error("the queued request could not be read");
    if (partitions.size() != partitions_of(request)) {
      throw std::runtime_error(std::to_string(partitions.size()) + " partitions recorded for a job of " +
                               std::to_string(partitions_of(request)));
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
    bool ok = true;
    if (request.has_circom()) {
      const ParameterResidency::Lease lease = residency_->acquire_zkey(paths_.open(request.circom().zkey()));
      const auto inputs = formats::public_from_json(partitions.front().public_json, "the recorded public.json");
      ok = groth16::verify(groth16::PreparedVerifyingKey(lease.parameters()->key().vk), proofs.front(), inputs);
      out.proof_json = formats::proof_to_json(proofs.front());
      out.public_json = partitions.front().public_json;
    } else {
      const auto circuit = circuit_of(request.porep());
      const ParameterResidency::Lease lease =
          residency_->acquire(paths_.open(request.porep().parameter_file()), *circuit);
      const groth16::PreparedVerifyingKey pvk(lease.parameters()->key().vk);
      for (std::size_t p = 0; p < proofs.size() && ok; ++p) {
        ok = groth16::verify(pvk, proofs[p], circuit->public_inputs(p));
      }
    }
    if (!ok) throw std::runtime_error("the assembled proof does not verify");
    out.status = JobStatus::done;
  } catch (const std::exception& e) {
    out = unsuccessful(JobStatus::failed, formats::excerpt(e.what(), 2000));
  }
  v1::Timings timings;
  timings.set_total(std::max(0.0, unix_now() - job.submitted_at));
  timings.SerializeToString(&out.timings);
  return out;
}

void ProvingService::heartbeat_loop() {
  auto next_sweep = Clock::now();
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    changed_.wait_for(lock, std::chrono::duration<double>(config_.heartbeat_seconds), [&] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    try {
      const std::vector<std::uint64_t> ended = cluster_->heartbeat();
      std::vector<std::uint64_t> engine_ids;
      {
        std::lock_guard guard(mutex_);
        for (auto& [seq, work] : cluster_work_) {
          if (std::find(ended.begin(), ended.end(), work->job) == ended.end()) continue;
          work->cancel_requested = true;
          if (work->engine_id) engine_ids.push_back(*work->engine_id);
        }
      }
      for (const auto id : engine_ids) engine_->cancel(id);
      // Jobs whose last partition was recorded by a daemon that died before
      // assembling them.
      if (Clock::now() >= next_sweep) {
        for (const std::uint64_t job : cluster_->unassembled()) try_assemble(job);
        next_sweep = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(config_.lease_seconds));
      }
    } catch (const StoreError& e) {
      std::cerr << "zkpipe serve: heartbeat: " << e.what() << "\n";
    }
    lock.lock();
  }
}

}  // namespace zkpipe::service
