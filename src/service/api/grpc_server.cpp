#include "service/api/grpc_server.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <grpcpp/alarm.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <mutex>
#include <optional>

#include "formats/file_descriptor.hpp"
#include "formats/excerpt.hpp"
#include "service/api/call_threads.hpp"
#include "service/api/grpc_status.hpp"
#include "service/api/peer_limit.hpp"
#include "service/api/prove_call.hpp"
#include "service/api/request_decoder.hpp"
#include "service/errors.hpp"
#include "zkpipe/v1/zkpipe.grpc.pb.h"

namespace zkpipe::service::api {

namespace {

namespace pb = google::protobuf;
using v1::Prover;

// Every method takes the request's bytes, so that the token is checked before they
// are decoded.
using RawProverService = Prover::WithRawCallbackMethod_SubmitProof<Prover::WithRawCallbackMethod_AwaitProof<
    Prover::WithRawCallbackMethod_Prove<Prover::WithRawCallbackMethod_CancelProof<
        Prover::WithRawCallbackMethod_GetStatus<Prover::WithRawCallbackMethod_GetMetrics<
            Prover::WithRawCallbackMethod_PreloadParams<Prover::WithRawCallbackMethod_EvictParams<
                Prover::WithRawCallbackMethod_WatchBuffers<Prover::Service>>>>>>>>>;

// WatchBuffers: interval_ms 0 is the default; others must lie in this range, and
// count (0: until the client stops) at most kMaxWatchCount.
constexpr std::uint32_t kDefaultWatchIntervalMs = 1000;
constexpr std::uint32_t kMinWatchIntervalMs = 50;
constexpr std::uint32_t kMaxWatchIntervalMs = 60000;
constexpr std::uint32_t kMaxWatchCount = 1000000;

std::string bytes_of(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  std::string out;
  if (!buffer.Dump(&slices).ok()) return out;
  out.reserve(buffer.Length());
  for (const auto& slice : slices) out.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  return out;
}

void encode(const pb::Message& message, grpc::ByteBuffer& out) {
  const std::string bytes = message.SerializeAsString();
  grpc::Slice slice(bytes);
  out = grpc::ByteBuffer(&slice, 1);
}

// An await's answer as the call's status (and response).
grpc::Status respond(const AwaitAnswer& answer, grpc::ByteBuffer& response) {
  if (const auto* error = std::get_if<ServiceError>(&answer)) return status_of(*error);
  encode(std::get<v1::AwaitProofResponse>(answer), response);
  return grpc::Status::OK;
}

// The reactors below keep themselves alive (self_) until gRPC is done with them
// (OnDone), and a little longer while a thread, the await registry or an alarm still
// holds them; a parked call holds no thread.

// One AwaitProof, parked in the await registry until its answer.
class AwaitCall final : public grpc::ServerUnaryReactor, public std::enable_shared_from_this<AwaitCall> {
 public:
  AwaitCall(ProvingService& service, PeerLimit::Slot slot, grpc::ByteBuffer* response)
      : service_(service), slot_(std::move(slot)), response_(response) {}

  // Called by the method handler: gRPC calls OnCancel only after it returns.
  void start(const v1::AwaitProofRequest& request) {
    self_ = shared_from_this();
    const auto ticket = service_.await_async(request.job_id(), std::chrono::milliseconds(request.wait_ms()),
                                             [self = shared_from_this()](AwaitAnswer answer) {
                                               self->Finish(respond(answer, *self->response_));
                                             });
    std::lock_guard lock(mutex_);
    ticket_ = ticket;
  }

  void OnCancel() override {
    std::optional<AwaitRegistry::Ticket> ticket;
    {
      std::lock_guard lock(mutex_);
      ticket = ticket_;
    }
    if (ticket && service_.cancel_await(*ticket)) Finish(kClientLeft);
  }

  void OnDone() override {
    slot_.reset();
    const auto last = std::move(self_);
  }

