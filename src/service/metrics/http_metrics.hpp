// HTTP GET /metrics: the Prometheus text of ProvingService::metrics(), for scrapers
// that do not speak gRPC. Anything else is 404; only GET is served.
#pragma once

#include <memory>
#include <string>
#include <thread>

#include "service/proving_service.hpp"

namespace httplib {
class Server;
}

namespace zkpipe::service::metrics {

class MetricsHttpServer {
 public:
  // Binds HOST:PORT (port 0: any free port) and serves on its own thread; throws
  // ConfigError when the address cannot be bound. An empty token: no authentication.
  MetricsHttpServer(ProvingService& service, const std::string& listen, std::string token);
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  int port() const { return port_; }

 private:
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace zkpipe::service::metrics
