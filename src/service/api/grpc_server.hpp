// The gRPC front of the daemon: zkpipe.v1.Prover (and cuzk.v1.ProvingEngine,
// cuzk_server.hpp) on the configured address, with the
// standard grpc.health.v1.Health (SERVING; NOT_SERVING once draining) and server
// reflection, so that grpcurl, Kubernetes probes and load balancers need no .proto.
//
// Every Prover call is authenticated (an optional bearer token) before its bytes
// are decoded; bytes that are no valid request get INVALID_ARGUMENT with the reason,
// ProvingService's errors their status codes. Nothing a request holds can end the
// process. Health and reflection answer without a token: they tell nothing about jobs.
//
// No call holds a gRPC thread: blocking calls (submit, cancel, status, ...) run on
// threads of their own (CallThreads, at most kMaxCalls at once), and waits
// (AwaitProof, Prove, WatchBuffers) are parked, holding no thread at all, at most
// max_waits_per_peer per client. So however many clients wait, Submit, Cancel and
// Status are served.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "service/api/cuzk_server.hpp"
#include "service/api/grpc_status.hpp"
#include "service/api/reflection_v1.hpp"
#include "service/config/config.hpp"
#include "service/proving_service.hpp"

namespace grpc {
class Server;
}

namespace zkpipe::service::api {

class GrpcServer {
 public:
  // Blocking calls running at once; one more gets RESOURCE_EXHAUSTED.
  static constexpr std::size_t kMaxCalls = kMaxBlockingCalls;

  // Binds and starts serving; throws ConfigError when the address cannot be bound
  // (claim_unix_socket's refusal included). An empty token: no authentication.
  GrpcServer(ProvingService& service, const config::ServiceConfig& config, std::string token);
  ~GrpcServer();
  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;

  // The TCP port bound (the one chosen for port 0); 0 for a unix socket.
  int port() const { return port_; }
  // Health turns NOT_SERVING (probes and load balancers send work elsewhere), then
  // the service drains: returns ProvingService::drain's count.
  std::size_t drain(std::chrono::duration<double> deadline);
  // Ends the calls still running after `deadline` (awaits, watches) and stops.
  void shutdown(std::chrono::duration<double> deadline);

 private:
  class Handler;
  void set_serving(bool serving);

  ProvingService& service_;
  std::unique_ptr<Handler> handler_;
  std::unique_ptr<CuzkService> cuzk_;  // cuzk.v1.ProvingEngine on the same listener
  std::unique_ptr<ReflectionV1> reflection_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  bool stopped_ = false;
};

// For a "unix:PATH" listen address: throws ConfigError naming the path when a live
// daemon answers on the socket there; removes a socket nobody listens on (left by a
// daemon that died). Anything else at the path is kept (binding then fails).
void claim_unix_socket(const std::string& listen);

// Reads a bearer token file: its first line, without surrounding whitespace; throws
// ConfigError for an unreadable or empty file.
std::string read_token_file(const std::filesystem::path& path);

}  // namespace zkpipe::service::api
