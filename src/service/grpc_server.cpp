#include "service/grpc_server.hpp"

#include <sys/stat.h>

#include <fstream>
#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>

#include "formats/file_io.hpp"
#include "service/errors.hpp"
#include "zkpipe/v1/zkpipe.grpc.pb.h"

namespace zkpipe::service {

namespace {

// Threads serving calls at once (an await holds one while it waits).
constexpr int kMaxThreads = 512;

grpc::StatusCode code_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::invalid_argument: return grpc::StatusCode::INVALID_ARGUMENT;
    case ErrorKind::not_found: return grpc::StatusCode::NOT_FOUND;
    case ErrorKind::permission_denied: return grpc::StatusCode::PERMISSION_DENIED;
    case ErrorKind::failed_precondition: return grpc::StatusCode::FAILED_PRECONDITION;
    case ErrorKind::resource_exhausted: return grpc::StatusCode::RESOURCE_EXHAUSTED;
    case ErrorKind::unavailable: return grpc::StatusCode::UNAVAILABLE;
  }
  return grpc::StatusCode::INTERNAL;
}

// Compares without an early exit, so that the time taken does not tell how much of
// a guessed token was right (its length is not a secret).
bool same_token(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

std::string read_token_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string token;
  if (!in || !std::getline(in, token)) throw ConfigError("token file " + path.string() + " cannot be read");
  const auto first = token.find_first_not_of(" \t\r");
  const auto last = token.find_last_not_of(" \t\r");
  if (first == std::string::npos) throw ConfigError("token file " + path.string() + " is empty");
  return token.substr(first, last - first + 1);
}

class GrpcServer::Handler final : public v1::Prover::Service {
 public:
  Handler(ProvingService& service, std::string token) : service_(service), token_(std::move(token)) {}

  grpc::Status SubmitProof(grpc::ServerContext* ctx, const v1::SubmitProofRequest* request,
                           v1::SubmitProofResponse* response) override {
    return guarded(ctx, [&] { response->set_job_id(service_.submit(*request)); });
  }

