#include "service/proving_service.hpp"

#include <algorithm>
#include <future>
#include <iostream>

#include "formats/excerpt.hpp"
#include "memory/process_memory.hpp"
#include "service/errors.hpp"
#include "service/jobs/job_kind.hpp"

namespace zkpipe::service {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxLabel = 256;
constexpr auto kMaxAwait = std::chrono::seconds(60);

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

ProvingService::ProvingService(const config::ServiceConfig& config, BackendSetup backend)
    : config_(config),
      started_(Clock::now()),
      baseline_rss_(memory::resident_bytes()),
      backend_(std::move(backend)),
      paths_(config.effective_parameter_roots()),
      progress_(std::make_shared<metrics::PartitionProgress>()) {
  engine::EngineConfig ec;
  ec.synthesis_workers =
      config.synthesis_workers != 0 ? config.synthesis_workers : std::max(1u, std::thread::hardware_concurrency());
  ec.workers_per_device = config.workers_per_device;
  ec.finalizers = config.finalizers;
  ec.budget_bytes = config.budget_bytes;
  engine_ = std::make_unique<engine::Engine>(ec, backend_.backends);
  engine_->add_listener(progress_);
  residency_ = std::make_unique<residency::ParameterResidency>(
      *engine_, backend_.tiers, config.param_idle_seconds,
      residency::KeyCacheOptions{config.effective_key_cache_dir(), config.key_cache_budget_bytes});
  requests_ = std::make_unique<jobs::JobRequestBuilder>(paths_, *residency_, *backend_.backends.front());
  queue_ = queue::open_job_queue({config_, *engine_, *requests_, *progress_, tally_, *this});
  awaits_ = std::make_unique<AwaitRegistry>(
      [this](std::uint64_t id, bool expired) { return queue_->answer(id, expired); }, queue_->answer_poll());
  // A thread the system refuses throws std::system_error: those already started are
  // stopped first, for a joinable std::thread destroyed by the unwinding aborts the process.
  try {
    queue_->start();
    janitor_ = std::thread([this] { janitor_loop(); });
  } catch (...) {
    stop();
    throw;
  }
}

ProvingService::~ProvingService() { stop(); }

void ProvingService::stop() {
  {
    std::lock_guard lock(janitor_mutex_);
    stopping_ = true;
  }
  janitor_wake_.notify_all();
  queue_->stop();
  if (janitor_.joinable()) janitor_.join();
  // What the engine still holds completes (cancelled) into the queue, which keeps it
  // queued for the next start.
  engine_->shutdown(engine::ShutdownMode::cancel);
}

void ProvingService::finished(std::uint64_t job, const v1::AwaitProofResponse& response) {
  awaits_->resolve(job, response);
}
void ProvingService::changed(std::uint64_t job) { awaits_->notify(job); }
void ProvingService::all_changed() { awaits_->notify_all(); }

jobs::CheckedJob ProvingService::validate(const v1::SubmitProofRequest& request,
                                    std::shared_ptr<const r1cs::PartitionedCircuit> read) const {
  auto bad = [](const std::string& why) { return ServiceError(ErrorKind::invalid_argument, why); };
  if (request.label().size() > kMaxLabel) throw bad("label longer than " + std::to_string(kMaxLabel) + " bytes");
  if (!v1::Priority_IsValid(request.priority())) {
    throw bad("unknown priority " + std::to_string(request.priority()));
  }
  return requests_->validate(request, std::move(read));
}

std::uint64_t ProvingService::submit(const v1::SubmitProofRequest& request,
                                     std::shared_ptr<const r1cs::PartitionedCircuit> read) {
  jobs::CheckedJob checked = validate(request, std::move(read));
  return queue_->submit(request, std::move(checked));
}

queue::NamedJob ProvingService::submit_named(const v1::SubmitProofRequest& request, const queue::JobName& name,
                                      std::shared_ptr<const r1cs::PartitionedCircuit> read) {
  jobs::CheckedJob checked = validate(request, std::move(read));
  return queue_->submit_named(request, std::move(checked), name);
}

std::optional<queue::NamedJob> ProvingService::named(const std::string& name) const { return queue_->named(name); }

std::optional<AwaitRegistry::Ticket> ProvingService::await_async(std::uint64_t id,
                                                                 std::optional<std::chrono::milliseconds> wait,
                                                                 AwaitRegistry::Callback done) {
  const Clock::time_point deadline =
      wait ? Clock::now() + std::min<Clock::duration>(*wait, kMaxAwait) : Clock::time_point::max();
  std::optional<AwaitAnswer> now;
  try {
    now = queue_->answer(id, Clock::now() >= deadline);
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

v1::JobState ProvingService::cancel(std::uint64_t id) { return queue_->cancel(id); }

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
  out.set_pinned_bytes(s.pinned);
  out.set_peak_pinned_bytes(s.peak_pinned);
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
  for (const residency::ResidentInfo& r : residency_->list()) {
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
    if (device.placement) {
      row->set_keys_resident(static_cast<std::uint32_t>(device.placement->keys_resident));
      row->set_keys_streamed(static_cast<std::uint32_t>(device.placement->keys_streamed));
      row->set_evaluator_streamed(device.placement->evaluator_streamed);
      row->set_streamed_bytes(device.placement->streamed_bytes);
    }
    row->set_driver_total_bytes(device.driver_total_bytes.value_or(0));
    row->set_driver_used_bytes(device.driver_used_bytes.value_or(0));
  }
  out.set_budget_bytes(engine_->budget_bytes());
  out.set_uptime_seconds(seconds(Clock::now() - started_));
  queue_->report(out);
  const metrics::JobCounters counters = tally_.counters();
  out.set_jobs_done(counters.done);
  out.set_jobs_failed(counters.failed);
  out.set_jobs_cancelled(counters.cancelled);
  out.set_draining(queue_->draining());
  out.set_awaits_parked(awaits_->size());
  const residency::KeyCacheOptions& key_cache = residency_->key_cache();
  out.set_key_cache_dir(key_cache.dir.string());
  out.set_key_cache_bytes(residency::key_cache_bytes(key_cache.dir));
  out.set_key_cache_budget_bytes(key_cache.budget);
  return out;
}

std::string ProvingService::metrics() const {
  const v1::GetStatusResponse s = status();
  return metrics::render_metrics(s, tally_.counters(), tally_.latency());
}

v1::PreloadParamsResponse ProvingService::preload(const v1::PreloadParamsRequest& request) {
  const jobs::JobKind& kind = jobs::preload_kind(request.circuit());
  jobs::Preloaded preloaded;
  try {
    preloaded = kind.preload(request, {paths_, *residency_, *backend_.backends.front()});
  } catch (const ServiceError&) {
    throw;
  } catch (const residency::ParametersDoNotFit& e) {
    throw ServiceError(ErrorKind::resource_exhausted, e.what());
  } catch (const std::exception& e) {
    throw ServiceError(ErrorKind::invalid_argument, formats::excerpt(e.what(), 2000));
  }
  v1::PreloadParamsResponse out;
  out.set_load_seconds(preloaded.lease.load_seconds());
  preloaded.lease.release();
  for (const residency::ResidentInfo& r : residency_->list()) {
    if (r.file != preloaded.entry.file || r.circuit != preloaded.entry.circuit) continue;
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
  } catch (const residency::ParametersInUse& e) {
    throw ServiceError(ErrorKind::failed_precondition, e.what());
  }
}

void ProvingService::pause() { engine_->pause(); }
void ProvingService::resume() { engine_->resume(); }

bool ProvingService::draining() const { return queue_->draining(); }

std::size_t ProvingService::drain(std::chrono::duration<double> deadline) {
  return queue_->drain(Clock::now() + std::chrono::duration_cast<Clock::duration>(deadline));
}

void ProvingService::janitor_loop() {
  auto next_purge = Clock::now();
  std::unique_lock lock(janitor_mutex_);
  while (!stopping_) {
    janitor_wake_.wait_for(lock, std::chrono::seconds(1), [&] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    residency_->evict_idle();
    if (Clock::now() >= next_purge) {
      try {
        queue_->purge_finished_before(queue::unix_now() - config_.keep_results_seconds);
      } catch (const queue::StoreError& e) {
        std::cerr << "zkpipe serve: " << e.what() << "\n";
      }
      // Every ten minutes, or as often as results are kept when that is shorter (at
      // most once a second): a result is gone about when keep_results_seconds says.
      next_purge = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                                      std::clamp(config_.keep_results_seconds, 1.0, 600.0)));
    }
    lock.lock();
  }
}

}  // namespace zkpipe::service
