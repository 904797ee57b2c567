#include "service/api/cuzk_server.hpp"

#include <grpcpp/alarm.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <sstream>

#include "formats/excerpt.hpp"
#include "hash/sha256.hpp"
#include "service/api/grpc_status.hpp"
#include "service/api/prove_call.hpp"
#include "service/errors.hpp"

namespace zkpipe::service::api {

namespace {

using namespace std::chrono_literals;

constexpr std::string_view kJobPrefix = "job-";
// An id echoed in a status message: enough to recognise it, bounded whatever came.
constexpr std::size_t kShownIdChars = 128;
// A cuzk request_id's name in the job journal (other clients may name jobs too).
constexpr std::string_view kJournalNamePrefix = "cuzk:";

grpc::Status too_many_waits(const PeerLimit& peers) {
  return {grpc::StatusCode::RESOURCE_EXHAUSTED,
          "this client has " + std::to_string(peers.per_client()) +
              " calls waiting already (AwaitProof, Prove), the daemon's max_waits_per_peer"};
}

grpc::ServerUnaryReactor* finished(grpc::CallbackServerContext* ctx, const grpc::Status& status) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  reactor->Finish(status);
  return reactor;
}

// cuzk's label of a kind in its metrics (underscores; its status rows use hyphens).
const char* metric_label(cuzk::v1::ProofKind kind) {
  switch (kind) {
    case cuzk::v1::SNAP_DEALS_UPDATE: return "snap_update";
    case cuzk::v1::WINDOW_POST_PARTITION: return "window_post";
    case cuzk::v1::WINNING_POST: return "winning_post";
    default: return "porep_c2";
  }
}

const char* kind_label(cuzk::v1::ProofKind kind) {
  switch (kind) {
    case cuzk::v1::SNAP_DEALS_UPDATE: return "snap-update";
    case cuzk::v1::WINDOW_POST_PARTITION: return "window-post";
    case cuzk::v1::WINNING_POST: return "winning-post";
    default: return "porep-c2";
  }
}

// One wait for a job's end, parked in the await registry (no thread held), answered
// TIMEOUT when `timeout` passes first. Holds itself until gRPC is done with it.
class CuzkAwaitCall final : public grpc::ServerUnaryReactor, public std::enable_shared_from_this<CuzkAwaitCall> {
 public:
  CuzkAwaitCall(ProvingService& service, PeerLimit::Slot slot, std::string job_id, cuzk::v1::AwaitProofResponse* out)
      : service_(service), slot_(std::move(slot)), job_id_(std::move(job_id)), out_(out) {}

  void start(std::uint64_t job, std::chrono::milliseconds timeout) {
    self_ = shared_from_this();
    const auto ticket = service_.await_async(job, std::nullopt,
                                             [self = shared_from_this()](AwaitAnswer a) { self->answer(a); });
    std::lock_guard lock(mutex_);
    ticket_ = ticket;
    if (done_ || !ticket || timeout.count() == 0) return;
    alarm_ = std::make_unique<grpc::Alarm>();
    alarm_->Set(std::chrono::system_clock::now() + timeout, [self = shared_from_this()](bool fired) {
      if (fired) self->expire();
    });
  }

  void OnCancel() override {
    if (take_ticket()) Finish(kClientLeft);
  }

  void OnDone() override {
    std::unique_ptr<grpc::Alarm> alarm;
    {
      std::lock_guard lock(mutex_);
      alarm = std::move(alarm_);
    }
    slot_.reset();
    const auto last = std::move(self_);
  }

 private:
  // True when this call took the waiter back from the registry (its answer will not come).
  bool take_ticket() {
    std::optional<AwaitRegistry::Ticket> ticket;
    {
      std::lock_guard lock(mutex_);
      if (done_) return false;
      ticket = ticket_;
    }
    if (!ticket || !service_.cancel_await(*ticket)) return false;
    std::lock_guard lock(mutex_);
    done_ = true;
    if (alarm_) alarm_->Cancel();
    return true;
  }

