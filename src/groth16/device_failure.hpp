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

// The error a backend throws when a partition does not fit in its device's memory
// (what the device holds for keys, plus what the partition needs): the device is
// sound and keeps proving what fits, so it is the request's failure, not a
// DeviceFailure.
class DeviceOutOfMemory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace zkpipe::groth16
