// bellperson's .params / .vk files: a key from our setup written and read back, the
// layout checked against bellperson's Parameters::write (vk, then H, L, A, B₁, B₂,
// each behind a u32 big-endian count), and every kind of damage refused with the
// offset where it lies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "ec/ec_test_util.hpp"
#include "ec/serialization.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_proof.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/format_error.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/test_circuits.hpp"
#include "groth16/verifier.hpp"
#include "fixtures.hpp"

namespace zkpipe::formats {
namespace {

using ff::Fr;
using formats::testing::read_bytes;
using formats::testing::scratch_path;
using formats::testing::write_bytes;
using groth16::testing::cubic_with_bits;
namespace fs = std::filesystem;

const std::vector<bool> kBits = {1, 0, 1, 1, 0, 1};

// Sizes from the format's definition, not from our writer.
constexpr std::size_t kG1 = 96;
constexpr std::size_t kG2 = 192;
constexpr std::size_t kVkPoints = 3 * kG1 + 3 * kG2;

struct Circuit {
  r1cs::R1csMatrices matrices = groth16::testing::record([](auto& cs) { cubic_with_bits(cs, Fr::from_u64(3), kBits); });
  groth16::ProvingKey key = groth16::setup(matrices, groth16::ToxicWaste::from_seed(11));
};

const Circuit& circuit() {
  static const Circuit c;
  return c;
}

std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}

void put_be32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

// Where each count lies in a file written for key(): the layout's arithmetic.
struct Offsets {
  std::size_t ic_count, h_count, l_count, a_count, b1_count, b2_count, end;

  explicit Offsets(const groth16::ProvingKey& k) {
    ic_count = kVkPoints;
    h_count = ic_count + 4 + k.vk.ic.size() * kG1;
    l_count = h_count + 4 + k.h.size() * kG1;
    a_count = l_count + 4 + k.l.size() * kG1;
    b1_count = a_count + 4 + k.a.size() * kG1;
    b2_count = b1_count + 4 + k.b_g1.size() * kG1;
    end = b2_count + 4 + k.b_g2.size() * kG2;
  }
};

class BellpersonParamsFile : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = scratch_path("key.params");
    write_bellperson_params(path_, key());
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }

  static const groth16::ProvingKey& key() { return circuit().key; }

  groth16::ProvingKey load(const BellpersonReadOptions& options = {}) const {
    return to_proving_key(read_bellperson_params(path_, options), circuit_requirements(circuit().matrices),
                          path_.string());
  }

  // The read error's message, or "" when the file reads.
  std::string read_error(const BellpersonReadOptions& options = {}) const {
    try {
      read_bellperson_params(path_, options);
    } catch (const FormatError& e) {
      return e.what();
    }
    return "";
  }

  std::string at(std::size_t offset) const { return path_.string() + ": at offset " + std::to_string(offset) + ": "; }

  fs::path path_;
};

TEST_F(BellpersonParamsFile, LayoutIsBellpersonsWrite) {
  const std::vector<std::uint8_t> bytes = read_bytes(path_);
  const Offsets o(key());
  ASSERT_EQ(bytes.size(), o.end);
  EXPECT_EQ(be32(bytes, o.ic_count), key().vk.ic.size());
  EXPECT_EQ(be32(bytes, o.h_count), key().h.size());
  EXPECT_EQ(be32(bytes, o.l_count), key().l.size());
  EXPECT_EQ(be32(bytes, o.a_count), key().a.size());
  EXPECT_EQ(be32(bytes, o.b1_count), key().b_g1.size());
  EXPECT_EQ(be32(bytes, o.b2_count), key().b_g2.size());
  // The verifying key leads, byte for byte the .vk file.
  const std::vector<std::uint8_t> vk = encode_bellperson_vk(key().vk);
  EXPECT_TRUE(std::equal(vk.begin(), vk.end(), bytes.begin()));
  // Points are uncompressed: the first byte's compression flag (0x80) is clear.
  const auto first_h = ec::encode_uncompressed(key().h[0]);
  EXPECT_TRUE(std::equal(first_h.begin(), first_h.end(), bytes.begin() + static_cast<std::ptrdiff_t>(o.h_count + 4)));
  EXPECT_EQ(bytes[o.h_count + 4] & 0x80, 0);
}