  void answer(const AwaitAnswer& answer) {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
      if (alarm_) alarm_->Cancel();
    }
    if (const auto* error = std::get_if<ServiceError>(&answer)) {
      Finish(status_of(*error));
      return;
    }
    *out_ = cuzk_response(std::get<v1::AwaitProofResponse>(answer), job_id_);
    Finish(grpc::Status::OK);
  }

  void expire() {
    if (!take_ticket()) return;
    out_->set_job_id(job_id_);
    out_->set_status(cuzk::v1::AwaitProofResponse::TIMEOUT);
    Finish(grpc::Status::OK);
  }

  ProvingService& service_;
  PeerLimit::Slot slot_;
  const std::string job_id_;
  cuzk::v1::AwaitProofResponse* const out_;
  std::shared_ptr<CuzkAwaitCall> self_;
  std::mutex mutex_;
  std::optional<AwaitRegistry::Ticket> ticket_;
  std::unique_ptr<grpc::Alarm> alarm_;
  bool done_ = false;
};

}  // namespace

CuzkService::CuzkService(ProvingService& service, const config::ServiceConfig& config, std::string token)
    : service_(service),
      params_(config.cuzk_params, config.filecoin_params),
      token_(std::move(token)),
      peers_(config.max_waits_per_peer),
      calls_(kMaxBlockingCalls) {}

template <typename Call>
grpc::ServerUnaryReactor* CuzkService::blocking(grpc::CallbackServerContext* ctx, Call call) {
  if (!authorized(*ctx, token_)) return finished(ctx, kUnauthenticated);
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  if (!calls_.try_run([reactor, call = std::move(call)] { reactor->Finish(guarded(call)); })) {
    reactor->Finish(busy(calls_));
  }
  return reactor;
}

grpc::ServerUnaryReactor* CuzkService::SubmitProof(grpc::CallbackServerContext* ctx,
                                                   const cuzk::v1::SubmitProofRequest* request,
                                                   cuzk::v1::SubmitProofResponse* response) {
  return blocking(ctx, [this, request, response] { *response = submit(*request); });
}

grpc::ServerUnaryReactor* CuzkService::AwaitProof(grpc::CallbackServerContext* ctx,
                                                  const cuzk::v1::AwaitProofRequest* request,
                                                  cuzk::v1::AwaitProofResponse* response) {
  if (!authorized(*ctx, token_)) return finished(ctx, kUnauthenticated);
  std::uint64_t job = 0;
  if (const grpc::Status unknown = guarded([&] { job = job_of(request->job_id()); }); !unknown.ok()) {
    return finished(ctx, unknown);
  }
  auto slot = peers_.acquire(ctx->peer());
  if (!slot) return finished(ctx, too_many_waits(peers_));
  auto call = std::make_shared<CuzkAwaitCall>(service_, std::move(*slot), request->job_id(), response);
  call->start(job, std::chrono::milliseconds(request->timeout_ms()));
  return call.get();
}

grpc::ServerUnaryReactor* CuzkService::Prove(grpc::CallbackServerContext* ctx, const cuzk::v1::ProveRequest* request,
                                             cuzk::v1::ProveResponse* response) {
  if (!authorized(*ctx, token_)) return finished(ctx, kUnauthenticated);
  if (!request->has_submit()) return finished(ctx, {grpc::StatusCode::INVALID_ARGUMENT, "submit: missing"});
  auto slot = peers_.acquire(ctx->peer());
  if (!slot) return finished(ctx, too_many_waits(peers_));
  auto submit = [this, response, job_request = request->submit()] {
    const Submitted submitted = submit_job(job_request);
    const std::string job_id = submitted.response.job_id();
    const std::uint64_t job = submitted.job;
    auto answer = [response, job_id](const AwaitAnswer& a) {
      if (const auto* error = std::get_if<ServiceError>(&a)) return status_of(*error);
      *response->mutable_result() = cuzk_response(std::get<v1::AwaitProofResponse>(a), job_id);
      return grpc::Status::OK;
    };
    // The job itself, not the id: a later submit may give the id to another job.
    return ProveCall::Submitted{job, std::move(answer), [this, job] { service_.cancel(job); }};
  };
  auto call = std::make_shared<ProveCall>(service_, calls_, std::move(*slot), std::move(submit));
  call->start();
  return call.get();
}

