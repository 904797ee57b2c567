// The gRPC front of the daemon: zkpipe.v1.Prover on the configured address,
// authenticating each call (an optional bearer token), bounding request sizes, and
// mapping ProvingService's errors onto status codes. A malformed request is answered
// INVALID_ARGUMENT with the reason; nothing a request holds can end the process.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "service/config.hpp"
#include "service/proving_service.hpp"

namespace grpc {
class Server;
}

namespace zkpipe::service {

class GrpcServer {
 public:
  // Binds and starts serving; throws ConfigError when the address cannot be bound.
  // An empty token: no authentication.
  GrpcServer(ProvingService& service, const ServiceConfig& config, std::string token);
  ~GrpcServer();
  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;

  // The TCP port bound (the one chosen for port 0); 0 for a unix socket.
  int port() const { return port_; }
  // Ends the calls still running after `deadline` (awaits, watches) and stops.
  void shutdown(std::chrono::duration<double> deadline);

 private:
  class Handler;
  std::unique_ptr<Handler> handler_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  bool stopped_ = false;
};

// Reads a bearer token file: its first line, without surrounding whitespace; throws
// ConfigError for an unreadable or empty file.
std::string read_token_file(const std::filesystem::path& path);

}  // namespace zkpipe::service
