// Placement estimates from a key and from its circuit's shape alone (what `circuit
// info --device-memory` uses) agree, and order as placement relies on: no GPU needed.
#include <gtest/gtest.h>

#include "circuits/porep_like/porep_circuit.hpp"
#include "groth16/footprint.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "gpu/msm.hpp"
#include "gpu/msm_streamed.hpp"
#include "gpu/placement.hpp"

namespace zkpipe::gpu {
namespace {

TEST(Placement, TheShapeGivesTheKeysQuerySizes) {
  const porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 2027, 1);
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

// What stays resident of the 32 GiB PoRep's key at each budget: all of it on an 80 GB
// card; within 16 GiB nothing beside a partition; in between the queries that save
// the most transfer per byte first (L, A, then B), never H alone; and what is kept
// always leaves the partition, the margin and room for streamed chunks.
TEST(Placement, QueriesStayResidentMostSavedTransferFirst) {
  const std::size_t most = std::size_t{1} << 26;
  const std::size_t gib = std::size_t{1} << 30;
  const QueryResidency h100 = plan_query_residency(kPorep32GiB, most, true, 79 * gib);
  EXPECT_TRUE(h100.all(true));
  EXPECT_EQ(h100.msm_pass_terms, resident_pass_terms(kPorep32GiB, most, true, 79 * gib));
  EXPECT_EQ(h100.names(), "L, A, B (G1), B (G2), H");

  EXPECT_FALSE(plan_query_residency(kPorep32GiB, most, true, 16 * gib).any());
  EXPECT_EQ(plan_query_residency(kPorep32GiB, most, true, 16 * gib).names(), "none");

  // 24 GiB: room for B's G1 points (3.0 GiB), not for L or A (11.6 GiB each).
  const QueryResidency at24 = plan_query_residency(kPorep32GiB, most, true, 24 * gib);
  EXPECT_EQ(at24.names(), "B (G1)");
  // 32 GiB: both of B's; 36 GiB: L first, then B's G1 points in what is left.
  EXPECT_EQ(plan_query_residency(kPorep32GiB, most, true, 32 * gib).names(), "B (G1), B (G2)");
  EXPECT_EQ(plan_query_residency(kPorep32GiB, most, true, 36 * gib).names(), "L, B (G1)");
  // 48 GiB: L and A (the points are 47.6 GiB: not all).
  const QueryResidency at48 = plan_query_residency(kPorep32GiB, most, true, 48 * gib);
  EXPECT_TRUE(at48.l && at48.a);
  EXPECT_FALSE(at48.all(true));
  EXPECT_FALSE(at48.h);

  for (std::size_t budget = 12 * gib; budget <= 80 * gib; budget += gib / 2) {
    const QueryResidency plan = plan_query_residency(kPorep32GiB, most, true, budget);
    if (plan.all(true)) continue;
    EXPECT_FALSE(plan.h) << budget;
    EXPECT_EQ(plan.msm_pass_terms, kMinMsmPassTerms) << budget;
    if (plan.any()) {
      EXPECT_LE(plan.bytes(kPorep32GiB) + least_device_bytes(kPorep32GiB) + device_memory_margin(budget) +
                    streamed_chunk_reserve(kPorep32GiB, true),
                budget)
          << budget;
    }
    // A query of less saving per byte is kept while one of more stays out only when
    // that one is larger (it did not fit in what was left).
    if (plan.a && !plan.l) {
      EXPECT_GT(kPorep32GiB.l, kPorep32GiB.a) << budget;
    }
    if ((plan.b_g1 || plan.b_g2) && !plan.a) {
      EXPECT_GT(kPorep32GiB.a, kPorep32GiB.b_g1) << budget;
    }
  }
  // Without the G2 MSM on the device its points are never planned.
  EXPECT_FALSE(plan_query_residency(kPorep32GiB, most, false, 40 * gib).b_g2);
}

}  // namespace
}  // namespace zkpipe::gpu
