// Filecoin's create_label circuit against rust-fil-proofs
// (storage-proofs-porep/src/stacked/circuit/create_label.rs, test_create_label) and
// against a native label computed here from the same bytes with our SHA-256.
#include <gtest/gtest.h>

#include <random>

#include "circuits/filecoin/porep/create_label_gadget.hpp"
#include "hash/sha256.hpp"
#include "r1cs/test_system.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::filecoin::porep {
namespace {

using gadgets::AllocatedNum;
using gadgets::Boolean;
using r1cs::Fr;
using Bytes32 = std::array<std::uint8_t, 32>;

// An Fr's 32 little-endian bytes (rust-fil-proofs' fr_into_bytes).
Bytes32 fr_bytes(const Fr& x) {
  const auto limbs = x.to_canonical();
  Bytes32 out{};
  for (std::size_t i = 0; i < 32; ++i) out[i] = static_cast<std::uint8_t>(limbs[i / 8] >> (8 * (i % 8)));
  return out;
}

// The label as rust-fil-proofs' vanilla create_label computes it: SHA-256 of
// replica_id ‖ layer (u32 BE) ‖ node (u64 BE) ‖ zeros to 64 bytes ‖ 37 parents, the
// digest's top two bits cleared and read as a little-endian Fr.
Fr native_label(const Bytes32& replica_id, std::uint32_t layer, std::uint64_t node,
                const std::vector<Bytes32>& parents) {
  std::vector<std::uint8_t> buf(replica_id.begin(), replica_id.end());
  for (int i = 3; i >= 0; --i) buf.push_back(static_cast<std::uint8_t>(layer >> (8 * i)));
  for (int i = 7; i >= 0; --i) buf.push_back(static_cast<std::uint8_t>(node >> (8 * i)));
  buf.resize(64, 0);
  for (const Bytes32& p : parents) buf.insert(buf.end(), p.begin(), p.end());
  hash::sha256::Digest d = hash::sha256::hash(buf);
  d[31] &= 0x3f;
  ff::Limbs<4> limbs{};
  for (std::size_t i = 0; i < 32; ++i) limbs[i / 8] |= std::uint64_t{d[i]} << (8 * (i % 8));
  return *Fr::from_canonical(limbs);
}

struct LabelInputs {
  Bytes32 replica_id;
  std::vector<Bytes32> parents;  // 37: the 14 distinct ones repeated, as in the reference test
};

LabelInputs random_inputs(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  LabelInputs in;
  in.replica_id = fr_bytes(Fr::random(rng));
  std::vector<Bytes32> distinct;
  for (int i = 0; i < 14; ++i) distinct.push_back(fr_bytes(Fr::random(rng)));
  for (std::size_t i = 0; i < kCircuitLabelParents; ++i) in.parents.push_back(distinct[i % 14]);
  return in;
}

// The reference test's circuit: the replica id and every parent slot allocated as
// 256 bits each, layer and node constants.
AllocatedNum synthesize(r1cs::ConstraintSystem& cs, const LabelInputs& in, std::uint32_t layer, std::uint64_t node) {
  const std::vector<Boolean> id = gadgets::alloc_bits(cs, gadgets::bytes_to_bits_be(in.replica_id));
  std::vector<std::vector<Boolean>> parents;
  for (const Bytes32& p : in.parents) parents.push_back(gadgets::alloc_bits(cs, gadgets::bytes_to_bits_be(p)));
  return create_label_circuit(cs, id, parents, gadgets::UInt32::constant(layer), gadgets::UInt64::constant(node));
}

// rust-fil-proofs test_create_label: 532 025 constraints (9 728 input bits, 20 SHA-256
// blocks, one packing), the label equal to the vanilla one.
TEST(CreateLabelGadget, Is532025ConstraintsAndEqualsTheNativeLabel) {
  const LabelInputs in = random_inputs(1);
  r1cs::TestSystem cs;
  const AllocatedNum label = synthesize(cs, in, 3, 22);
  EXPECT_EQ(cs.num_constraints(), 532'025u);
  EXPECT_EQ(label.value(), native_label(in.replica_id, 3, 22, in.parents));
  ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();

  // A claimed label other than the hash's is rejected.
  cs.set_aux(label.var(), label.value() + Fr::one());
  EXPECT_FALSE(cs.is_satisfied());
  cs.set_aux(label.var(), label.value());
  // So is a parent bit other than the one hashed (aux 256 + 5: bit 5 of parent 0).
  const r1cs::Variable parent_bit = r1cs::Variable::aux(256 + 5);
  cs.set_aux(parent_bit, cs.aux()[256 + 5].is_zero() ? Fr::one() : Fr::zero());
  EXPECT_FALSE(cs.is_satisfied());
}

TEST(CreateLabelGadget, DependsOnLayerNodeAndEveryParentSlot) {
  const LabelInputs in = random_inputs(2);
  r1cs::WitnessSystem cs;
  const Fr base = synthesize(cs, in, 2, 1000).value();
  EXPECT_EQ(base, native_label(in.replica_id, 2, 1000, in.parents));
  EXPECT_NE(synthesize(cs, in, 3, 1000).value(), base);
  EXPECT_NE(synthesize(cs, in, 2, 1001).value(), base);
  LabelInputs last_slot = in;
  last_slot.parents[36][31] ^= 0x01;
  EXPECT_NE(synthesize(cs, last_slot, 2, 1000).value(), base);
}

// As the stacked circuit uses it: the node an allocated UInt64, the parents the
// 255-bit decompositions of their labels with their bit numbering reversed (the
// 256th bit a constant zero).
TEST(CreateLabelGadget, WithAllocatedNodeAndDecomposedParentLabels) {
  std::mt19937_64 rng(3);
  r1cs::TestSystem cs;
  Bytes32 replica_id = fr_bytes(Fr::random(rng));
  const std::vector<Boolean> id = gadgets::alloc_bits(cs, gadgets::bytes_to_bits_be(replica_id));
  const gadgets::UInt64 node = gadgets::UInt64::alloc(cs, 0x0123456789abcdefULL);
  std::vector<Bytes32> parent_bytes;
  std::vector<std::vector<Boolean>> parents;
  std::vector<std::vector<Boolean>> distinct;
  for (int i = 0; i < 6; ++i) {
    const Fr label = Fr::random(rng);
    const AllocatedNum num = AllocatedNum::alloc(cs, label);
    distinct.push_back(gadgets::reverse_bit_numbering(num.to_bits_le(cs)));
    parent_bytes.push_back(fr_bytes(label));
  }
  std::vector<Bytes32> slots;
  for (std::size_t i = 0; i < kCircuitLabelParents; ++i) {
    parents.push_back(distinct[i % 6]);
    slots.push_back(parent_bytes[i % 6]);
  }
  const AllocatedNum label = create_label_circuit(cs, id, parents, gadgets::UInt32::constant(1), node);
  EXPECT_EQ(label.value(), native_label(replica_id, 1, 0x0123456789abcdefULL, slots));
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
}

TEST(CreateLabelGadget, ValuesOnlySystemComputesTheSameAssignment) {
  const LabelInputs in = random_inputs(4);
  r1cs::TestSystem full;
  r1cs::WitnessSystem values_only;
  synthesize(full, in, 5, 77);
  synthesize(values_only, in, 5, 77);
  EXPECT_EQ(values_only.num_constraints(), full.num_constraints());
  EXPECT_EQ(values_only.aux_values(), full.aux());
}

TEST(CreateLabelGadget, RejectsMalformedArguments) {
  r1cs::WitnessSystem cs;
  const std::vector<Boolean> id(16, Boolean::constant(false));
  const std::vector<std::vector<Boolean>> parents(kCircuitLabelParents, std::vector<Boolean>(256));
  const auto layer = gadgets::UInt32::constant(1);
  const auto node = gadgets::UInt64::constant(1);
  EXPECT_THROW(create_label_circuit(cs, id, parents, layer, node), std::invalid_argument);
  const std::vector<Boolean> good_id(256);
  EXPECT_THROW(create_label_circuit(cs, good_id, std::vector<std::vector<Boolean>>(36), layer, node),
               std::invalid_argument);
  std::vector<std::vector<Boolean>> long_parent = parents;
  long_parent[3].resize(257);
  EXPECT_THROW(create_label_circuit(cs, good_id, long_parent, layer, node), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::porep
