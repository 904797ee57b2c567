// cuzk.v1.ProvingEngine on the daemon's listener, beside zkpipe.v1.Prover: Curio's
// cuzk client talks to zkpipe unchanged. Each call is mapped onto ProvingService
// (cuzk_request.hpp translates the requests and answers); docs/CUZK.md has the whole
// mapping and what differs from cuzk.
//
// Job ids are strings in cuzk: the request_id a client gives (submitting it again
// answers the same job: a retried submit queues nothing twice; another request under
// that id is refused ALREADY_EXISTS), else "job-<zkpipe id>".
// A request id is journaled with its job ("cuzk:<id>", with the request's SHA-256):
// after a restart, or at another daemon of a cluster, the id still finds its job and a
// retry still queues nothing.
//
// Like the zkpipe service: the bearer token is checked first; blocking calls run on
// threads of their own; AwaitProof and Prove wait parked, holding no thread, at most
// max_waits_per_peer per client; a Prove whose client leaves cancels its job.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "cuzk/v1/proving.grpc.pb.h"
#include "service/api/call_threads.hpp"
#include "service/api/cuzk_request.hpp"
#include "service/api/peer_limit.hpp"
#include "service/config/config.hpp"
#include "service/metrics/metrics.hpp"
#include "service/proving_service.hpp"

namespace zkpipe::service::api {

class CuzkService final : public cuzk::v1::ProvingEngine::CallbackService {
 public:
  CuzkService(ProvingService& service, const config::ServiceConfig& config, std::string token);

  grpc::ServerUnaryReactor* SubmitProof(grpc::CallbackServerContext* ctx, const cuzk::v1::SubmitProofRequest* request,
                                        cuzk::v1::SubmitProofResponse* response) override;
  grpc::ServerUnaryReactor* AwaitProof(grpc::CallbackServerContext* ctx, const cuzk::v1::AwaitProofRequest* request,
                                       cuzk::v1::AwaitProofResponse* response) override;
  grpc::ServerUnaryReactor* Prove(grpc::CallbackServerContext* ctx, const cuzk::v1::ProveRequest* request,
                                  cuzk::v1::ProveResponse* response) override;
  grpc::ServerUnaryReactor* CancelProof(grpc::CallbackServerContext* ctx, const cuzk::v1::CancelProofRequest* request,
                                        cuzk::v1::CancelProofResponse* response) override;
  grpc::ServerUnaryReactor* GetStatus(grpc::CallbackServerContext* ctx, const cuzk::v1::GetStatusRequest* request,
                                      cuzk::v1::GetStatusResponse* response) override;
  grpc::ServerUnaryReactor* GetMetrics(grpc::CallbackServerContext* ctx, const cuzk::v1::GetMetricsRequest* request,
                                       cuzk::v1::GetMetricsResponse* response) override;
  grpc::ServerUnaryReactor* PreloadSRS(grpc::CallbackServerContext* ctx, const cuzk::v1::PreloadSrsRequest* request,
                                       cuzk::v1::PreloadSrsResponse* response) override;
  grpc::ServerUnaryReactor* EvictSRS(grpc::CallbackServerContext* ctx, const cuzk::v1::EvictSrsRequest* request,
                                     cuzk::v1::EvictSrsResponse* response) override;

  // What the calls above do, without gRPC (the tests call them too). Each throws
  // ServiceError as ProvingService does.
  cuzk::v1::SubmitProofResponse submit(const cuzk::v1::SubmitProofRequest& request);
  // The zkpipe job a cuzk job id names; throws ServiceError not_found.
  std::uint64_t job_of(const std::string& job_id) const;
  bool cancel(const std::string& job_id);
  cuzk::v1::GetStatusResponse status();
  std::string metrics();
  cuzk::v1::PreloadSrsResponse preload(const std::string& circuit_id);
  cuzk::v1::EvictSrsResponse evict(const std::string& circuit_id);

 private:
  struct Submitted {
    cuzk::v1::SubmitProofResponse response;
    std::uint64_t job = 0;  // the zkpipe job that answers it
  };
  Submitted submit_job(const cuzk::v1::SubmitProofRequest& request);
  std::string name_of(std::uint64_t id) const;
  static std::string journal_name(const std::string& request_id);
  // Runs `call` on a call thread, finishing the call with what it throws.
  template <typename Call>
  grpc::ServerUnaryReactor* blocking(grpc::CallbackServerContext* ctx, Call call);

  ProvingService& service_;
  const CuzkParams params_;
  const std::string token_;
  PeerLimit peers_;
  CallThreads calls_;
  // The jobs this daemon queued that are not known to have ended, with their kinds:
  // GetStatus's queue rows. A request id is looked up in the journal at every use,
  // never cached here: the journal alone says which job a name holds.
  std::mutex mutex_;
  std::map<std::uint64_t, cuzk::v1::ProofKind> open_jobs_;
  // The outcomes of those jobs once seen ended, by cuzk's metric label of their kind
  // (porep_c2, snap_update, window_post, winning_post): GetMetrics' per-kind series.
  struct KindOutcomes {
    std::uint64_t completed = 0;
    std::uint64_t failed = 0;
    metrics::LatencyHistogram seconds;  // submission to proof, queue wait included (cuzk's measure)
  };
  std::map<std::string, KindOutcomes, std::less<>> outcomes_;
  // Call with mutex_ held: whether the job ended, its outcome counted when it did.
  bool count_if_ended(std::uint64_t job, cuzk::v1::ProofKind kind, v1::JobState& state);
  static constexpr std::size_t kFirstSweep = 1024;
  std::size_t sweep_at_ = kFirstSweep;
  // Call with mutex_ held: drops the jobs that ended from open_jobs_.
  void forget_ended_jobs();
};

}  // namespace zkpipe::service::api
