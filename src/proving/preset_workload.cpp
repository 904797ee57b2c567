#include "proving/preset_workload.hpp"

#include <stdexcept>

#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::proving {

std::unique_ptr<r1cs::PartitionedCircuit> make_circuit(const PresetWorkload& workload) {
  if (workload.circuit != "porep-like") {
    throw std::invalid_argument("unknown circuit '" + workload.circuit + "' (known: porep-like)");
  }
  return std::make_unique<r1cs::porep::PorepLikeCircuit>(r1cs::porep::find_preset(workload.preset), workload.seed,
                                                         workload.partitions);
}

}  // namespace zkpipe::proving
