// The Filecoin Poseidon gadget: neptune's constraint counts, agreement with the
// native hash, and the same witness on values-only systems.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "circuits/filecoin/hashers/poseidon_gadget.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "r1cs/shape_system.hpp"
#include "r1cs/test_system.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::filecoin::hashers::poseidon {
namespace {

using r1cs::ShapeSystem;
using r1cs::TestSystem;
using r1cs::WitnessSystem;

struct Count {
  std::size_t arity;
  Strength strength;
  std::size_t constraints;
};

// neptune src/circuit.rs tests::test_poseidon_hash (Legacy circuit, Merkle tag);
// the arity-11 count is storage-proofs-porep src/stacked/circuit/hash.rs
// test_hash_single_column_circuit (598), and arity 2 is also its test_hash2_circuit
// (311). neptune's test also derives each count from its formula
// 3·(t·R_F + R_P − 1) + t·R_F + R_P − arity, which hash_constraint_count restates.
constexpr Count kNeptuneCounts[] = {
    {2, Strength::kStandard, 311},      {4, Strength::kStandard, 377},
    {8, Strength::kStandard, 505},      {11, Strength::kStandard, 598},
    {16, Strength::kStandard, 761},     {24, Strength::kStandard, 1009},
    {36, Strength::kStandard, 1385},    {2, Strength::kStrengthened, 367},
    {4, Strength::kStrengthened, 433},  {8, Strength::kStrengthened, 565},
    {16, Strength::kStrengthened, 821}, {24, Strength::kStrengthened, 1069},
    {36, Strength::kStrengthened, 1445},
};

std::vector<Fr> random_frs(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(Fr::random(rng));
  return v;
}

std::vector<AllocatedNum> alloc_all(ConstraintSystem& cs, const std::vector<Fr>& values) {
  std::vector<AllocatedNum> nums;
  for (const Fr& x : values) nums.push_back(AllocatedNum::alloc(cs, x));
  return nums;
}

TEST(FilecoinPoseidonGadget, ConstraintCountsAndDigestsMatchNeptune) {
  for (const Count& n : kNeptuneCounts) {
    const Constants& c = constants(n.arity, n.strength);
    const std::vector<Fr> inputs = random_frs(n.arity, n.arity);
    TestSystem cs;
    const AllocatedNum out = hash(cs, c, alloc_all(cs, inputs));
    EXPECT_EQ(cs.num_constraints(), n.constraints) << "arity " << n.arity;
    EXPECT_EQ(hash_constraint_count(c), n.constraints) << "arity " << n.arity;
    EXPECT_EQ(out.value(), hash_with_tag(c, merkle_tree_tag(n.arity), inputs)) << "arity " << n.arity;
    EXPECT_EQ(cs.aux().at(out.var().index()), out.value());
    ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  }
}

// Each S-box output and each allocated linear combination is pinned: changing the
// digest, an input of a later S-box, or a first-round square breaks a constraint.
TEST(FilecoinPoseidonGadget, CorruptedWitnessIsCaught) {
  const std::vector<Fr> inputs = random_frs(8, 1);
  for (std::size_t aux : {std::size_t{8}, std::size_t{40}, std::size_t{300}}) {
    TestSystem cs;
    const AllocatedNum out = hash(cs, alloc_all(cs, inputs));
    ASSERT_TRUE(cs.is_satisfied());
    const std::size_t index = aux == 300 ? out.var().index() : aux;
    cs.set_aux(r1cs::Variable::aux(static_cast<std::uint32_t>(index)), cs.aux()[index] + Fr::one());
    EXPECT_FALSE(cs.is_satisfied()) << "aux " << index;
  }
}

// The values-only path allocates the same variables in the same order and reports
// the same number of constraints.
TEST(FilecoinPoseidonGadget, ValuesOnlySystemsGetTheSameWitness) {
  for (std::size_t arity : {2u, 11u}) {
    const std::vector<Fr> inputs = random_frs(arity, 7 + arity);
    TestSystem full;
    const AllocatedNum a = hash(full, alloc_all(full, inputs));
    WitnessSystem values;
    const AllocatedNum b = hash(values, alloc_all(values, inputs));
    EXPECT_EQ(a.value(), b.value());
    EXPECT_EQ(values.num_constraints(), full.num_constraints());
    EXPECT_EQ(values.aux_values(), full.aux());
    ShapeSystem shape;
    hash(shape, alloc_all(shape, inputs));
    EXPECT_EQ(shape.num_constraints(), full.num_constraints());
    EXPECT_EQ(shape.num_aux(), full.num_aux());
  }
}

// filecoin-hashers src/poseidon.rs tests::test_hash_md_circuit: 71 ones, 2 770
// constraints, the native hash_md's digest.
TEST(FilecoinPoseidonGadget, HashMdMatchesFilecoinHashers) {
  const std::vector<Fr> ones(71, Fr::one());
  TestSystem cs;
  const AllocatedNum out = hash_md(cs, alloc_all(cs, ones));
  EXPECT_EQ(cs.num_constraints(), 2770u);
  EXPECT_EQ(out.value(), hash_md(ones));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(FilecoinPoseidonGadget, HashMdPadsTheLastChunkWithZeros) {
  const std::vector<Fr> inputs = random_frs(40, 3);
  TestSystem cs;
  const AllocatedNum out = hash_md(cs, alloc_all(cs, inputs));
  EXPECT_EQ(out.value(), hash_md(inputs));
  EXPECT_EQ(cs.num_constraints(), 2 * 1385u);
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(FilecoinPoseidonGadget, RejectsAPreimageOfTheWrongLength) {
  TestSystem cs;
  const std::vector<AllocatedNum> three = alloc_all(cs, random_frs(3, 5));
  EXPECT_THROW(hash(cs, constants(2), three), std::invalid_argument);
  EXPECT_THROW(hash(cs, three), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::hashers::poseidon
