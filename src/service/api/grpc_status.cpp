#include "service/api/grpc_status.hpp"

namespace zkpipe::service::api {

namespace {

// Compares without an early exit, so that the time taken does not tell how much of
// a guessed token was right (its length is not a secret).
bool same_token(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

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

bool authorized(const grpc::CallbackServerContext& ctx, std::string_view token) {
  if (token.empty()) return true;
  const auto& metadata = ctx.client_metadata();
  const auto it = metadata.find("authorization");
  if (it == metadata.end()) return false;
  const std::string_view value(it->second.data(), it->second.size());
  return value.starts_with("Bearer ") && same_token(value.substr(7), token);
}

}  // namespace zkpipe::service::api
