#include <gtest/gtest.h>

#include <random>

#include "r1cs/proving_assignment.hpp"
#include "gadgets/sha256.hpp"
#include "hash/sha256.hpp"
#include "r1cs/test_system.hpp"
#include "test_util.hpp"

namespace zkpipe::r1cs {
namespace {

using testing::bytes_of;
using testing::hex_of;

std::string native_hex(const std::vector<std::uint8_t>& msg) {
  const sha256::Digest d = sha256::hash(msg);
  return hex_of({d.begin(), d.end()});
}

std::string circuit_hex(ConstraintSystem& cs, const std::vector<std::uint8_t>& msg) {
  const std::vector<Boolean> bits = alloc_bits(cs, bytes_to_bits_be(msg));
  return hex_of(bits_to_bytes_be(values_of(sha256::hash(cs, bits))));
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
    TestSystem cs;
    EXPECT_EQ(circuit_hex(cs, bytes_of(v.message)), v.digest) << v.message;
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  }
}

TEST(Sha256Gadget, MatchesNativeOnRandomMessages) {
  std::mt19937_64 rng(1);
  for (std::size_t len : {1u, 31u, 55u, 56u, 64u, 100u}) {
    std::vector<std::uint8_t> msg(len);
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
    ProvingAssignment cs;
    EXPECT_EQ(circuit_hex(cs, msg), native_hex(msg)) << len;
    for (std::size_t i = 0; i < cs.num_constraints(); ++i) ASSERT_EQ(cs.a()[i] * cs.b()[i], cs.c()[i]);
  }
}

TEST(Sha256Gadget, CompressionOfAPrivateBlockHasTheExpectedSizeAndNamesFailures) {
  TestSystem cs;
  std::vector<std::uint8_t> block(64, 0x5a);
  const std::vector<Boolean> bits = alloc_bits(cs, bytes_to_bits_be(block));
  const std::size_t before = cs.num_constraints();
  sha256::compress(cs, bits, sha256::initial_state());
  const std::size_t per_block = cs.num_constraints() - before;
  // bellperson's compression is 25 840 constraints from a constant IV (its addmany
  // folds constants a little further); ours must stay within a few percent.
  EXPECT_GT(per_block, 25000u);
  EXPECT_LT(per_block, 27500u);
  ASSERT_TRUE(cs.is_satisfied());
  // Corrupt an intermediate value; the report names where it is used.
  cs.set_aux(Variable::aux(static_cast<std::uint32_t>(cs.num_aux() / 2)), Fr::from_u64(5));
  const auto failure = cs.which_is_unsatisfied();
  ASSERT_TRUE(failure.has_value());
  EXPECT_NE(failure->find("round"), std::string::npos) << *failure;
}

}  // namespace
}  // namespace zkpipe::r1cs