TEST_F(BellpersonParamsFile, RoundTripsTheProvingKey) { EXPECT_EQ(load(), key()); }

TEST_F(BellpersonParamsFile, VerifyingKeyFileRoundTrips) {
  const fs::path vk_path = scratch_path("key.vk");
  write_bellperson_vk(vk_path, key().vk);
  const std::vector<std::uint8_t> bytes = read_bytes(vk_path);
  fs::remove(vk_path);
  EXPECT_EQ(bytes.size(), kVkPoints + 4 + key().vk.ic.size() * kG1);
  EXPECT_EQ(decode_bellperson_vk(bytes, "key.vk"), key().vk);
}

TEST_F(BellpersonParamsFile, ProofFromTheLoadedKeyVerifies) {
  const groth16::ProvingKey loaded = load();
  const Fr x = Fr::from_u64(3);
  groth16::CpuProver cpu;
  const groth16::Proof proof = groth16::prove(
      cpu, groth16::testing::synthesize([&](auto& cs) { cubic_with_bits(cs, x, kBits); }), loaded,
      groth16::Blinding::random());
  // Through Filecoin's proof bytes and the .vk bytes, as a verifier elsewhere gets them.
  const auto proofs = decode_bellperson_proofs(encode_bellperson_proofs(std::span(&proof, 1)), "proof", 1);
  const groth16::VerifyingKey vk = decode_bellperson_vk(encode_bellperson_vk(loaded.vk), "key.vk");
  const groth16::PreparedVerifyingKey pvk(vk);
  EXPECT_TRUE(groth16::verify(pvk, proofs[0], groth16::testing::cubic_public_inputs(x, kBits)));
  EXPECT_FALSE(groth16::verify(pvk, proofs[0], groth16::testing::cubic_public_inputs(Fr::from_u64(4), kBits)));
}

TEST_F(BellpersonParamsFile, TruncationNamesTheCountThatOverruns) {
  std::vector<std::uint8_t> bytes = read_bytes(path_);
  const Offsets o(key());
  bytes.resize(o.l_count + 4 + kG1 + 10);  // inside L's second point
  write_bytes(path_, bytes);
  const std::string e = read_error();
  EXPECT_EQ(e.rfind(at(o.l_count) + "expected " + std::to_string(key().l.size()) + " l points", 0), 0u) << e;

  bytes.resize(o.a_count + 2);  // inside A's count
  write_bytes(path_, bytes);
  EXPECT_EQ(read_error(), at(o.a_count) + "expected the u32 count of a, the file ends");

  bytes.resize(100);  // inside the verifying key
  write_bytes(path_, bytes);
  EXPECT_NE(read_error().find("truncated: 100 bytes"), std::string::npos) << read_error();
}

TEST_F(BellpersonParamsFile, CorruptCountAndTrailingBytesAreRefused) {
  std::vector<std::uint8_t> bytes = read_bytes(path_);
  const Offsets o(key());
  std::vector<std::uint8_t> huge = bytes;
  put_be32(huge, o.h_count, 0xffffffffu);
  write_bytes(path_, huge);
  std::string e = read_error();
  EXPECT_EQ(e.rfind(at(o.h_count) + "expected 4294967295 h points", 0), 0u) << e;

  // One count too small leaves a point over at the end.
  std::vector<std::uint8_t> short_count = bytes;
  put_be32(short_count, o.b2_count, static_cast<std::uint32_t>(key().b_g2.size() - 1));
  write_bytes(path_, short_count);
  EXPECT_EQ(read_error(), at(o.end - kG2) + "expected the end of the file after the b_g2 points, found 192 more bytes");

  bytes.push_back(0);
  write_bytes(path_, bytes);
  EXPECT_EQ(read_error(), at(o.end) + "expected the end of the file after the b_g2 points, found 1 more bytes");
}

TEST_F(BellpersonParamsFile, PointOffTheCurveIsRefused) {
  std::vector<std::uint8_t> bytes = read_bytes(path_);
  const Offsets o(key());
  const std::size_t point = o.l_count + 4 + 2 * kG1;
  bytes[point + kG1 - 1] ^= 1;  // y's last byte
  write_bytes(path_, bytes);
  EXPECT_EQ(read_error(), at(point) + "l point 2: point is not on the curve");
  // Skipping the subgroup check does not skip the curve equation.
  EXPECT_EQ(read_error({.check_subgroup = false}), at(point) + "l point 2: point is not on the curve");
}

