#include "service/metrics/http_metrics.hpp"

#include <httplib.h>

#include <chrono>

#include "service/config/config.hpp"

namespace zkpipe::service::metrics {

MetricsHttpServer::MetricsHttpServer(ProvingService& service, const std::string& listen, std::string token)
    : server_(std::make_unique<httplib::Server>()) {
  const config::ListenAddress address = config::parse_listen_address(listen);
  server_->Get("/metrics", [&service, token = std::move(token)](const httplib::Request& request,
                                                                  httplib::Response& response) {
    if (!token.empty() && request.get_header_value("Authorization") != "Bearer " + token) {
      response.status = 401;
      response.set_content("a valid bearer token is required\n", "text/plain");
      return;
    }
    response.set_content(service.metrics(), "text/plain; version=0.0.4");
  });
  port_ = address.port == 0 ? server_->bind_to_any_port(address.host) : address.port;
  if (port_ < 0 || (address.port != 0 && !server_->bind_to_port(address.host, address.port))) {
    throw config::ConfigError("cannot listen for /metrics on " + listen);
  }
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // stop() ends only a server that is running: wait until it is.
  for (int i = 0; i < 500 && !server_->is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

MetricsHttpServer::~MetricsHttpServer() {
  server_->stop();
  thread_.join();
}

}  // namespace zkpipe::service::metrics
