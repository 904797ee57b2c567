#include "groth16/point_array.hpp"

#include <stdexcept>
#include <string>

namespace zkpipe::groth16 {

void throw_points_on_device(int device) {
  throw std::logic_error("these key points live only on device " + std::to_string(device) +
                         " (set up there); this step needs them in host memory");
}

}  // namespace zkpipe::groth16