TEST_F(BellpersonParamsFile, PointOutsideTheSubgroupIsRefused) {
  std::vector<std::uint8_t> bytes = read_bytes(path_);
  const Offsets o(key());
  ec::test::Rng rng(5);
  const auto outside = ec::test::random_curve_point<ec::G2Curve>(rng);
  ASSERT_FALSE(ec::test::in_subgroup_by_order(outside));
  const auto encoded = ec::encode_uncompressed(outside);
  const std::size_t point = o.b2_count + 4 + kG2;
  std::copy(encoded.begin(), encoded.end(), bytes.begin() + static_cast<std::ptrdiff_t>(point));
  write_bytes(path_, bytes);
  EXPECT_EQ(read_error(), at(point) + "b_g2 point 1: point is not in the prime-order subgroup");
  EXPECT_EQ(read_bellperson_params(path_, {.check_subgroup = false}).b_g2[1], outside);
}

TEST_F(BellpersonParamsFile, PointAtInfinityInAQueryIsRefused) {
  std::vector<std::uint8_t> bytes = read_bytes(path_);
  const Offsets o(key());
  const std::size_t point = o.a_count + 4;
  std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(point), bytes.begin() + static_cast<std::ptrdiff_t>(point + kG1), 0);
  bytes[point] = 0x40;
  write_bytes(path_, bytes);
  EXPECT_EQ(read_error(), at(point) + "a point 0: the point at infinity, which a query never holds");
}

TEST_F(BellpersonParamsFile, VerifyingKeyPointIsCheckedAtItsOffset) {
  std::vector<std::uint8_t> bytes = read_bytes(path_);
  const std::size_t gamma = 2 * kG1 + kG2;
  bytes[gamma + kG2 - 1] ^= 1;
  write_bytes(path_, bytes);
  const std::string e = read_error();
  EXPECT_EQ(e.rfind(at(gamma) + "gamma_g2", 0), 0u) << e;
}

TEST_F(BellpersonParamsFile, InsecureKeyIsRefusedUnlessAllowed) {
  groth16::ProvingKey insecure = key();
  insecure.vk.gamma_g2 = insecure.vk.delta_g2;
  write_bellperson_params(path_, insecure);
  const std::string e = read_error();
  EXPECT_NE(e.find("verifying key refused"), std::string::npos) << e;
  EXPECT_EQ(read_bellperson_params(path_, {.insecure_key = groth16::InsecureKey::kAllow}).vk, insecure.vk);
}

TEST_F(BellpersonParamsFile, ParametersOfAnotherCircuitDoNotFit) {
  const auto other = groth16::testing::record([](auto& cs) { cubic_with_bits(cs, Fr::from_u64(3), {1, 0}); });
  try {
    to_proving_key(read_bellperson_params(path_), circuit_requirements(other), "key.params");
    FAIL() << "parameters of another circuit were accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("key.params: the parameters do not fit the circuit: IC points", 0), 0u)
        << e.what();
  }
  // Same inputs and variables, a domain twice as large: only H tells.
  CircuitRequirements larger = circuit_requirements(circuit().matrices);
  larger.num_constraints = key().domain_size() + 1;
  try {
    to_proving_key(read_bellperson_params(path_), larger, "key.params");
    FAIL() << "an H query for another domain was accepted";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("H points"), std::string::npos) << e.what();
  }
}

