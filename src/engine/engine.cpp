#include "engine/engine.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <system_error>

#include <tbb/task_arena.h>

#include "engine/device_assignment.hpp"
#include "memory/process_memory.hpp"

namespace zkpipe::engine {

struct Engine::Request {
  std::uint64_t id = 0;
  ProofRequest spec;
  double submitted = 0;
  std::promise<ProofResult> promise;
  std::shared_future<ProofResult> future = promise.get_future().share();
  std::atomic<bool> aborted{false};

  std::mutex mutex;
  std::exception_ptr error;
  std::vector<std::optional<groth16::Proof>> proofs;
  std::vector<PartitionTimeline> timelines;
  std::size_t retired = 0;
};

// Everything one partition owns on its way through the pipeline. The charge is
// declared after the reservation so that it is released first.
struct Engine::Partition {
  std::shared_ptr<Request> request;
  std::size_t index = 0;
  std::size_t device = 0;
  Admission::Reservation reservation;
  BufferLedger::Charge charge;
  groth16::PartitionWitness witness;  // until start() takes it
  std::unique_ptr<groth16::PendingProof> pending;
  // The pending proof's, held from start() to the dealloc thread so that it is
  // freed there, whoever lets go of it last otherwise.
  std::shared_ptr<const groth16::Assignment> assignment;
  std::optional<groth16::Proof> proof;
  PartitionTimeline timeline;
  // Its device failed under it: once freed it goes back to admission, not to retirement.
  bool requeue = false;

