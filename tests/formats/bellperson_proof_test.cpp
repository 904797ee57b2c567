// Filecoin's proof bytes (bellperson's compressed Groth16 proof, partitions
// concatenated): an interop vector from bellman, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "ec/ec_test_util.hpp"
#include "ec/generators.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/serialization.hpp"
#include "formats/bellperson_proof.hpp"
#include "formats/format_error.hpp"
#include "groth16/verifier.hpp"

namespace zkpipe::formats {
namespace {

using ec::test::from_hex;
using ff::Fr;

// A proof made by bellman (zcash's Groth16, whose proof encoding bellperson kept)
// for a circuit with one public input, with its verifying key and input: the
// "1 input" vector of github.com/esuwu/groth16-verifier-bls12381, as Consensys/gnark's
// internal/backend/bls381/groth16/bellman_test.go carries it (base64 there). The key
// is in that project's compressed layout: α₁ (48 B), β₂, γ₂, δ₂ (96 B each), then the
// IC points (48 B each); the input is a big-endian scalar.
const char* const kVerifyingKeyHex =
    "87093cf37814953282c97600e975996bc1fdff1288619689d3112cd0ce6140e331886a71a1cb97ffc99a48399e0a4ddb"
    "a3956268305d3bb641c4084b49ee64ff94c54321792efeca376b4b2a7c20a1632a075e8e2fc59d6de3c8c130ae3ed24d"
    "0052a84d9ca52c36d27f4da472431c6500cf17d88687e242f7d3e2a3be2f0e9c13123531e6d43df60350c3150bb73b6c"
    "a8346c3e712f2af2e6b311edf0b4150641019b63c124563e3977f530d5b4db5be20c1a51d74997e1643acebb062f92f4"
    "198e1cc1fe2d95b87e39b8adf8b9cdfd24139d111ff1f3e974a675b1afee8b7a468bc94c4fa8a8e03ed48e5c31d91742"
    "90117e8ac7cc7fbec70841ac640370d214ab3b6146835e12976eb12c022885d696f0eee011a6a0f09755019dce54b779"
    "0dfd4d919044afbe775dbf16c1a5ec26313bab1c0834bd4a76a038f848985b879d6fbf9af5b6c178e3ed6faed9c6616a"
    "8324cd4bfe286f16a17b33648e4d34cadb30b04360fff11ee9d581259c8b1fe406b1a5368cefd6e16bd1c9986628a3dd"
    "8a93a18b3e1196b7765d882c7c7b1f59fe6fe063932fed77641db8756d7f9b7f67db0a09fafebce9f5db356f395cffeb";
const char* const kProofHex =
    "96f40b53f2aa80586c2e4b7fe42fec72ab3b9d647e798b723dd5a22d506ec7d19b953e0084760c74283041f48972e76f"
    "b2057a7d7a0af8351246027ef8daadf96bdbec6958947a710b2b10873dba4d3bbc372a3bce99953c7f76f946266ef6d0"
    "092bd7d81856b6f91f1e6a83563992210e1150c7debde0352996d27fdf7d344e2a28af03a3ef285dc9933382d9566875"
    "ae5caace721d1573cdef1de90f813481bebfcbaf71b5630286ff7ae7814c834e5b01db9e2adf6e0380447006e991d1c5";
// The input the proof is for, and the one the same test suite expects it to fail with.
const char* const kInputHex = "2dc313dce3a59072f32412822a38f3cd5320fabf85560779d8b96164f0784458";
const char* const kWrongInputHex = "726cd509c4559dc930dd050f8661b8064a697a0e0ae74a0343043d107f85ab5b";

groth16::VerifyingKey reference_key() {
  const std::vector<std::uint8_t> b = from_hex(kVerifyingKeyHex);
  const std::span<const std::uint8_t> bytes(b);
  groth16::VerifyingKey vk;
  vk.alpha_g1 = ec::decode_g1(bytes.subspan(0, 48));
  vk.beta_g2 = ec::decode_g2(bytes.subspan(48, 96));
  vk.gamma_g2 = ec::decode_g2(bytes.subspan(144, 96));
  vk.delta_g2 = ec::decode_g2(bytes.subspan(240, 96));
  for (std::size_t at = 336; at < bytes.size(); at += 48) vk.ic.push_back(ec::decode_g1(bytes.subspan(at, 48)));
  return vk;
}

Fr scalar(const char* hex) {
  const std::vector<std::uint8_t> b = from_hex(hex);
  return Fr::from_bytes_be(std::span<const std::uint8_t, 32>(b.data(), 32)).value();
}

TEST(BellpersonProof, BellmanProofVerifies) {
  const groth16::VerifyingKey vk = reference_key();
  ASSERT_EQ(vk.ic.size(), 2u);
  const std::vector<groth16::Proof> proofs = decode_bellperson_proofs(from_hex(kProofHex), "proof", 1);
  const groth16::PreparedVerifyingKey pvk(vk);
  EXPECT_TRUE(groth16::verify(pvk, proofs[0], std::vector<Fr>{scalar(kInputHex)}));
  EXPECT_FALSE(groth16::verify(pvk, proofs[0], std::vector<Fr>{scalar(kWrongInputHex)}));
  // And our encoding gives bellman's bytes back.
  EXPECT_EQ(encode_bellperson_proofs(proofs), from_hex(kProofHex));
}

std::vector<groth16::Proof> three_proofs() {
  const auto g1 = [](std::uint64_t k) { return ec::mul_vartime(ec::kG1Generator, Fr::from_u64(k)).to_affine(); };
  const auto g2 = [](std::uint64_t k) { return ec::mul_vartime(ec::kG2Generator, Fr::from_u64(k)).to_affine(); };
  return {{g1(2), g2(3), g1(5)}, {g1(7), g2(11), g1(13)}, {g1(17), g2(19), g1(23)}};
}

std::string error_of(std::span<const std::uint8_t> bytes, std::optional<std::size_t> partitions = {}) {
  try {
    decode_bellperson_proofs(bytes, "proof.bin", partitions);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(BellpersonProof, PartitionsConcatenateInOrder) {
  const std::vector<groth16::Proof> proofs = three_proofs();
  const std::vector<std::uint8_t> bytes = encode_bellperson_proofs(proofs);
  ASSERT_EQ(bytes.size(), 3 * 192u);
  const auto second = proofs[1].encode();
  EXPECT_TRUE(std::equal(second.begin(), second.end(), bytes.begin() + 192));
  EXPECT_EQ(decode_bellperson_proofs(bytes, "proof.bin", 3), proofs);
  EXPECT_EQ(decode_bellperson_proofs(bytes, "proof.bin"), proofs);
  EXPECT_EQ(error_of(bytes, 2), "proof.bin: expected 2 partition proofs of 192 bytes (384 bytes), found 576 bytes");
}

TEST(BellpersonProof, DamageNamesPartitionAndOffset) {
  std::vector<std::uint8_t> bytes = encode_bellperson_proofs(three_proofs());
  EXPECT_EQ(error_of(std::span(bytes).first(400)),
            "proof.bin: expected a whole number of 192-byte partition proofs, found 400 bytes");
  EXPECT_EQ(error_of({}), "proof.bin: expected a whole number of 192-byte partition proofs, found 0 bytes");

  std::vector<std::uint8_t> off_curve = bytes;
  off_curve[192 + 48 + 95] ^= 1;  // partition 1's B
  const std::string e = error_of(off_curve);
  EXPECT_EQ(e.rfind("proof.bin: at offset 240: partition 1, proof point B: ", 0), 0u) << e;

  std::vector<std::uint8_t> uncompressed = bytes;
  uncompressed[2 * 192] &= 0x7f;  // partition 2's A loses its compression flag
  EXPECT_EQ(error_of(uncompressed).rfind("proof.bin: at offset 384: partition 2, proof point A: ", 0), 0u);

  std::vector<std::uint8_t> infinity = bytes;
  std::fill(infinity.begin() + 144, infinity.begin() + 192, 0);
  infinity[144] = 0xc0;  // compressed infinity as C of partition 0
  EXPECT_EQ(error_of(infinity),
            "proof.bin: at offset 144: partition 0, proof point C: the point at infinity (bellperson refuses it)");
}

}  // namespace
}  // namespace zkpipe::formats
