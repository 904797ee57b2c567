// What both gRPC services of the daemon (zkpipe.v1.Prover, cuzk.v1.ProvingEngine)
// share: ServiceError kinds as status codes, a call's exceptions as its status, and
// the bearer-token check.
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>

#include "formats/excerpt.hpp"
#include "service/api/call_threads.hpp"
#include "service/errors.hpp"

namespace zkpipe::service::api {

// Blocking calls (submit, cancel, status, ...) one service runs at once; one more
// gets RESOURCE_EXHAUSTED.
inline constexpr std::size_t kMaxBlockingCalls = 512;

// The most characters of a status message: it travels in the response's metadata,
// which clients cap (gRPC's default: 8 KiB), so a message echoing a long id or path
// must not turn NOT_FOUND into the client's RESOURCE_EXHAUSTED. Ids and paths are cut
// shorter where they are named (formats::excerpt); this bounds what is left.
inline constexpr std::size_t kMaxStatusMessage = 2000;

grpc::StatusCode code_of(ErrorKind kind);
inline grpc::Status status_of(const ServiceError& e) {
  return {code_of(e.kind()), formats::excerpt(e.what(), kMaxStatusMessage)};
}

// Runs `call`, mapping what it throws onto a status.
template <typename F>
grpc::Status guarded(F&& call) {
  try {
    call();
    return grpc::Status::OK;
  } catch (const ServiceError& e) {
    return status_of(e);
  } catch (const std::exception& e) {
    return {grpc::StatusCode::INTERNAL, formats::excerpt(e.what(), kMaxStatusMessage)};
  }
}

// True when no token is required, or the call carries "authorization: Bearer <token>".
bool authorized(const grpc::CallbackServerContext& ctx, std::string_view token);

inline const grpc::Status kUnauthenticated{grpc::StatusCode::UNAUTHENTICATED, "a valid bearer token is required"};
inline const grpc::Status kClientLeft{grpc::StatusCode::CANCELLED, "the client cancelled the call"};

// A call that found every one of the service's call threads taken.
inline grpc::Status busy(const CallThreads& calls) {
  return {grpc::StatusCode::RESOURCE_EXHAUSTED, "the daemon takes no more calls now (at most " +
                                                    std::to_string(calls.limit()) + " run at once); try again shortly"};
}

}  // namespace zkpipe::service::api
