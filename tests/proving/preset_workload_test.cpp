// The shape circuits `circuit info`, the bench and the daemon count and size from:
// every value zero, yet the same constraints, inputs and private variables as the
// circuit made from a workload's input, and the same declared wide values.
#include "proving/preset_workload.hpp"

#include <gtest/gtest.h>

#include "groth16/synthesis.hpp"

namespace zkpipe::proving {
namespace {

TEST(ShapeCircuit, CountsAsTheCircuitMadeFromTheWorkloadsInput) {
  for (const char* circuit : {"filecoin-porep", "filecoin-window-post", "filecoin-snapdeals-poseidon"}) {
    SCOPED_TRACE(circuit);
    const PresetWorkload workload{.circuit = circuit, .preset = "2KiB", .seed = 3, .partitions = 1};
    const auto shape = make_shape_circuit(workload);
    const auto made = make_circuit(workload);
    const groth16::CircuitShape counted = groth16::count_shape(*shape);
    const groth16::CircuitShape expected = groth16::count_shape(*made);
    EXPECT_EQ(counted.constraints, expected.constraints);
    EXPECT_EQ(counted.inputs, expected.inputs);
    EXPECT_EQ(counted.aux, expected.aux);
    EXPECT_EQ(shape->wide_aux_bound(counted.aux), made->wide_aux_bound(expected.aux));
  }
}

}  // namespace
}  // namespace zkpipe::proving