grpc::ServerUnaryReactor* CuzkService::CancelProof(grpc::CallbackServerContext* ctx,
                                                   const cuzk::v1::CancelProofRequest* request,
                                                   cuzk::v1::CancelProofResponse* response) {
  return blocking(ctx, [this, request, response] { response->set_was_running(cancel(request->job_id())); });
}

grpc::ServerUnaryReactor* CuzkService::GetStatus(grpc::CallbackServerContext* ctx, const cuzk::v1::GetStatusRequest*,
                                                 cuzk::v1::GetStatusResponse* response) {
  return blocking(ctx, [this, response] { *response = status(); });
}

grpc::ServerUnaryReactor* CuzkService::GetMetrics(grpc::CallbackServerContext* ctx, const cuzk::v1::GetMetricsRequest*,
                                                  cuzk::v1::GetMetricsResponse* response) {
  return blocking(ctx, [this, response] { response->set_prometheus_text(metrics()); });
}

grpc::ServerUnaryReactor* CuzkService::PreloadSRS(grpc::CallbackServerContext* ctx,
                                                  const cuzk::v1::PreloadSrsRequest* request,
                                                  cuzk::v1::PreloadSrsResponse* response) {
  return blocking(ctx, [this, request, response] { *response = preload(request->circuit_id()); });
}

grpc::ServerUnaryReactor* CuzkService::EvictSRS(grpc::CallbackServerContext* ctx,
                                                const cuzk::v1::EvictSrsRequest* request,
                                                cuzk::v1::EvictSrsResponse* response) {
  return blocking(ctx, [this, request, response] { *response = evict(request->circuit_id()); });
}

cuzk::v1::SubmitProofResponse CuzkService::submit(const cuzk::v1::SubmitProofRequest& request) {
  return submit_job(request).response;
}