  Partition(std::shared_ptr<Request> r, std::size_t i, Admission::Reservation res)
      : request(std::move(r)), index(i), reservation(std::move(res)) {
    timeline.request = request->id;
    timeline.partition = index;
    timeline.partitions = request->spec.partitions;
  }
  const groth16::PartitionFootprint& footprint() const { return request->spec.footprint; }
};

namespace {

// The message of the exception in flight.
std::string in_flight_message() {
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

// The exception in flight, as a RequestFailed that names the partition and step.
std::exception_ptr failure(std::uint64_t request, std::size_t partition, std::size_t partitions,
                           std::string_view step) {
  return std::make_exception_ptr(RequestFailed("request " + std::to_string(request) + ": partition " +
                                               std::to_string(partition + 1) + "/" + std::to_string(partitions) +
                                               " failed in " + std::string(step) + ": " + in_flight_message()));
}

std::size_t default_budget() {
  const std::size_t available = memory::usable_memory().bytes;
  return available == 0 ? std::numeric_limits<std::size_t>::max() : available;
}

}  // namespace

std::string_view policy_name(PermitPolicy policy) {
  switch (policy) {
    case PermitPolicy::early: return "early";
    case PermitPolicy::after_send: return "after-send";
    case PermitPolicy::budget: return "budget";
  }
  return "?";
}

std::optional<PermitPolicy> parse_policy(std::string_view text) {
  for (PermitPolicy p : {PermitPolicy::early, PermitPolicy::after_send, PermitPolicy::budget}) {
    if (policy_name(p) == text) return p;
  }
  return std::nullopt;
}

void ProofTicket::cancel() const { engine_->cancel(id_); }

Engine::Engine(const EngineConfig& config, std::vector<std::shared_ptr<groth16::ProverBackend>> devices)
    : config_(config),
      ledger_(config.ledger != nullptr ? *config.ledger : BufferLedger::process()),
      backends_(std::move(devices)),
      epoch_(std::chrono::steady_clock::now()),
      admission_(Admission::create(config.budget_bytes != 0 ? config.budget_bytes : default_budget())),
      channel_(config.channel_capacity) {
  if (backends_.empty() || std::ranges::any_of(backends_, [](const auto& b) { return b == nullptr; })) {
    throw std::invalid_argument("the engine needs one prover backend per device");
  }
  if (backends_.size() > kMaxDevices) {
    throw std::invalid_argument(std::to_string(backends_.size()) + " devices: at most " + std::to_string(kMaxDevices));
  }
  if (std::ranges::any_of(backends_, [this](const auto& b) { return b->ledger() != nullptr && b->ledger() != &ledger_; })) {
    throw std::invalid_argument("a prover backend charges another ledger than the engine's (EngineConfig::ledger)");
  }
  if (config.synthesis_workers == 0 || config.workers_per_device == 0 || config.finalizers == 0) {
    throw std::invalid_argument("the engine needs at least one synthesis, device and finalizer worker");
  }
  if (config.synthesis_workers > kMaxWorkers || config.workers_per_device > kMaxWorkers ||
      config.finalizers > kMaxWorkers) {
    throw std::invalid_argument("at most " + std::to_string(kMaxWorkers) +
                                " synthesis, device or finalizer workers each (got " +
                                std::to_string(config.synthesis_workers) + ", " +
                                std::to_string(config.workers_per_device) + ", " + std::to_string(config.finalizers) + ")");
  }
  if (config.channel_capacity > kMaxChannelCapacity) {
    throw std::invalid_argument("channel capacity " + std::to_string(config.channel_capacity) + " above the limit of " +
                                std::to_string(kMaxChannelCapacity));
  }
  if (config.start_paused) admission_->pause();
  for (std::size_t d = 0; d < backends_.size(); ++d) {
    device_mutex_.push_back(std::make_unique<std::mutex>());
    device_activity_.push_back(std::make_unique<DeviceActivity>());
    device_health_.push_back(std::make_unique<DeviceHealth>());
  }
  const std::size_t thread_count =
      config.synthesis_workers + backends_.size() * config.workers_per_device + config.finalizers + 2;
  threads_.reserve(thread_count);
  // A thread the system refuses (its thread or memory limit) throws std::system_error.
  // Those already started are stopped and joined first: a joinable std::thread destroyed
  // by the unwinding would abort the process.
  try {
    for (std::size_t i = 0; i < config.synthesis_workers; ++i) threads_.emplace_back([this] { synthesis_loop(); });
    for (std::size_t d = 0; d < backends_.size(); ++d) {
      for (std::size_t i = 0; i < config.workers_per_device; ++i) {
        threads_.emplace_back([this, d] { device_loop(d); });
      }
    }
    for (std::size_t i = 0; i < config.finalizers; ++i) threads_.emplace_back([this] { finalize_loop(); });
    threads_.emplace_back([this] { dealloc_loop(); });
    threads_.emplace_back([this] { completion_loop(); });
  } catch (const std::system_error& e) {
    const std::size_t started = threads_.size();
    shutdown(ShutdownMode::cancel);
    throw std::system_error(e.code(), "the engine could start only " + std::to_string(started) + " of its " +
                                          std::to_string(thread_count) + " threads (a thread or memory limit?)");
  } catch (...) {
    shutdown(ShutdownMode::cancel);
    throw;
  }
  // Under the lock hook() reads them with (no hook can fire yet: nothing is submitted).
  std::lock_guard lock(listeners_mutex_);
  for (std::thread& t : threads_) {
    if (const auto stack = memory::thread_stack(t.native_handle())) thread_stacks_.push_back(*stack);
  }
}

Engine::~Engine() { shutdown(ShutdownMode::cancel); }

double Engine::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

std::vector<double> Engine::device_busy_seconds() const {
  std::vector<double> busy;
  for (const auto& activity : device_activity_) busy.push_back(activity->busy_seconds());
  return busy;
}

std::vector<DeviceStatus> Engine::device_status() const {
  const LedgerSnapshot ledger = ledger_.snapshot();
  std::vector<DeviceStatus> out;
  for (std::size_t d = 0; d < backends_.size(); ++d) {
    const groth16::ProverBackend& backend = *backends_[d];
    const DeviceHealth& health = *device_health_[d];
    DeviceStatus status;
    status.backend = backend.name();
    status.ordinal = backend.device_ordinal();
    status.healthy = health.healthy();
    status.failure = health.failure();
    status.busy_seconds = device_activity_[d]->busy_seconds();
    status.measured_busy_seconds = backend.device_busy_seconds();
    status.partitions_proved = health.proved();
    status.partitions_reassigned = health.reassigned();
    if (status.ordinal) status.memory = ledger.device(static_cast<std::size_t>(*status.ordinal));
    status.placement = backend.placement();
    status.driver_total_bytes = backend.device_memory_total();
    status.driver_used_bytes = backend.device_memory_used();
    out.push_back(std::move(status));
  }
  return out;
}

void Engine::add_listener(std::shared_ptr<EngineListener> listener) {
  std::lock_guard lock(listeners_mutex_);
  listeners_.push_back(std::move(listener));
}

std::shared_ptr<const ResidentParameters> Engine::make_resident(std::shared_ptr<const groth16::ProvingKey> key,
                                                                std::shared_ptr<const r1cs::CompiledR1cs> evaluator,
                                                                std::size_t companion_bytes) {
  const std::size_t bytes = parameter_bytes(*key) + (evaluator ? evaluator_bytes(*evaluator) : 0) + companion_bytes;
  Admission::Reservation reservation = admission_->reserve_pinned(bytes);
  std::vector<memory::AddressRange> mapped = file_mapped_ranges(*key);
  if (evaluator) {
    const auto evaluator_mapped = file_mapped_ranges(*evaluator);
    mapped.insert(mapped.end(), evaluator_mapped.begin(), evaluator_mapped.end());
  }
  // A key held in memory the program allocated is one buffer; one that views a
  // mapped file is two, its owned part and its mapping.
  std::shared_ptr<memory::MappedCharge> mapped_charge;
  if (!mapped.empty()) {
    mapped_charge = std::make_shared<memory::MappedCharge>(ledger_, Stage::parameters, std::move(mapped));
    std::lock_guard lock(mapped_charges_mutex_);
    std::erase_if(mapped_charges_, [](const auto& c) { return c.expired(); });
    mapped_charges_.push_back(mapped_charge);
  }
  const std::size_t mapped_bytes = mapped_charge ? mapped_charge->mapped_bytes() : 0;
  BufferLedger::Charge charge = ledger_.charge(Stage::parameters, bytes - mapped_bytes);
  for (const auto& backend : backends_) backend->prepare(*key, evaluator);
  return std::shared_ptr<const ResidentParameters>(new ResidentParameters(
      std::move(key), std::move(evaluator), std::move(reservation), std::move(charge), std::move(mapped_charge)));
}

std::size_t Engine::thread_stack_bytes() const {
  return memory::present_bytes(thread_stacks_).value_or(0);
}

void Engine::refresh_mapped_charges() {
  std::vector<std::shared_ptr<memory::MappedCharge>> live;
  {
    std::lock_guard lock(mapped_charges_mutex_);
    mapped_refreshed_ = std::chrono::steady_clock::now();
    for (const auto& weak : mapped_charges_) {
      if (auto c = weak.lock()) live.push_back(std::move(c));
    }
  }
  for (const auto& c : live) c->refresh();
}

ProofTicket Engine::submit(ProofRequest spec) {
  if (spec.partitions == 0) throw std::invalid_argument("a proof request needs at least one partition");
  if (!spec.synthesize) throw std::invalid_argument("a proof request needs a synthesizer");
  if (spec.parameters == nullptr) throw std::invalid_argument("a proof request needs resident parameters");
  const std::size_t bytes = config_.policy == PermitPolicy::budget ? spec.footprint.total() : 0;
  if (bytes > admission_->largest_admissible()) {
    throw std::invalid_argument("a partition needs " + std::to_string(bytes) + " bytes but the memory budget (" +
                                std::to_string(admission_->capacity()) + " bytes, less resident parameters) admits " +
                                std::to_string(admission_->largest_admissible()));
  }
  auto request = std::make_shared<Request>();
  request->spec = std::move(spec);
  request->submitted = now();
  request->proofs.resize(request->spec.partitions);
  request->timelines.resize(request->spec.partitions);
  {
    std::lock_guard lock(requests_mutex_);
    if (!accepting_) throw std::logic_error("the engine is shutting down");
    request->id = next_id_++;
    active_.emplace(request->id, request);
  }
  for (std::size_t i = 0; i < request->spec.partitions; ++i) {
    admission_->push({request->spec.priority, request->id, i, bytes});
  }
  return ProofTicket(this, request->id, request->future);
}

void Engine::cancel(std::uint64_t id) {
  if (auto request = find(id)) abort(request, std::make_exception_ptr(RequestCancelled(
                                                  "request " + std::to_string(id) + " was cancelled")));
}

void Engine::pause() { admission_->pause(); }
void Engine::resume() { admission_->resume(); }

void Engine::shutdown(ShutdownMode mode) {
  std::vector<std::shared_ptr<Request>> running;
  {
    std::lock_guard lock(requests_mutex_);
    if (!accepting_) return;
    accepting_ = false;
    for (const auto& [id, request] : active_) running.push_back(request);
  }
  admission_->resume();
  if (mode == ShutdownMode::cancel) {
    for (const auto& request : running) {
      abort(request, std::make_exception_ptr(RequestCancelled("the engine shut down")));
    }
  }
  {
    std::unique_lock lock(requests_mutex_);
    requests_done_.wait(lock, [&] { return active_.empty(); });
  }
  admission_->stop();
  channel_.close();
  finalize_queue_.close();
  dealloc_queue_.close();
  completion_queue_.close();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

std::shared_ptr<Engine::Request> Engine::find(std::uint64_t id) const {
  std::lock_guard lock(requests_mutex_);
  auto it = active_.find(id);
  return it == active_.end() ? nullptr : it->second;
}

void Engine::refresh_mapped_charges_if_due(Hook h) {
  using Clock = std::chrono::steady_clock;
  {
    std::lock_guard lock(mapped_charges_mutex_);
    const auto interval = std::max<Clock::duration>(kMappedRefreshInterval, 10 * mapped_refresh_took_);
    if (mapped_refreshing_ || Clock::now() - mapped_refreshed_ < interval) return;
    if (mapped_refresh_took_ > kCheapMappedRefresh && h != Hook::dealloc_done) return;
    mapped_refreshing_ = true;
  }
  const auto began = Clock::now();
  refresh_mapped_charges();
  std::lock_guard lock(mapped_charges_mutex_);
  mapped_refresh_took_ = Clock::now() - began;
  mapped_refreshing_ = false;
}

void Engine::hook(Hook h, Partition& p) {
  const double t = now();
  p.timeline.at[static_cast<std::size_t>(h)] = t;
  bool listened = false;
  {
    std::lock_guard lock(listeners_mutex_);
    listened = !listeners_.empty();
  }
  if (!listened) return;
  refresh_mapped_charges_if_due(h);
  std::lock_guard lock(listeners_mutex_);
  const LedgerSnapshot snapshot = ledger_.snapshot();
  const std::size_t runtime = memory::RuntimeMemory::now().total() + thread_stack_bytes();
  const HookEvent event{h, p.request->id, p.index, p.request->spec.partitions, t, memory::resident_bytes(), runtime,
                        snapshot};
  for (const auto& listener : listeners_) listener->on_hook(event);
}

BufferLedger::Charge Engine::charge_scratch(const Partition& p) {
  if (backends_[p.device]->allocates_own_scratch()) return {};
  return ledger_.charge(Stage::scratch, p.footprint().scratch);
}

namespace {

// A synthesis runs in a task arena of its request's priority: TBB serves the arenas
// of the highest priority that has work first, so while a CRITICAL partition is
// synthesized its parallel loops get the workers and a NORMAL one's keep little more
// than their own thread. Admission orders the partitions; this orders the cores.
class SynthesisArenas {
 public:
  tbb::task_arena& operator[](Priority p) {
    switch (p) {
      case Priority::critical:
      case Priority::high:
        return high_;
      case Priority::normal:
        return normal_;
      case Priority::low:
        break;
    }
    return low_;
  }

 private:
  tbb::task_arena high_{tbb::task_arena::automatic, 1, tbb::task_arena::priority::high};
  tbb::task_arena normal_{tbb::task_arena::automatic, 1, tbb::task_arena::priority::normal};
  tbb::task_arena low_{tbb::task_arena::automatic, 1, tbb::task_arena::priority::low};
};

}  // namespace

void Engine::synthesis_loop() {
  SynthesisArenas arenas;
  while (auto admitted = admission_->take()) {
    std::shared_ptr<Request> request = find(admitted->task.request);
    auto p = std::make_unique<Partition>(request, admitted->task.partition, std::move(admitted->reservation));
    if (!request->aborted && !any_device_healthy()) abort(request, no_device_left(*p));
    if (request->aborted) {
      retire(std::move(p));
      continue;
    }
    arenas[request->spec.priority].execute([&] { synthesize(*p); });
    if (request->aborted) {
      dealloc_queue_.push(std::move(p));
    } else if (config_.policy == PermitPolicy::early) {
      channel_.send_detached(std::move(p));
    } else {
      channel_.send(std::move(p));
    }
  }
}

void Engine::synthesize(Partition& p) {
  p.charge = ledger_.charge(Stage::synthesizing, p.footprint().synthesized());
  hook(Hook::synth_start, p);
  try {
    p.witness = p.request->spec.synthesize(p.index);
  } catch (...) {
    abort(p.request, failure(p.request->id, p.index, p.request->spec.partitions, "synthesis"));
    return;
  }
  // The evaluator a deferred witness refers to is the resident parameters', not its own.
  p.charge.resize(p.witness.abc_bytes() + p.witness.assignment.bytes());
  p.charge.move_to(Stage::queued);
  hook(Hook::synth_done, p);
}

void Engine::device_loop(std::size_t device) {
  auto choose = [this, device](const BoundedChannel<PartitionPtr>::View& queued) { return choose_for(device, queued); };
  while (auto item = channel_.receive(choose)) {
    PartitionPtr p = std::move(*item);
    p->device = device;
    p->timeline.device = device;
    if (!p->request->aborted && device_health_[device]->healthy()) {
      start_on_device(*p, device);
    } else if (!p->request->aborted) {
      // Chosen just before another worker of this device saw it fail, or taken to be
      // failed: no device is left.
      if (any_device_healthy()) {
        p->requeue = true;
      } else {
        abort(p->request, no_device_left(*p));
      }
    }
    if (p->pending != nullptr && !p->request->aborted) {
      finalize_queue_.push(std::move(p));
    } else {
      dealloc_queue_.push(std::move(p));
    }
  }
}

void Engine::start_on_device(Partition& p, std::size_t device) {
  const groth16::PartitionFootprint& footprint = p.footprint();
  {
    groth16::ProverBackend& backend = *backends_[device];
    // The device lock, unless the backend locks its own kernel region so that the
    // gw workers' uploads and host-side work overlap each other's kernels.
    std::unique_lock kernel_region(*device_mutex_[device], std::defer_lock);
    if (!backend.locks_kernel_region()) kernel_region.lock();
    const DeviceActivity::Scope active(*device_activity_[device]);
    // The backend grows a, b, c to the domain size N in place; a deferred witness
    // (the pce path) gets what its backend materializes on the host.
    std::size_t in_start = std::max(footprint.abc, p.witness.abc_bytes());
    if (p.witness.is_deferred()) {
      const auto m = backend.host_bytes_to_materialize(p.request->spec.parameters->key().domain_size(),
                                                       p.witness.assignment.compact_aux.size());
      in_start = m.abc + m.aux;
    }
    p.charge.move_to(Stage::on_device);
    p.charge.resize(in_start + p.witness.assignment.bytes());
    hook(Hook::gpu_start, p);
    {
      BufferLedger::Charge scratch = charge_scratch(p);
      try {
        const ProofRequest& spec = p.request->spec;
        p.pending = backend.start(std::move(p.witness), spec.parameters->key(),
                                  spec.blinding ? spec.blinding(p.index) : groth16::Blinding::random());
      } catch (const groth16::DeviceFailure&) {
        device_failed(p, "start");
      } catch (...) {
        abort(p.request, failure(p.request->id, p.index, p.request->spec.partitions, "start"));
      }
    }
  }
  if (p.pending == nullptr) return;
  p.timeline.start_steps = p.pending->timings;
  // a, b, c went with the witness into start(); the assignment is what is left.
  p.assignment = p.pending->assignment;
  p.charge.resize(p.assignment != nullptr ? p.assignment->bytes() : 0);
  p.charge.move_to(Stage::pending_finalize);
  p.reservation.release(footprint.abc);
  hook(Hook::abc_freed, p);
}

void Engine::finalize_loop() {
  while (auto item = finalize_queue_.pop()) {
    PartitionPtr p = std::move(*item);
    if (!p->request->aborted) finish(*p);
    dealloc_queue_.push(std::move(p));
  }
}

void Engine::finish(Partition& p) {
  BufferLedger::Charge scratch = charge_scratch(p);
  try {
    p.proof = backends_[p.device]->finish(std::move(p.pending));
  } catch (const groth16::DeviceFailure&) {
    device_failed(p, "finish");
    return;
  } catch (...) {
    abort(p.request, failure(p.request->id, p.index, p.request->spec.partitions, "finish"));
    return;
  }
  scratch.release();
  device_health_[p.device]->count_proved();
  p.charge.move_to(Stage::awaiting_dealloc);
  hook(Hook::finalize_done, p);
}

std::optional<std::size_t> Engine::choose_for(std::size_t device, const BoundedChannel<PartitionPtr>::View& queued) const {
  if (!device_health_[device]->healthy()) {
    // Isolated: it takes partitions only to fail them, once no device is left.
    return any_device_healthy() ? std::nullopt : std::optional<std::size_t>(0);
  }
  struct Queue {
    const Engine& engine;
    std::size_t device;
    const BoundedChannel<PartitionPtr>::View& queued;

    const groth16::ProvingKey& key(std::size_t i) const { return queued[i]->request->spec.parameters->key(); }
    std::size_t size() const { return queued.size(); }
    Priority priority(std::size_t i) const { return queued[i]->request->spec.priority; }
    bool held_here(std::size_t i) const { return engine.backends_[device]->holds_key(key(i)); }
    bool held_elsewhere(std::size_t i) const {
      for (std::size_t d = 0; d < engine.backends_.size(); ++d) {
        if (d != device && engine.device_health_[d]->healthy() && engine.backends_[d]->holds_key(key(i))) return true;
      }
      return false;
    }
  };
  return choose_partition(Queue{*this, device, queued});
}

bool Engine::any_device_healthy() const {
  return std::ranges::any_of(device_health_, [](const auto& health) { return health->healthy(); });
}

void Engine::device_failed(Partition& p, std::string_view step) {
  device_health_[p.device]->fail("device " + std::to_string(p.device) + " (" + backends_[p.device]->name() +
                                 ") failed in " + std::string(step) + ": " + in_flight_message());
  if (any_device_healthy()) {
    p.requeue = true;
    device_health_[p.device]->count_reassigned();
  } else {
    abort(p.request, no_device_left(p));
  }
  // Its idle workers stop choosing; with no device left, they take what is queued to fail it.
  channel_.wake();
}

std::exception_ptr Engine::no_device_left(const Partition& p) const {
  std::string reasons;
  for (const auto& health : device_health_) reasons += (reasons.empty() ? "" : "; ") + health->failure();
  return std::make_exception_ptr(RequestFailed("request " + std::to_string(p.request->id) + ": partition " +
                                               std::to_string(p.index + 1) + "/" +
                                               std::to_string(p.request->spec.partitions) +
                                               ": every device has failed (" + reasons + ")"));
}

void Engine::dealloc_loop() {
  while (auto item = dealloc_queue_.pop()) {
    PartitionPtr p = std::move(*item);
    if (p->pending != nullptr) backends_[p->device]->abort(std::move(p->pending));
    p->witness = groth16::PartitionWitness{};
    p->assignment.reset();
    p->charge.release();
    p->reservation.release_all();
    hook(Hook::dealloc_done, *p);
    if (p->requeue && !p->request->aborted) {
      requeue(std::move(p));
    } else {
      retire(std::move(p));
    }
  }
}

void Engine::requeue(PartitionPtr p) {
  const Request& r = *p->request;
  admission_->push({r.spec.priority, r.id, p->index, config_.policy == PermitPolicy::budget ? r.spec.footprint.total() : 0});
}

void Engine::retire(PartitionPtr p) {
  {
    std::lock_guard lock(listeners_mutex_);
    for (const auto& listener : listeners_) listener->on_partition_retired(p->timeline);
  }
  Request& r = *p->request;
  bool last = false;
  {
    std::lock_guard lock(r.mutex);
    r.timelines[p->index] = p->timeline;
    if (p->proof) r.proofs[p->index] = *p->proof;
    last = ++r.retired == r.spec.partitions;
  }
  if (last) completion_queue_.push(p->request);
}

void Engine::abort(const std::shared_ptr<Request>& request, std::exception_ptr error) {
  {
    std::lock_guard lock(request->mutex);
    if (request->aborted) return;
    request->error = std::move(error);
    request->aborted = true;
  }
  for (const AdmissionTask& task : admission_->remove_request(request->id)) {
    retire(std::make_unique<Partition>(request, task.partition, Admission::Reservation{}));
  }
  for (PartitionPtr& p : channel_.take_if([&](const PartitionPtr& p) { return p->request == request; })) {
    dealloc_queue_.push(std::move(p));
  }
}

void Engine::completion_loop() {
  while (auto request = completion_queue_.pop()) complete(*request);
}

void Engine::complete(const std::shared_ptr<Request>& r) {
  if (r->aborted) {
    r->promise.set_exception(r->error);
  } else {
    try {
      ProofResult result;
      result.id = r->id;
      result.label = r->spec.label;
      for (const auto& proof : r->proofs) result.proofs.push_back(*proof);
      result.timelines = r->timelines;
      if (r->spec.verify) {
        if (!r->spec.verify(result.proofs)) {
          throw RequestFailed("request " + std::to_string(r->id) + ": the assembled proof does not verify");
        }
        result.verified = true;
      }
      result.seconds = now() - r->submitted;
      r->promise.set_value(std::move(result));
    } catch (...) {
      r->promise.set_exception(std::current_exception());
    }
  }
  if (r->spec.on_complete) r->spec.on_complete(r->future);
  {
    std::lock_guard lock(requests_mutex_);
    active_.erase(r->id);
  }
  requests_done_.notify_all();
}

}  // namespace zkpipe::engine