// The counts alone, no point decoded: the same verdicts before a 47 GiB file is read.
TEST_F(BellpersonParamsFile, CountsTellWhetherTheFileFitsBeforeItsPointsAreRead) {
  const BellpersonParamsCounts counts = read_bellperson_params_counts(io::FileMapping::open(path_));
  EXPECT_EQ(counts.ic, key().vk.ic.size());
  EXPECT_EQ(counts.h, key().h.size());
  EXPECT_EQ(counts.l, key().l.size());
  EXPECT_EQ(counts.a, key().a.size());
  EXPECT_EQ(counts.b_g1, key().b_g1.size());
  EXPECT_EQ(counts.b_g2, key().b_g2.size());
  EXPECT_NO_THROW(check_params_fit(counts, circuit_requirements(circuit().matrices), "key.params"));
  const auto other = groth16::testing::record([](auto& cs) { cubic_with_bits(cs, Fr::from_u64(3), {1, 0}); });
  EXPECT_THROW(check_params_fit(counts, circuit_requirements(other), "key.params"), FormatError);

  // A damaged point does not matter to the counts; a count past the file's end does.
  std::vector<std::uint8_t> bytes = read_bytes(path_);
  const Offsets o(key());
  bytes[o.l_count + 4] ^= 0xff;
  write_bytes(path_, bytes);
  EXPECT_EQ(read_bellperson_params_counts(io::FileMapping::open(path_)).l, key().l.size());
  put_be32(bytes, o.l_count, be32(bytes, o.l_count) + 1);
  write_bytes(path_, bytes);
  EXPECT_THROW(read_bellperson_params_counts(io::FileMapping::open(path_)), FormatError);
}

// Converted a few points at a time into the native file: the key read whole, mapped
// from the file; progress reaches every point.
TEST_F(BellpersonParamsFile, ConvertsIntoTheNativeFileAChunkAtATime) {
  const fs::path out = scratch_path("converted.zkp");
  std::vector<std::uint64_t> seen;
  std::uint64_t total = 0;
  convert_bellperson_params(io::FileMapping::open(path_), circuit_requirements(circuit().matrices), out,
                            {.convert_chunk_points = 3}, [&](std::uint64_t done, std::uint64_t all) {
                              seen.push_back(done);
                              total = all;
                            });
  const groth16::ProvingKey converted = groth16::load_parameter_file(out);
  fs::remove(out);
  EXPECT_EQ(converted, load());
  EXPECT_TRUE(converted.l.is_file_mapped());
  const std::uint64_t points = key().h.size() + key().l.size() + key().a.size() + 2 * key().b_g1.size();
  EXPECT_EQ(total, points);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back(), points);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_GT(seen.size(), 5u);  // more than one chunk per query somewhere
}

// A bad point is named as the reader names it, parameters of another circuit are
// refused from their counts, and neither leaves a file behind.
TEST_F(BellpersonParamsFile, ConversionRefusesWhatTheReaderRefusesAndLeavesNothing) {
  const fs::path out = scratch_path("converted.zkp");
  const auto other = groth16::testing::record([](auto& cs) { cubic_with_bits(cs, Fr::from_u64(3), {1, 0}); });
  try {
    convert_bellperson_params(io::FileMapping::open(path_), circuit_requirements(other), out);
    FAIL() << "parameters of another circuit were converted";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("the parameters do not fit the circuit: IC points"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(out));

  std::vector<std::uint8_t> bytes = read_bytes(path_);
  const Offsets o(key());
  const std::size_t point = o.l_count + 4 + 2 * kG1;
  bytes[point + kG1 - 1] ^= 1;
  write_bytes(path_, bytes);
  try {
    convert_bellperson_params(io::FileMapping::open(path_), circuit_requirements(circuit().matrices), out,
                              {.convert_chunk_points = 1});
    FAIL() << "a point off the curve was converted";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), at(point) + "l point 2: point is not on the curve");
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out.string() + ".partial"));
}

TEST_F(BellpersonParamsFile, WriterRefusesWhatBellpersonCannotRead) {
  groth16::ProvingKey with_infinity = key();
  std::vector<groth16::G1Affine> l(key().l.begin(), key().l.end());
  l[1] = groth16::G1Affine::identity();
  with_infinity.l = l;
  const fs::path other = scratch_path("infinity.params");
  try {
    write_bellperson_params(other, with_infinity);
    FAIL() << "a query point at infinity was written";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("l point 1 is the point at infinity"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(other));
  EXPECT_FALSE(fs::exists(other.string() + ".partial"));

  groth16::ProvingKey coset = key();
  coset.h_query = groth16::HQuery::kSnarkjsOddCoset;
  EXPECT_THROW(write_bellperson_params(other, coset), FormatError);
  EXPECT_FALSE(fs::exists(other));
}

}  // namespace
}  // namespace zkpipe::formats
