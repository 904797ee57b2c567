// Placement estimates from a key and from its circuit's shape alone (what `circuit
// info --device-memory` uses) agree, and order as placement relies on: no GPU needed.
#include <gtest/gtest.h>

#include "circuits/porep_like/porep_circuit.hpp"
#include "groth16/footprint.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "gpu/msm.hpp"
#include "gpu/placement.hpp"

namespace zkpipe::gpu {
namespace {

TEST(Placement, TheShapeGivesTheKeysQuerySizes) {
  const r1cs::porep::PorepLikeCircuit circuit(r1cs::porep::find_preset("tiny"), 2027, 1);
  const groth16::ProvingKey key =
      groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(9));
  const KeyQuerySizes from_key = KeyQuerySizes::of(key);
  const KeyQuerySizes from_shape = KeyQuerySizes::of(groth16::CircuitShape::of(key));
  EXPECT_EQ(from_shape.domain, from_key.domain);
  EXPECT_EQ(from_shape.a, from_key.a);
  EXPECT_EQ(from_shape.b_g1, from_key.b_g1);
  EXPECT_EQ(from_shape.b_g2, from_key.b_g2);
  EXPECT_EQ(from_shape.l, from_key.l);
  EXPECT_EQ(from_shape.h, from_key.h);
  // Resident needs the points beside the working set; streamed needs less than that
  // whenever the points outweigh one streamed chunk's buffers.
  const std::size_t points = resident_point_bytes(from_key, true);
  EXPECT_EQ(points, resident_point_bytes(from_key, false) + from_key.b_g2 * sizeof(G2AffineWords));
  EXPECT_GT(resident_need(from_key, std::size_t{1} << 26, true, std::size_t{16} << 30),
            points + working_bytes(from_key));
  EXPECT_GT(least_device_bytes(from_key), working_bytes(from_key));
}

}  // namespace
}  // namespace zkpipe::gpu
