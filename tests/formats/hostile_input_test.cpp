// Inputs a hostile user would try: keys that let forged proofs verify, JSON built
// to exhaust the stack or the CPU, files that never end or never open, values too
// long to echo. Each must get a FormatError that names the problem, quickly.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <string>

#include "ec/generators.hpp"
#include "fixtures.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/format_error.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/zkey_file.hpp"
#include "groth16/verifier.hpp"
#include "io/bounded_read.hpp"

namespace zkpipe::formats {
namespace {

using namespace testing;

const std::filesystem::path kChain = fixture_dir("chain-2e10");

std::string fixture_text(const char* name) {
  return io::read_bounded_file(kChain / name, std::size_t{64} << 20, name);
}

template <class Read>
std::string format_error_of(Read read) {
  try {
    read();
  } catch (const FormatError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no FormatError";
  return {};
}

// snarkjs writes the point at infinity of G2 as [["0","0"],["1","0"],["0","0"]].
std::string with_point_at_infinity(std::string vk, const std::string& member) {
  const std::size_t at = vk.find("\"" + member + "\"");
  const std::size_t open = vk.find('[', at);
  std::size_t depth = 0;
  std::size_t close = open;
  for (; close < vk.size(); ++close) {
    if (vk[close] == '[') ++depth;
    if (vk[close] == ']' && --depth == 0) break;
  }
  return vk.replace(open, close + 1 - open, R"([["0","0"],["1","0"],["0","0"]])");
}

TEST(HostileInput, VerifyingKeyWithGammaOrDeltaAtInfinityIsRefused) {
  const std::string vk = fixture_text("verification_key.json");
  for (const char* member : {"vk_gamma_2", "vk_delta_2", "vk_beta_2"}) {
    const std::string err =
        format_error_of([&] { verifying_key_from_json(with_point_at_infinity(vk, member), "vk.json"); });
    EXPECT_NE(err.find(std::string(member) + " is the point at infinity"), std::string::npos) << err;
  }
  EXPECT_NO_THROW(verifying_key_from_json(vk, "vk.json"));
}

// The forgery such a key allows: A = α, B = β, C = ∞ satisfies e(A, B) = e(α, β) ·
// e(IC(x), ∞) · e(∞, ∞) for any x. The verifier refuses the key itself, whichever
// reader it came through.
TEST(HostileInput, ForgedProofUnderDegenerateKeyIsNotAccepted) {
  groth16::VerifyingKey vk = verifying_key_from_json(fixture_text("verification_key.json"), "vk.json");
  vk.gamma_g2 = groth16::G2Affine::identity();
  vk.delta_g2 = groth16::G2Affine::identity();
  // A snarkjs verification key has no β·G1 or δ·G1, which a bellperson one must.
  vk.beta_g1 = vk.alpha_g1;
  vk.delta_g1 = vk.alpha_g1;
  EXPECT_THROW(groth16::PreparedVerifyingKey{vk}, std::invalid_argument);
  const std::vector<std::uint8_t> encoded = encode_bellperson_vk(vk);
  const std::string err = format_error_of([&] { decode_bellperson_vk(encoded, "vk.bin"); });
  EXPECT_NE(err.find("vk_gamma_2 is the point at infinity"), std::string::npos) << err;
}

// What a snarkjs .zkey without a phase-2 contribution has: γ = δ, under which A = α,
// B = β, C = −IC(x) verifies for any x. Every reader refuses it unless told otherwise.
TEST(HostileInput, VerifyingKeyWithGammaEqualToDeltaIsRefusedByEveryReader) {
  groth16::VerifyingKey vk = verifying_key_from_json(fixture_text("verification_key.json"), "vk.json");
  vk.delta_g2 = vk.gamma_g2;
  const std::string json = verifying_key_to_json(vk);
  std::string err = format_error_of([&] { verifying_key_from_json(json, "vk.json"); });
  EXPECT_NE(err.find("vk_gamma_2 = vk_delta_2 makes the pairing equation trivial"), std::string::npos) << err;
  EXPECT_EQ(verifying_key_from_json(json, "vk.json", groth16::InsecureKey::kAllow), vk);

  vk.delta_g2 = -vk.gamma_g2;
  vk.beta_g1 = vk.alpha_g1;
  vk.delta_g1 = vk.alpha_g1;
  const std::vector<std::uint8_t> encoded = encode_bellperson_vk(vk);
  err = format_error_of([&] { decode_bellperson_vk(encoded, "vk.bin"); });
  EXPECT_NE(err.find("vk_gamma_2 = -vk_delta_2"), std::string::npos) << err;
  EXPECT_EQ(decode_bellperson_vk(encoded, "vk.bin", groth16::InsecureKey::kAllow), vk);
}

TEST(HostileInput, DeeplyNestedJsonIsRefusedWithoutExhaustingTheStack) {
  const std::size_t levels = 100'000;
  const std::string nested = std::string(levels, '[') + std::string(levels, ']');
  std::string err = format_error_of([&] { proof_from_json(nested, "proof.json"); });
  EXPECT_NE(err.find("nested deeper than"), std::string::npos) << err;
  const std::string objects = [&] {
    std::string s;
    for (std::size_t i = 0; i < levels; ++i) s += "{\"a\":";
    s += "1";
    s += std::string(levels, '}');
    return s;
  }();
  err = format_error_of([&] { verifying_key_from_json(objects, "vk.json"); });
  EXPECT_NE(err.find("nested deeper than"), std::string::npos) << err;
}

TEST(HostileInput, ObjectWithManyMembersIsRefused) {
  std::string proof = fixture_text("proof.json");
  std::string extra;
  for (int i = 0; i < 100'000; ++i) extra += "\"k" + std::to_string(i) + "\":0,";
  proof.insert(proof.find('{') + 1, extra);
  const std::string err = format_error_of([&] { proof_from_json(proof, "proof.json"); });
  EXPECT_NE(err.find("more than " + std::to_string(kMaxJsonMembers) + " members"), std::string::npos) << err;
}

// One JSON policy for every input: a key given twice is refused, not the last one kept.
TEST(HostileInput, AKeyGivenTwiceIsRefused) {
  std::string proof = fixture_text("proof.json");
  proof.insert(proof.find('{') + 1, "\"protocol\": \"plonk\",");
  const std::string err = format_error_of([&] { proof_from_json(proof, "proof.json"); });
  EXPECT_NE(err.find("key \"protocol\" given twice in one object"), std::string::npos) << err;
}

// A number beyond a double is a JSON error like any other (found by fuzzing).
TEST(HostileInput, NumberOverflowIsAFormatError) {
  std::string err = format_error_of([] { proof_from_json(R"({"protocol": 1e400})", "proof.json"); });
  EXPECT_NE(err.find("not valid JSON"), std::string::npos) << err;
  err = format_error_of([] { public_from_json("[1e400]", "public.json"); });
  EXPECT_NE(err.find("not valid JSON"), std::string::npos) << err;
  err = format_error_of([] { verifying_key_from_json(R"({"nPublic": -1e400})", "vk.json"); });
  EXPECT_NE(err.find("not valid JSON"), std::string::npos) << err;
}

TEST(HostileInput, LongValuesAreNotEchoedWhole) {
  const std::string huge(1 << 20, '7');
  std::string err = format_error_of([&] { public_from_json("[\"" + huge + "\"]", "public.json"); });
  EXPECT_NE(err.find("more characters"), std::string::npos) << err.substr(0, 200);
  EXPECT_LT(err.size(), 400u);
  err = format_error_of([&] { proof_from_json("{\"protocol\":\"" + huge + "\"}", "proof.json"); });
  EXPECT_LT(err.size(), 400u);
  err = format_error_of([&] { proof_from_json("[\"" + huge, "proof.json"); });  // unterminated string
  EXPECT_LT(err.size(), 600u);
}

TEST(HostileInput, ZkeyFifoRefusedWithoutBlocking) {
  const auto fifo = scratch_path("input.fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string err = format_error_of([&] { read_zkey(fifo); });  // returns: no writer is awaited
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
  std::filesystem::remove(fifo);
}

}  // namespace
}  // namespace zkpipe::formats
