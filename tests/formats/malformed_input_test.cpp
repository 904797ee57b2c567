// Every malformed input gets a FormatError that names what is wrong and where.
#include <gtest/gtest.h>

#include <functional>

#include "ec/subgroup.hpp"
#include "fixtures.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/field_bytes.hpp"
#include "formats/format_error.hpp"
#include "formats/r1cs_file.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_witness.hpp"
#include "formats/wtns_file.hpp"
#include "formats/zkey_file.hpp"
#include "io/bounded_read.hpp"

namespace zkpipe::formats {
namespace {

using namespace testing;
using ff::Fr;

const std::filesystem::path kChainFixture = fixture_dir("chain-2e10");

// Runs `read` on a corrupted copy of `original` and returns the error it throws.
template <class Read>
std::string error_of(const std::filesystem::path& original, const std::string& name,
                     const std::function<void(std::vector<std::uint8_t>&)>& corrupt, Read read) {
  std::vector<std::uint8_t> bytes = read_bytes(original);
  corrupt(bytes);
  const auto path = scratch_path(name);
  write_bytes(path, bytes);
  try {
    read(path);
  } catch (const FormatError& e) {
    std::filesystem::remove(path);
    return e.what();
  }
  std::filesystem::remove(path);
  ADD_FAILURE() << name << ": no FormatError";
  return {};
}

std::string zkey_error(const std::function<void(std::vector<std::uint8_t>&)>& corrupt, bool subgroup = true) {
  return error_of(kChainFixture / "circuit_final.zkey", "bad.zkey", corrupt,
                  [&](const auto& p) { read_zkey(p, {.check_subgroup = subgroup}); });
}
std::string r1cs_error(const std::function<void(std::vector<std::uint8_t>&)>& corrupt) {
  return error_of(kChainFixture / "circuit.r1cs", "bad.r1cs", corrupt, [](const auto& p) { read_r1cs(p); });
}
std::string wtns_error(const std::function<void(std::vector<std::uint8_t>&)>& corrupt) {
  return error_of(kChainFixture / "witness.wtns", "bad.wtns", corrupt, [](const auto& p) { read_wtns(p); });
}

// A point of E(Fp) outside G1 (almost every point is: the cofactor is ~2^126).
groth16::G1Affine point_outside_g1() {
  for (std::uint64_t x = 1;; ++x) {
    const ff::Fp fx = ff::Fp::from_u64(x);
    if (auto y = (fx.square() * fx + ec::G1Curve::b()).sqrt()) {
      auto p = groth16::G1Affine::from_xy(fx, *y);
      if (!ec::is_in_subgroup(p)) return p;
    }
  }
}

constexpr std::size_t kZkeyA = 5, kZkeyH = 9, kZkeyHeader = 2, kZkeyCoefficients = 4;

TEST(MalformedZkey, Truncated) {
  EXPECT_NE(zkey_error([](auto& b) { b.resize(b.size() / 2); }).find("truncated"), std::string::npos);
  EXPECT_NE(zkey_error([](auto& b) { b.resize(7); }).find("truncated"), std::string::npos);
}

TEST(MalformedZkey, BadMagicAndProtocol) {
  EXPECT_NE(zkey_error([](auto& b) { b[0] = 'Z'; }).find("bad magic"), std::string::npos);
  const std::string e = zkey_error([](auto& b) { put_u32(b, section_offset(b, 1), 2); });
  EXPECT_NE(e.find("not Groth16"), std::string::npos) << e;
  EXPECT_NE(e.find("section 1"), std::string::npos) << e;
}

TEST(MalformedZkey, WrongPrime) {
  const std::string e = zkey_error([](auto& b) { b[section_offset(b, kZkeyHeader) + 4] ^= 1; });
  EXPECT_NE(e.find("prime is not BLS12-381's q"), std::string::npos) << e;
}

TEST(MalformedZkey, SectionSizeMismatch) {
  // Claim one more H point than the section holds: the H section no longer fits.
  const std::string e = zkey_error([](auto& b) {
    const std::size_t at = section_offset(b, kZkeyHeader) + 4 + 48 + 4 + 32 + 8;
    put_u32(b, at, static_cast<std::uint32_t>(get_le(b, at, 4)) * 2);
  });
  EXPECT_NE(e.find("section size mismatch"), std::string::npos) << e;
}

TEST(MalformedZkey, AbsurdSectionLength) {
  const std::string e = zkey_error([](auto& b) { put_u64(b, section_header_offset(b, kZkeyH) + 4, ~0ull >> 1); });
  EXPECT_NE(e.find("truncated: declares"), std::string::npos) << e;
}

TEST(MalformedZkey, PointOffCurveNamedWithOffset) {
  std::size_t at = 0;
  const std::string e = zkey_error([&](auto& b) {
    at = section_offset(b, kZkeyH) + 96;  // H[1]
    b[at + 50] ^= 1;
  });
  EXPECT_NE(e.find("H point 1: not on the curve"), std::string::npos) << e;
  EXPECT_NE(e.find("section 9 at offset " + std::to_string(at)), std::string::npos) << e;
}

TEST(MalformedZkey, PointOutsideSubgroup) {
  const groth16::G1Affine p = point_outside_g1();
  auto plant = [&](std::vector<std::uint8_t>& b) {
    const std::size_t at = section_offset(b, kZkeyA);  // A[0], ONE's point
    limbs_to_le(p.x.mont(), std::span(b).subspan(at, 48));
    limbs_to_le(p.y.mont(), std::span(b).subspan(at + 48, 48));
  };
  const std::string e = zkey_error(plant);
  EXPECT_NE(e.find("A point 0: not in the prime-order subgroup"), std::string::npos) << e;
  // Without the subgroup check the on-curve point passes.
  std::vector<std::uint8_t> bytes = read_bytes(kChainFixture / "circuit_final.zkey");
  plant(bytes);
  write_bytes(scratch_path("unchecked.zkey"), bytes);
  EXPECT_NO_THROW(read_zkey(scratch_path("unchecked.zkey"), {.check_subgroup = false}));
  std::filesystem::remove(scratch_path("unchecked.zkey"));
}

TEST(MalformedZkey, CoefficientOutsideDomain) {
  const std::string e = zkey_error([](auto& b) { put_u32(b, section_offset(b, kZkeyCoefficients) + 4 + 4, 1u << 30); });
  EXPECT_NE(e.find("outside the domain"), std::string::npos) << e;
}

TEST(MalformedZkey, FirstBadCoefficientIsNamed) {
  // Records are 44 bytes (matrix, row, wire, value) after the u32 count; the
  // coefficients are checked in parallel but the error names the first bad one.
  auto record = [](std::vector<std::uint8_t>& b, std::size_t i) { return section_offset(b, kZkeyCoefficients) + 4 + 44 * i; };
  std::string e = zkey_error([&](auto& b) {
    put_u32(b, record(b, 3) + 8, 1u << 30);
    put_u32(b, record(b, 1), 7);
  });
  EXPECT_NE(e.find("coefficient 1: matrix 7 is neither A (0) nor B (1)"), std::string::npos) << e;
  e = zkey_error([&](auto& b) { put_u32(b, record(b, 2) + 8, 1u << 30); });
  EXPECT_NE(e.find("coefficient 2: wire 1073741824"), std::string::npos) << e;
  e = zkey_error([&](auto& b) { std::fill_n(b.begin() + static_cast<std::ptrdiff_t>(record(b, 0) + 12), 32, 0xff); });
  EXPECT_NE(e.find("coefficient 0: value is not below r"), std::string::npos) << e;
}

TEST(MalformedR1cs, BadMagicVersionPrimeAndCounts) {
  EXPECT_NE(r1cs_error([](auto& b) { b[1] = 'X'; }).find("bad magic"), std::string::npos);
  EXPECT_NE(r1cs_error([](auto& b) { put_u32(b, 4, 2); }).find("unsupported version 2"), std::string::npos);
  const std::string prime = r1cs_error([](auto& b) { b[section_offset(b, 1) + 4] ^= 0x10; });
  EXPECT_NE(prime.find("--prime bls12381"), std::string::npos) << prime;
  // nConstraints, the header's last field, set absurdly high.
  const std::string absurd = r1cs_error([](auto& b) { put_u32(b, section_offset(b, 1) + 4 + 32 + 24, 0xffffffffu); });
  EXPECT_NE(absurd.find("declared count too large"), std::string::npos) << absurd;
}

TEST(MalformedWtns, SizeMismatchAndValues) {
  const std::string count = wtns_error([](auto& b) { put_u32(b, section_offset(b, 1) + 4 + 32, 5); });
  EXPECT_NE(count.find("section size mismatch"), std::string::npos) << count;
  const std::string big = wtns_error([](auto& b) { std::fill_n(b.begin() + section_offset(b, 2) + 32, 32, 0xff); });
  EXPECT_NE(big.find("witness value 1 is not below r"), std::string::npos) << big;
  const std::string one = wtns_error([](auto& b) { b[section_offset(b, 2)] = 2; });
  EXPECT_NE(one.find("w[0] is not 1"), std::string::npos) << one;
}

TEST(MalformedInputs, FilesOfDifferentCircuits) {
  const R1csFile r1cs = read_r1cs(kChainFixture / "circuit.r1cs");
  const Zkey other = read_zkey(fixture_dir("sorted64x16") / "circuit_final.zkey", {.check_subgroup = false});
  EXPECT_THROW(check_same_circuit(r1cs, "chain.r1cs", other.header, "sorted.zkey"), FormatError);
  const std::vector<Fr> witness = read_wtns(kChainFixture / "witness.wtns");
  EXPECT_THROW(zkey_witness(other, witness), std::invalid_argument);
  EXPECT_THROW(read_zkey(kChainFixture / "missing.zkey"), FormatError);
}

TEST(MalformedJson, ProofAndPublicAndKey) {
  EXPECT_THROW(proof_from_json("{", "p"), FormatError);
  EXPECT_THROW(proof_from_json("[]", "p"), FormatError);
  const std::string off_curve =
      R"({"pi_a":["1","1","1"],"pi_b":[["0","0"],["1","0"],["0","0"]],"pi_c":["0","1","0"],"protocol":"groth16"})";
  try {
    proof_from_json(off_curve, "proof.json");
    ADD_FAILURE() << "accepted an off-curve point";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("pi_a: the point is not on the curve"), std::string::npos) << e.what();
  }
  EXPECT_THROW(public_from_json(R"(["52435875175126190479447740508185965837690552500527637822603658699938581184513"])", "pub"),
               FormatError);
  EXPECT_THROW(public_from_json(R"([3])", "pub"), FormatError);
  std::string vk =
      io::read_bounded_file(kChainFixture / "verification_key.json", kMaxVerifyingKeyJsonBytes, "verification key");
  vk.replace(vk.find("bls12381"), 8, "bn128");
  EXPECT_THROW(verifying_key_from_json(vk, "vk"), FormatError);
}

TEST(BellpersonVk, RoundTripAndErrors) {
  const groth16::VerifyingKey vk =
      read_zkey(kChainFixture / "circuit_final.zkey", {.check_subgroup = false}).key.vk;
  const std::vector<std::uint8_t> bytes = encode_bellperson_vk(vk);
  EXPECT_EQ(bytes.size(), 3 * 96 + 3 * 192 + 4 + vk.ic.size() * 96);
  EXPECT_EQ(decode_bellperson_vk(bytes, "vk.bin"), vk);
  std::vector<std::uint8_t> truncated(bytes.begin(), bytes.end() - 1);
  EXPECT_THROW(decode_bellperson_vk(truncated, "vk.bin"), FormatError);
  std::vector<std::uint8_t> bad_point = bytes;
  bad_point[100] ^= 1;  // beta_g1's x
  try {
    decode_bellperson_vk(bad_point, "vk.bin");
    ADD_FAILURE() << "accepted a corrupt point";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("beta_g1"), std::string::npos) << e.what();
  }
  // beta_g1 and delta_g1 at infinity are refused like the other degenerate points,
  // at their offsets (96 and 576).
  for (const bool beta : {true, false}) {
    groth16::VerifyingKey degenerate = vk;
    (beta ? degenerate.beta_g1 : degenerate.delta_g1) = groth16::G1Affine::identity();
    try {
      decode_bellperson_vk(encode_bellperson_vk(degenerate), "vk.bin");
      ADD_FAILURE() << (beta ? "beta_g1" : "delta_g1") << " at infinity accepted";
    } catch (const FormatError& e) {
      const std::string want =
          std::string(beta ? "at offset 96: beta_g1" : "at offset 576: delta_g1") + ": the point at infinity";
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace zkpipe::formats