CuzkService::Submitted CuzkService::submit_job(const cuzk::v1::SubmitProofRequest& request) {
  Submitted submitted;
  cuzk::v1::SubmitProofResponse& out = submitted.response;
  std::uint32_t ahead = 0;
  const v1::GetStatusResponse queued = service_.status();
  for (const v1::QueueDepth& depth : queued.queue()) ahead += depth.jobs();
  auto opened = [&](std::uint64_t id) {
    std::lock_guard lock(mutex_);
    open_jobs_.emplace(id, request.proof_kind());
    // Amortized: a sweep whenever the map has doubled since the last one. The job is
    // queued already: a queue that cannot answer now leaves the sweep to the next time.
    if (open_jobs_.size() >= sweep_at_) {
      try {
        forget_ended_jobs();
      } catch (const ServiceError&) {
        return;
      }
      sweep_at_ = std::max<std::size_t>(kFirstSweep, 2 * open_jobs_.size());
    }
  };
  if (request.request_id().empty()) {  // no retry can name it: no digest
    CuzkJob job = zkpipe_request(request, params_);
    const std::uint64_t id = service_.submit(job.request, std::move(job.circuit));
    opened(id);
    out.set_job_id(name_of(id));
    out.set_queue_position(ahead);
    submitted.job = id;
    return submitted;
  }
  if (request.request_id().size() > 256) {
    throw ServiceError(ErrorKind::invalid_argument, "request_id: longer than 256 bytes");
  }
  const std::string bytes = request.SerializeAsString();
  const hash::sha256::Digest digest =
      hash::sha256::hash(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  // Journaled under the id, so that a retry after a restart (or at another daemon of
  // the cluster) finds the job; the journal decides in one step whether the id's job
  // answers this submit or a new one takes the id (name_answers_retry).
  CuzkJob translated = zkpipe_request(request, params_);
  const queue::NamedJob job =
      service_.submit_named(translated.request,
                            {journal_name(request.request_id()), std::string(digest.begin(), digest.end())},
                            std::move(translated.circuit));
  out.set_job_id(request.request_id());
  submitted.job = job.id;
  if (job.existed) return submitted;
  opened(job.id);
  out.set_queue_position(ahead);
  if (job.replaced && !queue::is_final(job.replaced->status)) {
    std::cerr << "zkpipe serve: cuzk request_id " << formats::excerpt(request.request_id(), kShownIdChars)
              << " submitted again with another request while job " << job.replaced->id
              << " was unfinished: that job is cancelled, job " << job.id << " takes the id\n";
  }
  return submitted;
}

void CuzkService::forget_ended_jobs() {
  std::erase_if(open_jobs_, [&](const auto& entry) {
    v1::JobState state{};
    return count_if_ended(entry.first, entry.second, state);
  });
}

bool CuzkService::count_if_ended(std::uint64_t job, cuzk::v1::ProofKind kind, v1::JobState& state) {
  v1::AwaitProofResponse answer;
  try {
    answer = service_.await(job, 0ms);
  } catch (const ServiceError& e) {
    if (e.kind() != ErrorKind::not_found) throw;
    state = v1::JOB_STATE_CANCELLED;  // purged already: gone, outcome unknown
    return true;
  }
  state = answer.state();
  if (state == v1::JOB_STATE_QUEUED || state == v1::JOB_STATE_RUNNING) return false;
  KindOutcomes& outcomes = outcomes_[metric_label(kind)];
  if (state == v1::JOB_STATE_DONE) {
    ++outcomes.completed;
    outcomes.seconds.observe(answer.timings().total());
  } else if (state == v1::JOB_STATE_FAILED) {
    ++outcomes.failed;
  }
  return true;
}

std::string CuzkService::name_of(std::uint64_t id) const { return std::string(kJobPrefix) + std::to_string(id); }

std::string CuzkService::journal_name(const std::string& request_id) {
  return std::string(kJournalNamePrefix) + request_id;
}

std::uint64_t CuzkService::job_of(const std::string& job_id) const {
  // A request id: the job the journal has under it now (this daemon's, one before a
  // restart, another daemon's of the cluster); gone once the journal purged it.
  if (const std::optional<queue::NamedJob> job = service_.named(journal_name(job_id))) return job->id;
  if (job_id.starts_with(kJobPrefix)) {
    const std::string digits = job_id.substr(kJobPrefix.size());
    if (!digits.empty() && digits.size() <= 19 && digits.find_first_not_of("0123456789") == std::string::npos) {
      return std::stoull(digits);
    }
  }
  throw ServiceError(ErrorKind::not_found, "job not found: " + formats::excerpt(job_id, kShownIdChars));
}

bool CuzkService::cancel(const std::string& job_id) {
  const std::uint64_t id = job_of(job_id);
  const v1::JobState before = service_.await(id, 0ms).state();
  service_.cancel(id);
  return before == v1::JOB_STATE_QUEUED || before == v1::JOB_STATE_RUNNING;
}

cuzk::v1::GetStatusResponse CuzkService::status() {
  const v1::GetStatusResponse s = service_.status();
  cuzk::v1::GetStatusResponse out;
  for (const v1::Device& device : s.devices()) {
    cuzk::v1::GPUStatus& gpu = *out.add_gpus();
    gpu.set_ordinal(device.has_ordinal() ? static_cast<std::uint32_t>(device.ordinal()) : device.index());
    gpu.set_name(device.backend());
    gpu.set_vram_total_bytes(device.driver_total_bytes());
    gpu.set_vram_free_bytes(device.driver_total_bytes() - std::min(device.driver_used_bytes(), device.driver_total_bytes()));
  }
  for (const v1::ResidentParams& p : s.parameters()) {
    cuzk::v1::SRSStatus& srs = *out.add_loaded_srs();
    srs.set_circuit_id(params_.circuit_id_of(p.parameter_file()));
    srs.set_tier(p.tier() == "device" ? cuzk::v1::SRSStatus::HOT : cuzk::v1::SRSStatus::WARM);
    srs.set_size_bytes(p.bytes());
    srs.set_ref_count(p.in_use());
  }
  std::map<std::string, std::pair<std::uint32_t, std::uint32_t>> queues;  // kind: pending, in progress
  {
    std::lock_guard lock(mutex_);
    std::erase_if(open_jobs_, [&](const auto& entry) {
      v1::JobState state{};
      if (count_if_ended(entry.first, entry.second, state)) return true;
      if (state == v1::JOB_STATE_QUEUED) {
        ++queues[kind_label(entry.second)].first;
      } else {
        ++queues[kind_label(entry.second)].second;
      }
      return false;
    });
  }
  for (const auto& [kind, counts] : queues) {
    cuzk::v1::QueueStatus& q = *out.add_queues();
    q.set_proof_kind(kind);
    q.set_pending(counts.first);
    q.set_in_progress(counts.second);
  }
  out.set_pinned_memory_bytes(s.ledger().pinned_bytes());
  out.set_total_proofs_completed(s.jobs_done());
  out.set_total_proofs_failed(s.jobs_failed());
  out.set_uptime_seconds(static_cast<std::uint64_t>(s.uptime_seconds()));
  return out;
}

std::string CuzkService::metrics() {
  const cuzk::v1::GetStatusResponse s = status();
  std::uint64_t pending = 0;
  std::uint64_t running = 0;
  for (const auto& q : s.queues()) {
    pending += q.pending();
    running += q.in_progress();
  }
  std::ostringstream text;
  text << "# TYPE cuzk_proofs_completed_total counter\ncuzk_proofs_completed_total " << s.total_proofs_completed()
       << "\n# TYPE cuzk_proofs_failed_total counter\ncuzk_proofs_failed_total " << s.total_proofs_failed()
       << "\n# TYPE cuzk_uptime_seconds gauge\ncuzk_uptime_seconds " << s.uptime_seconds()
       << "\n# TYPE cuzk_queue_depth gauge\ncuzk_queue_depth " << pending
       << "\n# TYPE cuzk_running_jobs gauge\ncuzk_running_jobs " << running
       << "\n# TYPE cuzk_gpu_workers gauge\ncuzk_gpu_workers " << s.gpus_size() << "\n";
  // cuzk's per-kind series (its label values); the duration a histogram here, whose
  // _count and _sum are what cuzk's summary of the same name carries.
  std::lock_guard lock(mutex_);
  text << "# TYPE cuzk_proofs_completed counter\n";
  for (const auto& [kind, o] : outcomes_) text << "cuzk_proofs_completed{proof_kind=\"" << kind << "\"} " << o.completed << "\n";
  text << "# TYPE cuzk_proofs_failed counter\n";
  for (const auto& [kind, o] : outcomes_) text << "cuzk_proofs_failed{proof_kind=\"" << kind << "\"} " << o.failed << "\n";
  text << "# TYPE cuzk_proof_duration_seconds histogram\n";
  for (const auto& [kind, o] : outcomes_) {
    text << o.seconds.render("cuzk_proof_duration_seconds", "proof_kind=\"" + kind + "\"");
  }
  return text.str() + service_.metrics();
}

cuzk::v1::PreloadSrsResponse CuzkService::preload(const std::string& circuit_id) {
  const std::filesystem::path file = params_.file_for(circuit_id);
  if (std::error_code error; !std::filesystem::exists(file, error)) {
    throw ServiceError(ErrorKind::not_found, "circuit id " + formats::excerpt(circuit_id, kShownIdChars) +
                                                 ": its parameter file " + file.string() +
                                                 " does not exist");
  }
  const auto [circuit, preset] = cuzk_preload_circuit(circuit_id);
  v1::PreloadParamsRequest request;
  request.set_parameter_file(file.string());
  request.set_circuit(circuit);
  request.set_preset(preset);
  const v1::PreloadParamsResponse loaded = service_.preload(request);
  cuzk::v1::PreloadSrsResponse out;
  out.set_already_loaded(loaded.load_seconds() == 0);
  out.set_load_time_ms(static_cast<std::uint64_t>(loaded.load_seconds() * 1000));
  return out;
}

cuzk::v1::EvictSrsResponse CuzkService::evict(const std::string& circuit_id) {
  const std::uint64_t freed = service_.evict(params_.file_for(circuit_id).string());
  cuzk::v1::EvictSrsResponse out;
  out.set_was_loaded(freed > 0);
  out.set_freed_bytes(freed);
  return out;
}

}  // namespace zkpipe::service::api
