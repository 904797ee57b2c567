// Filecoin's Poseidon outside the circuit against the references' own vectors.
#include <gtest/gtest.h>

#include <vector>

#include "circuits/filecoin/hashers/poseidon_constants.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin_test_util.hpp"

namespace zkpipe::filecoin::hashers::poseidon {
namespace {

using testing::fr_from_be_hex;
using testing::fr_from_u64s;

std::vector<Fr> counting(std::size_t n) {
  std::vector<Fr> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(Fr::from_u64(i));
  return v;
}

struct ArityVector {
  std::size_t arity;
  std::array<std::uint64_t, 4> digest;
};

// neptune src/poseidon.rs, tests::hash_values_aux: the Merkle-tagged hash of
// (0, 1, …, arity − 1), Strength::Standard.
constexpr ArityVector kMerkleStandard[] = {
    {2, {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}},
    {4, {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a}},
    {8, {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55}},
    {11, {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28}},
    {16, {0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a}},
    {24, {0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15}},
    {36, {0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f}},
};

// The same test, Strength::Strengthened.
constexpr ArityVector kMerkleStrengthened[] = {
    {2, {0x793dbaf54552cd69, 0x5278ecbf17040ea6, 0xc48b36ecc4cab748, 0x33d28a753baee41b}},
    {4, {0x4650ee190212aa9a, 0xe5113a254d6f5c7e, 0x54013bdaf68ba4c2, 0x09d8207c51ca3f43}},
    {8, {0x9f0c3c93c3fc894e, 0xe843d4cfba662df1, 0xd69aae8fe1cb63e8, 0x69e61465981ae17e}},
    {11, {0x778af344d8f9e8b7, 0xc94fe2ca3f46d433, 0x07abbcf9b406e8d8, 0x28bb83ff439753c0}},
    {16, {0x3cc2664c5fd6ae07, 0xd7431eaaa5e43189, 0x43ba5f418c6ef01d, 0x68d7856395aa217e}},
    {24, {0x1df1da58827cb39d, 0x0566756b7b80fb10, 0x222eb82c6666be3d, 0x086e4e81a35bfd92}},
    {36, {0x636401e9371dc311, 0x8f69e35a702ed188, 0x64d73b2ddc03d43b, 0x609f8c6fe45cc054}},
};

// The same test's constant-length digests: ConstantLength(4) tag, preimage
// (0, 1, 2, 3) zero padded to the arity (the arities of at least 4, where neptune
// checks the simple hash against its sponge), Strength::Standard.
constexpr ArityVector kConstantLength4Standard[] = {
    {4, {0x8935b00a07909d45, 0x4984de08542c9977, 0x39443980077d7593, 0x3a21a6ae86754a29}},
    {8, {0x370a94532f818897, 0x203e3c7c4a85c1f9, 0xcad8b9f8aeb1578f, 0x5c6de4b69de9d792}},
    {11, {0xe9b0cb7d6496f73b, 0x7d2807d793af9582, 0xef841b6bf51a5a39, 0x02550c3a2113c7ca}},
    {16, {0x6a1e563d359c1bdd, 0x6b4493d5d40be9d3, 0x275a6eb04a0ecb37, 0x30ec6fa0fec08504}},
    {24, {0xc540772c5968a299, 0xe2e556352af20f97, 0x15ed0a6b8faba5aa, 0x327bdee6fa2b22b6}},
    {36, {0x7d89cddb70217dcd, 0x02ae71d3d04f0b32, 0xfe52151f29c50f99, 0x626bdae6cad79307}},
};

// And Strength::Strengthened.
constexpr ArityVector kConstantLength4Strengthened[] = {
    {4, {0xa31d9dc66a42f972, 0xb5be830aae89db0d, 0xdff9a095d1d40420, 0x466e7819bb809c44}},
    {8, {0x6f2c393786312ee2, 0xadb6da339b87e590, 0xbf626c21fd6cb051, 0x0bb12009ab1fb62a}},
    {11, {0x6d14b130d0fc1ed5, 0x96e16aa48efc68a9, 0xf199e67d4e6e4bc7, 0x5ee31c86cd42e810}},
    {16, {0x7dbe8ac03eb7fb25, 0xeb53bd55f5095e4e, 0x5bc3390694ee8251, 0x4611720250274a29}},
    {24, {0xe2ed71355cbe9268, 0x2400a67b915b45fa, 0xaa5f37dd1685188e, 0x1075afe1e62be162}},
    {36, {0x8d6f2e5faf077152, 0xd3cd55eeec46751a, 0x4fc92a1baa0ee777, 0x4ed7c0e22446987f}},
};

TEST(FilecoinPoseidon, MerkleTreeDigestsMatchNeptune) {
  for (const ArityVector& v : kMerkleStandard) {
    EXPECT_EQ(hash(counting(v.arity)), fr_from_u64s(v.digest)) << "arity " << v.arity;
  }
  for (const ArityVector& v : kMerkleStrengthened) {
    const Constants& c = constants(v.arity, Strength::kStrengthened);
    EXPECT_EQ(hash_with_tag(c, merkle_tree_tag(v.arity), counting(v.arity)), fr_from_u64s(v.digest))
        << "arity " << v.arity;
  }
}

TEST(FilecoinPoseidon, ConstantLengthDigestsMatchNeptune) {
  for (const ArityVector& v : kConstantLength4Standard) {
    EXPECT_EQ(hash_with_tag(constants(v.arity), constant_length_tag(4), counting(4)), fr_from_u64s(v.digest))
        << "arity " << v.arity;
  }
  for (const ArityVector& v : kConstantLength4Strengthened) {
    const Constants& c = constants(v.arity, Strength::kStrengthened);
    EXPECT_EQ(hash_with_tag(c, constant_length_tag(4), counting(4)), fr_from_u64s(v.digest)) << "arity " << v.arity;
  }
}

// neptune src/hash_type.rs, tests::test_domain_tags.
TEST(FilecoinPoseidon, DomainTagsMatchNeptune) {
  EXPECT_EQ(merkle_tree_tag(8), fr_from_u64s({0xff, 0, 0, 0}));
  for (std::uint64_t length = 1; length < 15; ++length) {
    EXPECT_EQ(constant_length_tag(length), fr_from_u64s({0, length, 0, 0}));
  }
}

// neptune parameters/round_constants-1-1-255-9-8-57-73EDA…0001.txt, the output of the
// Poseidon authors' create_rcs_grain.sage for field 1, S-box 1, n = 255, t = 9,
// R_F = 8, R_P = 57 (neptune's arity-8 instance): constants 1, 2, 100, 584, 585.
TEST(FilecoinPoseidon, ArityEightRoundConstantsMatchTheGrainScript) {
  const std::vector<Fr>& rc = constants(8).plain.round_constants;
  ASSERT_EQ(rc.size(), 585u);
  EXPECT_EQ(rc[0], fr_from_be_hex("0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"));
  EXPECT_EQ(rc[1], fr_from_be_hex("0x0ccd9b480c84022b25a75b52c8e89d80b4fa6378d32e58f3a175504940bcec39"));
  EXPECT_EQ(rc[99], fr_from_be_hex("0x09607e183758efcfd09e675d736eaa5ca65e3983e49405a10a5978335899d749"));
  EXPECT_EQ(rc[583], fr_from_be_hex("0x5861985c6ad8159e1a4f056d02df583d9c79c96bae8c3b9313812b4e0b3bda60"));
  EXPECT_EQ(rc[584], fr_from_be_hex("0x3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c"));
}

// neptune src/round_numbers.rs test_round_numbers_against_known_values (by width
// t = arity + 1) and src/lib.rs test_strengthened_round_numbers (by arity).
TEST(FilecoinPoseidon, RoundNumbersMatchNeptune) {
  struct Rounds {
    std::size_t arity, standard, strengthened;
  };
  for (const Rounds& r : {Rounds{2, 55, 69}, Rounds{4, 56, 70}, Rounds{8, 57, 72}, Rounds{11, 57, 72},
                          Rounds{16, 59, 74}, Rounds{24, 59, 74}, Rounds{36, 60, 75}}) {
    EXPECT_EQ(full_rounds(r.arity), 8u);
    EXPECT_EQ(partial_rounds(r.arity, Strength::kStandard), r.standard) << "arity " << r.arity;
    EXPECT_EQ(partial_rounds(r.arity, Strength::kStrengthened), r.strengthened) << "arity " << r.arity;
  }
}

// filecoin-hashers src/poseidon.rs, tests::test_poseidon_hasher: the binary Poseidon
// tree over leaves (1, 0, 0, 1): its first node and its root.
TEST(FilecoinPoseidon, BinaryTreeNodesMatchFilecoinHashers) {
  const Fr one = Fr::one();
  const Fr zero = Fr::zero();
  const Fr left = hash(std::vector<Fr>{one, zero});
  const Fr right = hash(std::vector<Fr>{zero, one});
  EXPECT_EQ(left, fr_from_u64s({0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3}));
  EXPECT_EQ(hash(std::vector<Fr>{left, right}),
            fr_from_u64s({0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb}));
}

// filecoin-hashers src/poseidon.rs, tests::test_hash_md: 71 ones.
TEST(FilecoinPoseidon, HashMdMatchesFilecoinHashers) {
  const std::vector<Fr> ones(71, Fr::one());
  EXPECT_EQ(hash_md(ones), fr_from_u64s({0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7}));
}

TEST(FilecoinPoseidon, RejectsWhatTheReferenceRejects) {
  EXPECT_THROW(hash(counting(3)), std::invalid_argument);
  EXPECT_THROW(hash_md(counting(1)), std::invalid_argument);
  EXPECT_THROW(hash_with_tag(constants(2), Fr::zero(), counting(3)), std::invalid_argument);
  EXPECT_THROW(constants(5), std::invalid_argument);
}

// The optimized circuit's constants reproduce the plain permutation: neptune's
// identities M = M'·M'' for the sparse factors, and the compressed constants'
// length 8·t + R_P.
TEST(FilecoinPoseidon, DerivedConstantsHaveNeptunesShape) {
  for (std::size_t arity : {2u, 4u, 8u, 11u}) {
    const Constants& c = constants(arity);
    EXPECT_EQ(c.compressed_round_constants.size(), 8 * c.width() + c.partial_rounds());
    EXPECT_EQ(c.sparse_matrices.size(), c.partial_rounds());
    EXPECT_EQ(c.compressed_round_constants.front(), c.plain.round_constants.front());
    for (const SparseMatrix& s : c.sparse_matrices) {
      EXPECT_EQ(s.w_hat.size(), c.width());
      EXPECT_EQ(s.v_rest.size(), arity);
    }
  }
}

}  // namespace
}  // namespace zkpipe::filecoin::hashers::poseidon