 private:
  ProvingService& service_;
  PeerLimit::Slot slot_;
  grpc::ByteBuffer* const response_;
  std::shared_ptr<AwaitCall> self_;
  std::mutex mutex_;
  std::optional<AwaitRegistry::Ticket> ticket_;
};

// One WatchBuffers stream: a snapshot written, then an alarm for the next; between
// them it holds no thread.
class WatchCall final : public grpc::ServerWriteReactor<grpc::ByteBuffer>,
                        public std::enable_shared_from_this<WatchCall> {
 public:
  WatchCall(ProvingService& service, PeerLimit::Slot slot, std::chrono::milliseconds interval, std::uint32_t count)
      : service_(service), slot_(std::move(slot)), interval_(interval), count_(count) {}

  void start() {
    self_ = shared_from_this();
    write();
  }

  void OnWriteDone(bool ok) override {
    if (!ok) {
      Finish(kClientLeft);
      return;
    }
    if (++sent_ == count_) {
      Finish(grpc::Status::OK);
      return;
    }
    std::unique_lock lock(mutex_);
    if (left_) {
      lock.unlock();
      Finish(kClientLeft);
      return;
    }
    // A fresh alarm each time: the last one's callback may still be returning.
    alarm_ = std::make_unique<grpc::Alarm>();
    alarm_->Set(std::chrono::system_clock::now() + interval_,
                [self = shared_from_this()](bool fired) { self->tick(fired); });
  }

  // A write in flight ends with OnWriteDone(false); an alarm is cancelled (tick(false)).
  void OnCancel() override {
    std::lock_guard lock(mutex_);
    left_ = true;
    if (alarm_) alarm_->Cancel();
  }

  void OnDone() override {
    slot_.reset();
    const auto last = std::move(self_);
  }

 private:
  void tick(bool fired) {
    bool left = false;
    {
      std::lock_guard lock(mutex_);
      // The alarm holds this call (its callback does) until destroyed.
      alarm_.reset();
      left = left_ || !fired;
    }
    if (left) {
      Finish(kClientLeft);
      return;
    }
    write();
  }

  void write() {
    encode(service_.ledger_snapshot(), snapshot_);
    StartWrite(&snapshot_);
  }

  ProvingService& service_;
  PeerLimit::Slot slot_;
  const std::chrono::milliseconds interval_;
  const std::uint32_t count_;  // 0: until the client stops
  std::uint32_t sent_ = 0;
  grpc::ByteBuffer snapshot_;
  std::shared_ptr<WatchCall> self_;
  std::mutex mutex_;
  std::unique_ptr<grpc::Alarm> alarm_;  // set while waiting for the next snapshot
  bool left_ = false;
};

// A WatchBuffers stream refused before its first snapshot.
class RefusedStream final : public grpc::ServerWriteReactor<grpc::ByteBuffer> {
 public:
  static RefusedStream* start(const grpc::Status& status) {
    auto call = std::make_shared<RefusedStream>();
    call->self_ = call;
    call->Finish(status);
    return call.get();
  }
  void OnDone() override { const auto last = std::move(self_); }

 private:
  std::shared_ptr<RefusedStream> self_;
};

}  // namespace

std::string read_token_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string token;
  if (!in || !std::getline(in, token)) throw config::ConfigError("token file " + path.string() + " cannot be read");
  const auto first = token.find_first_not_of(" \t\r");
  const auto last = token.find_last_not_of(" \t\r");
  if (first == std::string::npos) throw config::ConfigError("token file " + path.string() + " is empty");
  return token.substr(first, last - first + 1);
}

void claim_unix_socket(const std::string& listen) {
  const config::ListenAddress address = config::parse_listen_address(listen);
  if (!address.unix_socket) return;
  // Curio's /run/curio may not exist before its first daemon.
  const std::filesystem::path directory = std::filesystem::path(address.path).parent_path();
  if (std::error_code error; !directory.empty() && !std::filesystem::exists(directory, error)) {
    std::filesystem::create_directories(directory, error);
    if (error) {
      throw config::ConfigError("cannot create " + directory.string() + " for unix socket " + address.path + ": " +
                        error.message() + " (run as a user who may, or listen elsewhere with --listen unix:PATH)");
    }
  }
  struct stat st {};
  if (lstat(address.path.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode)) return;
  sockaddr_un peer{};
  peer.sun_family = AF_UNIX;
  // Longer paths cannot be bound either; binding says so.
  if (address.path.size() >= sizeof(peer.sun_path)) return;
  std::memcpy(peer.sun_path, address.path.c_str(), address.path.size() + 1);
  const formats::FileDescriptor fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw config::ConfigError("cannot create a socket: " + std::string(std::strerror(errno)));
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&peer), sizeof(peer)) == 0) {
    throw config::ConfigError("unix socket " + address.path +
                      " is in use: a daemon is listening on it (stop it, or listen elsewhere)");
  }
  if (errno != ECONNREFUSED) {
    throw config::ConfigError("cannot tell whether unix socket " + address.path +
                      " is in use: connecting to it failed: " + std::strerror(errno));
  }
  // Nobody listens: left by a daemon that died.
  std::filesystem::remove(address.path);
}

class GrpcServer::Handler final : public RawProverService {
 public:
  Handler(ProvingService& service, const config::ServiceConfig& config, std::string token)
      : service_(service), token_(std::move(token)), peers_(config.max_waits_per_peer), calls_(kMaxCalls) {}

