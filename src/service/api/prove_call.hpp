// One Prove call, for zkpipe.v1's and cuzk.v1's: the job is submitted on a call
// thread, then the call is parked in the await registry (no thread held) until the
// job ends. A client that leaves first cancels its job: nobody else knows its id.
// The reactor keeps itself alive until gRPC is done with it (OnDone), and a little
// longer while a thread or the registry still holds it.
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "service/api/call_threads.hpp"
#include "service/api/grpc_status.hpp"
#include "service/api/peer_limit.hpp"
#include "service/await_registry.hpp"
#include "service/proving_service.hpp"

namespace zkpipe::service::api {

class ProveCall final : public grpc::ServerUnaryReactor, public std::enable_shared_from_this<ProveCall> {
 public:
  // What the API's submit made: the service's job, how its answer fills the API's
  // response, and how the API cancels it.
  struct Submitted {
    std::uint64_t job = 0;
    std::function<grpc::Status(const AwaitAnswer&)> answer;
    std::function<void()> cancel;
  };
  // Runs on a call thread; a ServiceError it throws is the call's status.
  using Submit = std::function<Submitted()>;

  ProveCall(ProvingService& service, CallThreads& calls, PeerLimit::Slot slot, Submit submit);

  // Called by the method handler: gRPC calls OnCancel only after it returns.
  void start();
  void OnCancel() override;
  void OnDone() override;

 private:
  // On a call thread.
  void submit();
  // On a call thread (the cancel blocks until the engine has retired the job).
  void abandon();

  ProvingService& service_;
  CallThreads& calls_;
  PeerLimit::Slot slot_;
  Submit submit_;
  std::shared_ptr<ProveCall> self_;
  std::mutex mutex_;
  Submitted submitted_;
  std::optional<AwaitRegistry::Ticket> ticket_;
  bool left_ = false;
};

inline ProveCall::ProveCall(ProvingService& service, CallThreads& calls, PeerLimit::Slot slot, Submit submit)
    : service_(service), calls_(calls), slot_(std::move(slot)), submit_(std::move(submit)) {}

inline void ProveCall::start() {
  self_ = shared_from_this();
  if (!calls_.try_run([self = shared_from_this()] { self->submit(); })) Finish(busy(calls_));
}

inline void ProveCall::OnCancel() {
  {
    std::lock_guard lock(mutex_);
    left_ = true;
    if (!ticket_) return;  // still submitting: submit() sees left_
  }
  // The cancel blocks: on a thread of its own, or here when none can be had.
  if (!calls_.run([self = shared_from_this()] { self->abandon(); })) abandon();
}

inline void ProveCall::OnDone() {
  slot_.reset();
  const auto last = std::move(self_);
}

inline void ProveCall::submit() {
  // Released once run: the request it holds (vanilla proofs, megabytes) is not kept
  // while the job runs.
  const Submit submit = std::move(submit_);
  Submitted submitted;
  if (const grpc::Status refused = guarded([&] { submitted = submit(); }); !refused.ok()) {
    Finish(refused);
    return;
  }
  const auto ticket = service_.await_async(submitted.job, std::nullopt,
                                           [self = shared_from_this(), answer = submitted.answer](AwaitAnswer a) {
                                             self->Finish(answer(a));
                                           });
  bool left = false;
  {
    std::lock_guard lock(mutex_);
    submitted_ = std::move(submitted);
    ticket_ = ticket;
    left = left_;
  }
  if (left) abandon();
}

inline void ProveCall::abandon() {
  std::optional<AwaitRegistry::Ticket> ticket;
  {
    std::lock_guard lock(mutex_);
    ticket = ticket_;
  }
  if (!ticket || !service_.cancel_await(*ticket)) return;  // answered already
  guarded([&] { submitted_.cancel(); });
  Finish(kClientLeft);
}

}  // namespace zkpipe::service::api