  grpc::Status AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* request,
                          v1::AwaitProofResponse* response) override {
    return guarded(ctx, [&] {
      *response = service_.await(request->job_id(), std::chrono::milliseconds(request->wait_ms()));
    });
  }

  grpc::Status Prove(grpc::ServerContext* ctx, const v1::SubmitProofRequest* request,
                     v1::AwaitProofResponse* response) override {
    return guarded(ctx, [&] {
      const std::uint64_t id = service_.submit(*request);
      do {
        *response = service_.await(id, std::chrono::seconds(1));
      } while (!finished(response->state()) && !ctx->IsCancelled());
      // The caller never learnt the id, so nobody else can await this job.
      if (!finished(response->state())) service_.cancel(id);
    });
  }

  grpc::Status CancelProof(grpc::ServerContext* ctx, const v1::CancelProofRequest* request,
                           v1::CancelProofResponse* response) override {
    return guarded(ctx, [&] { response->set_state(service_.cancel(request->job_id())); });
  }

  grpc::Status GetStatus(grpc::ServerContext* ctx, const v1::GetStatusRequest*,
                         v1::GetStatusResponse* response) override {
    return guarded(ctx, [&] { *response = service_.status(); });
  }

  grpc::Status GetMetrics(grpc::ServerContext* ctx, const v1::GetMetricsRequest*,
                          v1::GetMetricsResponse* response) override {
    return guarded(ctx, [&] { response->set_text(service_.metrics()); });
  }

  grpc::Status PreloadParams(grpc::ServerContext* ctx, const v1::PreloadParamsRequest* request,
                             v1::PreloadParamsResponse* response) override {
    return guarded(ctx, [&] { *response = service_.preload(*request); });
  }

  grpc::Status EvictParams(grpc::ServerContext* ctx, const v1::EvictParamsRequest* request,
                           v1::EvictParamsResponse* response) override {
    return guarded(ctx, [&] { response->set_freed_bytes(service_.evict(request->parameter_file())); });
  }

  grpc::Status WatchBuffers(grpc::ServerContext* ctx, const v1::WatchBuffersRequest* request,
                            grpc::ServerWriter<v1::LedgerSnapshot>* writer) override {
    return guarded(ctx, [&] {
      const auto interval = std::chrono::milliseconds(
          request->interval_ms() == 0 ? 1000 : std::max<std::uint32_t>(50, request->interval_ms()));
      for (std::uint32_t sent = 0; request->count() == 0 || sent < request->count(); ++sent) {
        if (sent != 0) {
          // In slices, so that a client that leaves frees its thread soon.
          const auto until = std::chrono::steady_clock::now() + interval;
          while (std::chrono::steady_clock::now() < until && !ctx->IsCancelled()) {
            std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
                std::chrono::milliseconds(50), until - std::chrono::steady_clock::now()));
          }
        }
        if (ctx->IsCancelled() || !writer->Write(service_.ledger_snapshot())) return;
      }
    });
  }

 private:
  static bool finished(v1::JobState s) {
    return s == v1::JOB_STATE_DONE || s == v1::JOB_STATE_FAILED || s == v1::JOB_STATE_CANCELLED;
  }

  bool authorized(const grpc::ServerContext* ctx) const {
    if (token_.empty()) return true;
    const auto& metadata = ctx->client_metadata();
    const auto it = metadata.find("authorization");
    if (it == metadata.end()) return false;
    const std::string_view value(it->second.data(), it->second.size());
    return value.starts_with("Bearer ") && same_token(value.substr(7), token_);
  }

  template <typename F>
  grpc::Status guarded(const grpc::ServerContext* ctx, F&& call) {
    if (!authorized(ctx)) return {grpc::StatusCode::UNAUTHENTICATED, "a valid bearer token is required"};
    try {
      call();
      return grpc::Status::OK;
    } catch (const ServiceError& e) {
      return {code_of(e.kind()), e.what()};
    } catch (const std::exception& e) {
      return {grpc::StatusCode::INTERNAL, formats::excerpt(e.what(), 2000)};
    }
  }

  ProvingService& service_;
  const std::string token_;
};

GrpcServer::GrpcServer(ProvingService& service, const ServiceConfig& config, std::string token)
    : handler_(std::make_unique<Handler>(service, std::move(token))) {
  const ListenAddress address = parse_listen_address(config.listen);
  if (address.unix_socket) {
    // A socket left by a daemon that died; anything else at that path is kept.
    struct stat st {};
    if (lstat(address.path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) std::filesystem::remove(address.path);
  }
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address.grpc_target(), grpc::InsecureServerCredentials(), &port_);
  builder.RegisterService(handler_.get());
  builder.SetMaxReceiveMessageSize(static_cast<int>(config.max_request_bytes));
  grpc::ResourceQuota quota("zkpipe-serve");
  quota.SetMaxThreads(kMaxThreads);
  builder.SetResourceQuota(quota);
  server_ = builder.BuildAndStart();
  if (server_ == nullptr) throw ConfigError("cannot listen on " + config.listen);
  if (address.unix_socket) {
    // Only the daemon's user (and group) may connect.
    std::filesystem::permissions(address.path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                                                   std::filesystem::perms::group_read |
                                                   std::filesystem::perms::group_write);
    port_ = 0;
  }
}

GrpcServer::~GrpcServer() { shutdown(std::chrono::seconds(0)); }

void GrpcServer::shutdown(std::chrono::duration<double> deadline) {
  if (stopped_) return;
  stopped_ = true;
  server_->Shutdown(std::chrono::system_clock::now() +
                    std::chrono::duration_cast<std::chrono::system_clock::duration>(deadline));
  server_->Wait();
}

}  // namespace zkpipe::service