  grpc::ServerUnaryReactor* SubmitProof(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* bytes,
                                        grpc::ByteBuffer* response) override {
    return blocking<v1::SubmitProofRequest>(ctx, *bytes, response, [this](const v1::SubmitProofRequest& r) {
      v1::SubmitProofResponse out;
      out.set_job_id(service_.submit(r));
      return out;
    });
  }

  grpc::ServerUnaryReactor* AwaitProof(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* bytes,
                                       grpc::ByteBuffer* response) override {
    v1::AwaitProofRequest request;
    if (const auto refused = admit(*ctx, *bytes, request)) return finished(ctx, *refused);
    auto slot = parked_slot(*ctx);
    if (!slot) return finished(ctx, too_many_waits());
    auto call = std::make_shared<AwaitCall>(service_, std::move(*slot), response);
    call->start(request);
    return call.get();
  }

  grpc::ServerUnaryReactor* Prove(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* bytes,
                                  grpc::ByteBuffer* response) override {
    v1::SubmitProofRequest request;
    if (const auto refused = admit(*ctx, *bytes, request)) return finished(ctx, *refused);
    auto slot = parked_slot(*ctx);
    if (!slot) return finished(ctx, too_many_waits());
    auto submit = [this, response, request = std::move(request)] {
      const std::uint64_t job = service_.submit(request);
      return ProveCall::Submitted{job, [response](const AwaitAnswer& answer) { return respond(answer, *response); },
                                  [this, job] { service_.cancel(job); }};
    };
    auto call = std::make_shared<ProveCall>(service_, calls_, std::move(*slot), std::move(submit));
    call->start();
    return call.get();
  }

  grpc::ServerUnaryReactor* CancelProof(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* bytes,
                                        grpc::ByteBuffer* response) override {
    return blocking<v1::CancelProofRequest>(ctx, *bytes, response, [this](const v1::CancelProofRequest& r) {
      v1::CancelProofResponse out;
      out.set_state(service_.cancel(r.job_id()));
      return out;
    });
  }

  grpc::ServerUnaryReactor* GetStatus(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* bytes,
                                      grpc::ByteBuffer* response) override {
    return blocking<v1::GetStatusRequest>(ctx, *bytes, response,
                                          [this](const v1::GetStatusRequest&) { return service_.status(); });
  }

  grpc::ServerUnaryReactor* GetMetrics(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* bytes,
                                       grpc::ByteBuffer* response) override {
    return blocking<v1::GetMetricsRequest>(ctx, *bytes, response, [this](const v1::GetMetricsRequest&) {
      v1::GetMetricsResponse out;
      out.set_text(service_.metrics());
      return out;
    });
  }

  grpc::ServerUnaryReactor* PreloadParams(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* bytes,
                                          grpc::ByteBuffer* response) override {
    return blocking<v1::PreloadParamsRequest>(
        ctx, *bytes, response, [this](const v1::PreloadParamsRequest& r) { return service_.preload(r); });
  }

  grpc::ServerUnaryReactor* EvictParams(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* bytes,
                                        grpc::ByteBuffer* response) override {
    return blocking<v1::EvictParamsRequest>(ctx, *bytes, response, [this](const v1::EvictParamsRequest& r) {
      v1::EvictParamsResponse out;
      out.set_freed_bytes(service_.evict(r.parameter_file()));
      return out;
    });
  }

  grpc::ServerWriteReactor<grpc::ByteBuffer>* WatchBuffers(grpc::CallbackServerContext* ctx,
                                                           const grpc::ByteBuffer* bytes) override {
    auto refuse = [](const grpc::Status& status) { return RefusedStream::start(status); };
    v1::WatchBuffersRequest request;
    if (const auto refused = admit(*ctx, *bytes, request)) return refuse(*refused);
    const std::uint32_t interval = request.interval_ms() == 0 ? kDefaultWatchIntervalMs : request.interval_ms();
    if (interval < kMinWatchIntervalMs || interval > kMaxWatchIntervalMs) {
      return refuse({grpc::StatusCode::INVALID_ARGUMENT,
                     "interval_ms must be 0 (" + std::to_string(kDefaultWatchIntervalMs) + ") or between " +
                         std::to_string(kMinWatchIntervalMs) + " and " + std::to_string(kMaxWatchIntervalMs) +
                         ", not " + std::to_string(request.interval_ms())});
    }
    if (request.count() > kMaxWatchCount) {
      return refuse({grpc::StatusCode::INVALID_ARGUMENT, "count must be at most " + std::to_string(kMaxWatchCount) +
                                                             " (0: until the client stops), not " +
                                                             std::to_string(request.count())});
    }
    auto slot = parked_slot(*ctx);
    if (!slot) return refuse(too_many_waits());
    auto call = std::make_shared<WatchCall>(service_, std::move(*slot), std::chrono::milliseconds(interval),
                                            request.count());
    call->start();
    return call.get();
  }

