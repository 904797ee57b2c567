// The error a prover backend throws when its device, not the witness or the key,
// failed (a CUDA runtime error, a lost device): the engine then stops giving that
// device work and proves the partition on another one, instead of failing the
// request. Any other exception from start() or finish() is the request's fault.
#pragma once

#include <stdexcept>

namespace zkpipe::groth16 {

class DeviceFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace zkpipe::groth16
