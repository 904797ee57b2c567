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

// The 32 GiB PoRep's query sizes (setup's own figures on the H100, 2026-12-06).
constexpr KeyQuerySizes kPorep32GiB{std::size_t{1} << 27, 328,       129753620, 33112282,
                                    33112282,            130169893, (std::size_t{1} << 27) - 1};

TEST(Placement, APartitionOfThe32GiBPorepFitsIn16GiB) {
  // Three vectors of 4 GiB (aux and the scalars in b's and c's after the h step),
  // the NTT's tables, the smallest streamed MSM.
  EXPECT_GT(least_device_bytes(kPorep32GiB), std::size_t{12} << 30);
  EXPECT_LT(least_device_bytes(kPorep32GiB), std::size_t{13} << 30);
  // Its evaluator (8.6 GiB) streams at 16 GiB and at 24 GiB, stays at 80 GiB.
  groth16::CircuitShape shape;
  shape.constraints = 130278869;
  shape.nonzeros = 756736221;
  const std::size_t evaluator = shape.evaluator_bytes();
  EXPECT_FALSE(evaluator_fits(kPorep32GiB, evaluator, std::size_t{16} << 30));
  EXPECT_TRUE(evaluator_fits(kPorep32GiB, evaluator, std::size_t{79} << 30));
}

TEST(Placement, ShorterMsmPassesKeepTheKeyResidentOnAnH100) {
  const std::size_t most = std::size_t{1} << 26;
  // An H200's free memory: the longest passes.
  EXPECT_EQ(resident_pass_terms(kPorep32GiB, most, true, std::size_t{139} << 30), most);
  // An H100's: shorter ones, but resident.
  const auto h100 = resident_pass_terms(kPorep32GiB, most, true, std::size_t{79} << 30);
  ASSERT_TRUE(h100.has_value());
  EXPECT_LT(*h100, most);
  EXPECT_GE(*h100, kMinMsmPassTerms);
  EXPECT_LE(resident_need(kPorep32GiB, *h100, true, std::size_t{79} << 30), std::size_t{79} << 30);
  // A 48 GiB card cannot hold the 47.6 GiB of points beside anything.
  EXPECT_FALSE(resident_pass_terms(kPorep32GiB, most, true, std::size_t{48} << 30).has_value());
}

}  // namespace
}  // namespace zkpipe::gpu
