#include <gtest/gtest.h>

#include <random>

#include "gadgets/num.hpp"
#include "gadgets/sha256.hpp"
#include "hash/sha256.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_system.hpp"
#include "r1cs/witness_system.hpp"
#include "test_util.hpp"

namespace zkpipe::gadgets {
namespace {

using testing::bytes_of;
using testing::hex_of;

std::string native_hex(const std::vector<std::uint8_t>& msg) {
  const hash::sha256::Digest d = hash::sha256::hash(msg);
  return hex_of({d.begin(), d.end()});
}

std::string circuit_hex(r1cs::ConstraintSystem& cs, const std::vector<std::uint8_t>& msg) {
  const std::vector<Boolean> bits = alloc_bits(cs, bytes_to_bits_be(msg));
  return hex_of(bits_to_bytes_be(values_of(sha256::hash(cs, bits))));
}

std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

struct Vector {
  std::string message;
  std::string digest;
};

// FIPS 180-4 examples (one block, empty, two blocks) and the 896-bit two-block one.
const std::vector<Vector> kFipsVectors = {
    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
};

TEST(Sha256Native, FipsVectors) {
  for (const Vector& v : kFipsVectors) EXPECT_EQ(native_hex(bytes_of(v.message)), v.digest) << v.message;
}

TEST(Sha256Gadget, FipsVectors) {
  for (const Vector& v : kFipsVectors) {
    r1cs::TestSystem cs;
    EXPECT_EQ(circuit_hex(cs, bytes_of(v.message)), v.digest) << v.message;
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  }
}

// bellperson src/gadgets/sha256.rs test_against_vectors: 0..31 bytes, then every
// multiple of 8 up to 248, against the native hash.
TEST(Sha256Gadget, MatchesNativeOnRandomMessages) {
  std::mt19937_64 rng(1);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n < 32; ++n) lengths.push_back(n);
  for (std::size_t n = 32; n < 256; n += 8) lengths.push_back(n);
  for (std::size_t len : lengths) {
    const std::vector<std::uint8_t> msg = random_bytes(rng, len);
    r1cs::ProvingAssignment cs;
    EXPECT_EQ(circuit_hex(cs, msg), native_hex(msg)) << len;
    for (std::size_t i = 0; i < cs.num_constraints(); ++i) ASSERT_EQ(cs.a()[i] * cs.b()[i], cs.c()[i]) << len;
  }
}

// bellperson src/gadgets/sha256.rs test_blank_hash: a constant block (the empty
// message's padding) from the constant IV costs no constraint.
TEST(Sha256Gadget, ConstantBlockCostsNothing) {
  r1cs::TestSystem cs;
  std::vector<bool> block(512, false);
  block[0] = true;
  const sha256::WordState out = sha256::compress(cs, constant_bits(block), sha256::initial_state());
  EXPECT_EQ(cs.num_constraints(), 0u);
  std::vector<Boolean> digest;
  for (const UInt32& w : out) {
    for (const Boolean& b : w.bits_be()) digest.push_back(b);
  }
  EXPECT_EQ(hex_of(bits_to_bytes_be(values_of(digest))), kFipsVectors[1].digest);
}

// bellperson src/gadgets/sha256.rs test_full_block: one compression of 512 allocated
// bits from the IV is 25 840 constraints (after the 512 booleanity ones).
TEST(Sha256Gadget, FullBlockIsBellpersons25840Constraints) {
  std::mt19937_64 rng(2);
  r1cs::TestSystem cs;
  const std::vector<Boolean> bits = alloc_bits(cs, bytes_to_bits_be(random_bytes(rng, 64)));
  sha256::compress(cs, bits, sha256::initial_state());
  EXPECT_EQ(cs.num_constraints() - 512, 25840u);
  EXPECT_TRUE(cs.is_satisfied());
}

// bellperson src/gadgets/sha256.rs test_full_hash: the padded hash of 512 allocated
// bits (a second, constant-message block) is 44 874 constraints.
TEST(Sha256Gadget, FullHashIsBellpersons44874Constraints) {
  std::mt19937_64 rng(3);
  r1cs::TestSystem cs;
  const std::vector<std::uint8_t> msg = random_bytes(rng, 64);
  EXPECT_EQ(circuit_hex(cs, msg), native_hex(msg));
  EXPECT_EQ(cs.num_constraints() - 512, 44874u);
  EXPECT_TRUE(cs.is_satisfied());
}

// rust-fil-proofs storage-proofs-core/src/util.rs hash_leaf_bits_circuit: two 256-bit
// nodes given least-significant-bit first in each byte, hashed as bytes and the
// digest packed into Fr (254 bits): 45 387 constraints, equal to the native node hash
// (filecoin-hashers sha256: digest with the top two bits of byte 31 cleared, read
// little-endian).
TEST(Sha256Gadget, FilecoinNodeHashIs45387Constraints) {
  std::mt19937_64 rng(4);
  const std::vector<std::uint8_t> left = random_bytes(rng, 32);
  const std::vector<std::uint8_t> right = random_bytes(rng, 32);
  r1cs::TestSystem cs;
  auto le_bits = [&](const std::vector<std::uint8_t>& bytes) {
    std::vector<bool> bits;
    for (std::uint8_t byte : bytes) {
      for (int i = 0; i < 8; ++i) bits.push_back(((byte >> i) & 1) != 0);
    }
    return alloc_bits(cs, bits);
  };
  std::vector<Boolean> preimage = reverse_bit_numbering(le_bits(left));
  const std::vector<Boolean> right_be = reverse_bit_numbering(le_bits(right));
  preimage.insert(preimage.end(), right_be.begin(), right_be.end());
  const std::vector<Boolean> digest = reverse_bit_numbering(sha256::hash(cs, preimage));
  const AllocatedNum node = alloc_packed(cs, std::span(digest).first(254));
  EXPECT_EQ(cs.num_constraints(), 45387u);
  EXPECT_TRUE(cs.is_satisfied());

  std::vector<std::uint8_t> message = left;
  message.insert(message.end(), right.begin(), right.end());
  hash::sha256::Digest expected = hash::sha256::hash(message);
  expected[31] &= 0x3f;
  ff::Limbs<4> limbs{};
  for (std::size_t i = 0; i < 32; ++i) limbs[i / 8] |= std::uint64_t{expected[i]} << (8 * (i % 8));
  EXPECT_EQ(node.value(), *ff::Fr::from_canonical(limbs));
}

TEST(Sha256Gadget, TamperedIntermediateValueIsRejectedAndNamed) {
  r1cs::TestSystem cs;
  std::vector<std::uint8_t> block(64, 0x5a);
  const std::vector<Boolean> bits = alloc_bits(cs, bytes_to_bits_be(block));
  sha256::compress(cs, bits, sha256::initial_state());
  ASSERT_TRUE(cs.is_satisfied());
  // Corrupt an intermediate value; the report names where it is used.
  cs.set_aux(r1cs::Variable::aux(static_cast<std::uint32_t>(cs.num_aux() / 2)), ff::Fr::from_u64(5));
  const auto failure = cs.which_is_unsatisfied();
  ASSERT_TRUE(failure.has_value());
  EXPECT_NE(failure->find("round"), std::string::npos) << *failure;
}

TEST(Sha256Gadget, FlippedMessageBitGivesAnotherDigestOrAnUnsatisfiedSystem) {
  r1cs::TestSystem cs;
  const std::vector<std::uint8_t> msg = bytes_of("abc");
  const std::vector<Boolean> bits = alloc_bits(cs, bytes_to_bits_be(msg));
  const std::vector<Boolean> digest = sha256::hash(cs, bits);
  ASSERT_TRUE(cs.is_satisfied());
  // The witness is fixed: claiming another message bit breaks a constraint.
  cs.set_aux(bits[5].variable(), bits[5].value() ? ff::Fr::zero() : ff::Fr::one());
  EXPECT_FALSE(cs.is_satisfied());
}

// Messages with constant bits (as Filecoin's labels have: layer, padding) give words
// of mixed constant, plain and negated bits; the values-only fast paths must
// allocate exactly what the recording path does.
TEST(Sha256Gadget, ValuesOnlySystemComputesTheSameAssignment) {
  std::mt19937_64 rng(5);
  auto run = [](r1cs::ConstraintSystem& cs, std::uint64_t seed) {
    std::mt19937_64 r(seed);
    std::vector<Boolean> msg;
    for (int i = 0; i < 1200; ++i) {
      const bool v = (r() & 1) != 0;
      msg.push_back((i / 96) % 3 == 1 ? Boolean::constant(v) : Boolean::alloc(cs, v));
    }
    return values_of(sha256::hash(cs, msg));
  };
  const std::uint64_t seed = rng();
  r1cs::TestSystem full;
  r1cs::WitnessSystem values_only;
  EXPECT_EQ(run(full, seed), run(values_only, seed));
  EXPECT_TRUE(full.is_satisfied());
  EXPECT_EQ(values_only.num_constraints(), full.num_constraints());
  EXPECT_EQ(values_only.aux_values(), full.aux());
}

}  // namespace
}  // namespace zkpipe::gadgets