 private:
  // The token first, then the bytes: why the call is refused, or nullopt with
  // `request` decoded.
  std::optional<grpc::Status> admit(const grpc::CallbackServerContext& ctx, const grpc::ByteBuffer& bytes,
                                    pb::Message& request) const {
    if (!authorized(ctx, token_)) return kUnauthenticated;
    const grpc::Status decoded = guarded([&] { decode_request(bytes_of(bytes), request); });
    if (!decoded.ok()) return decoded;
    return std::nullopt;
  }

  std::optional<PeerLimit::Slot> parked_slot(const grpc::CallbackServerContext& ctx) {
    return peers_.acquire(ctx.peer());
  }

  grpc::Status too_many_waits() const {
    return {grpc::StatusCode::RESOURCE_EXHAUSTED,
            "this client has " + std::to_string(peers_.per_client()) +
                " calls waiting already (AwaitProof, Prove, WatchBuffers), the daemon's max_waits_per_peer"};
  }

  static grpc::ServerUnaryReactor* finished(grpc::CallbackServerContext* ctx, const grpc::Status& status) {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    reactor->Finish(status);
    return reactor;
  }

  // A call that may block (a journal commit, a parameter load, a cancel waiting for
  // the engine) runs on a thread of its own.
  template <typename Request, typename Call>
  grpc::ServerUnaryReactor* blocking(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer& bytes,
                                     grpc::ByteBuffer* response, Call call) {
    Request request;
    if (const auto refused = admit(*ctx, bytes, request)) return finished(ctx, *refused);
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    const bool started = calls_.try_run([reactor, response, request = std::move(request), call = std::move(call)] {
      reactor->Finish(guarded([&] { encode(call(request), *response); }));
    });
    if (!started) reactor->Finish(busy(calls_));
    return reactor;
  }

  ProvingService& service_;
  const std::string token_;
  PeerLimit peers_;
  CallThreads calls_;
};

GrpcServer::GrpcServer(ProvingService& service, const config::ServiceConfig& config, std::string token)
    : service_(service),
      handler_(std::make_unique<Handler>(service, config, token)),
      cuzk_(std::make_unique<CuzkService>(service, config, token)),
      reflection_(std::make_unique<ReflectionV1>(std::vector<std::string>{
          "zkpipe.v1.Prover", "cuzk.v1.ProvingEngine", "grpc.health.v1.Health",
          "grpc.reflection.v1alpha.ServerReflection", "grpc.reflection.v1.ServerReflection"})) {
  const config::ListenAddress address = config::parse_listen_address(config.listen);
  claim_unix_socket(config.listen);
  // grpc.health.v1.Health and server reflection (v1alpha, the plugin's; v1 is
  // reflection_): process-wide switches, read by the builder.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address.grpc_target(), grpc::InsecureServerCredentials(), &port_);
  builder.RegisterService(handler_.get());
  builder.RegisterService(cuzk_.get());
  builder.RegisterService(reflection_.get());
  builder.SetMaxReceiveMessageSize(static_cast<int>(config.max_request_bytes));
  server_ = builder.BuildAndStart();
  if (server_ == nullptr) throw config::ConfigError("cannot listen on " + config.listen);
  set_serving(true);
  if (address.unix_socket) {
    // Only the daemon's user (and group) may connect.
    std::filesystem::permissions(address.path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                                                   std::filesystem::perms::group_read |
                                                   std::filesystem::perms::group_write);
    port_ = 0;
  }
}

GrpcServer::~GrpcServer() { shutdown(std::chrono::seconds(0)); }

void GrpcServer::set_serving(bool serving) {
  grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService();
  health->SetServingStatus("", serving);
  health->SetServingStatus(std::string(Prover::service_full_name()), serving);
  health->SetServingStatus(std::string(cuzk::v1::ProvingEngine::service_full_name()), serving);
}

std::size_t GrpcServer::drain(std::chrono::duration<double> deadline) {
  set_serving(false);
  return service_.drain(deadline);
}

void GrpcServer::shutdown(std::chrono::duration<double> deadline) {
  if (stopped_) return;
  stopped_ = true;
  server_->Shutdown(std::chrono::system_clock::now() +
                    std::chrono::duration_cast<std::chrono::system_clock::duration>(deadline));
  server_->Wait();
}

}  // namespace zkpipe::service::api
