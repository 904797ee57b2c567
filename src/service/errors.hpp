// What a request did wrong, independent of the RPC layer that reports it (the gRPC
// service maps each kind onto its status code).
#pragma once

#include <stdexcept>
#include <string>

namespace zkpipe::service {

enum class ErrorKind {
  invalid_argument,     // malformed request, unknown preset, bad parameter file
  not_found,            // unknown job id
  permission_denied,    // a path outside the allowed roots
  failed_precondition,  // evicting parameters in use
  resource_exhausted,   // too many jobs, parameters that cannot fit the budget
  unavailable,          // the daemon is draining
};

class ServiceError : public std::runtime_error {
 public:
  ServiceError(ErrorKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace zkpipe::service
