#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "io/mapping_faults.hpp"
#include "test_circuits.hpp"

namespace zkpipe::groth16 {
namespace {

using ff::Fr;
namespace fs = std::filesystem;

const std::vector<bool> kFileBits = {1, 1, 0, 1};

class ParameterFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("zkpipe-params-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    path_ = dir_ / "key.zkp";
    write_parameter_file(path_, key());
  }
  void TearDown() override { fs::remove_all(dir_); }

  static const ProvingKey& key() {
    static const ProvingKey k = setup(
        testing::record([](auto& cs) { testing::cubic_with_bits(cs, Fr::from_u64(1), kFileBits); }),
        ToxicWaste::from_seed(7));
    return k;
  }

  std::vector<char> read_all() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void write_all(const std::vector<char>& bytes) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  // The load error's message, or "" when the load succeeds.
  std::string load_error() const {
    try {
      load_parameter_file(path_);
    } catch (const ParameterFileError& e) {
      return e.what();
    }
    return "";
  }

  // The file's section table: entry i at offset 80 + 32·i holds id, variant, offset,
  // bytes and xxh64 (parameter_file.cpp). Sections: vk_points, ic, density, a, b_g1,
  // b_g2, h, l.
  static std::uint64_t table_word(const std::vector<char>& bytes, int section, int at) {
    std::uint64_t v = 0;
    std::memcpy(&v, bytes.data() + 80 + 32 * section + at, sizeof v);
    return v;
  }
  static std::uint64_t section_offset(const std::vector<char>& bytes, int section) {
    return table_word(bytes, section, 8);
  }
  // Recomputes a section's checksum, as a forger would.
  static void reseal(std::vector<char>& bytes, int section) {
    const std::uint64_t offset = section_offset(bytes, section);
    const std::uint64_t size = table_word(bytes, section, 16);
    const std::uint64_t sum = XXH64(bytes.data() + offset, size, 0);
    std::memcpy(bytes.data() + 80 + 32 * section + 24, &sum, sizeof sum);
  }

  fs::path dir_;
  fs::path path_;
};

TEST_F(ParameterFile, RoundTripIsExactAndProves) {
  ProvingKey loaded = load_parameter_file(path_);
  EXPECT_EQ(loaded, key());
  Fr x = Fr::from_u64(77);
  PartitionWitness w = testing::synthesize([&](auto& cs) { testing::cubic_with_bits(cs, x, kFileBits); });
  CpuProver cpu;
  Proof proof = prove(cpu, std::move(w), loaded, Blinding::random());
  EXPECT_TRUE(verify(PreparedVerifyingKey(loaded.vk), proof, testing::cubic_public_inputs(x, kFileBits)));
}

TEST_F(ParameterFile, SectionsArePageAlignedSoPointsAreUsableInPlace) {
  ProvingKey loaded = load_parameter_file(path_);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(loaded.h.data()) % 4096, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(loaded.b_g2.data()) % 4096, 0u);
}

// Points produced a few at a time (a converted .params) give the same file, byte for
// byte, as the key written whole; a producer that falls short leaves nothing.
TEST_F(ParameterFile, StreamedQueriesWriteTheSameFile) {
  auto in_runs = [](const auto& points) {
    using T = typename std::remove_cvref_t<decltype(points)>::value_type;
    return QueryProducer<T>{points.size(), [span = points.span()](const auto& put) {
                              for (std::size_t i = 0; i < span.size(); i += 2) put(span.subspan(i, std::min<std::size_t>(2, span.size() - i)));
                            }};
  };
  const ProvingKey& k = key();
  StreamedKey streamed{true,          k.vk,           k.density,      k.h_query,  in_runs(k.a),
                       in_runs(k.b_g1), in_runs(k.b_g2), in_runs(k.h), in_runs(k.l)};
  const fs::path again = dir_ / "streamed.zkp";
  write_parameter_file(again, streamed);
  std::ifstream in(again, std::ios::binary);
  EXPECT_EQ(std::vector<char>(std::istreambuf_iterator<char>(in), {}), read_all());
  EXPECT_EQ(load_parameter_file(again), k);
  EXPECT_TRUE(points_subgroup_checked(*io::FileMapping::open(again)));
  // Points written without the subgroup check are recorded so; the key is the same.
  streamed.subgroup_checked = false;
  const fs::path unchecked = dir_ / "unchecked.zkp";
  write_parameter_file(unchecked, streamed);
  EXPECT_FALSE(points_subgroup_checked(*io::FileMapping::open(unchecked)));
  EXPECT_EQ(load_parameter_file(unchecked), k);

  const fs::path short_path = dir_ / "short.zkp";
  streamed.l.count += 1;
  try {
    write_parameter_file(short_path, streamed);
    FAIL() << "a query one point short was written";
  } catch (const ParameterFileError& e) {
    EXPECT_NE(std::string(e.what()).find("the query 'l' gave " + std::to_string(k.l.size()) + " points, not " +
                                         std::to_string(k.l.size() + 1)),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(short_path));
  EXPECT_FALSE(fs::exists(dir_ / "short.zkp.partial"));
}

// The setup streamed to its file a few points at a time writes the same bytes as the
// key computed whole, and reports each query's progress to its end.
TEST_F(ParameterFile, AStreamedSetupWritesTheSameFileAsTheKeyInMemory) {
  const ToxicWaste secrets = ToxicWaste::from_seed(7);
  const SetupScalars scalars =
      setup_scalars(testing::record([](auto& cs) { testing::cubic_with_bits(cs, Fr::from_u64(1), kFileBits); }), secrets);
  std::map<std::string, std::pair<std::size_t, std::size_t>> last;  // query → (done, total)
  std::size_t reports = 0;
  const fs::path streamed = dir_ / "streamed-setup.zkp";
  write_parameter_file(streamed, streamed_setup(
                                     scalars, secrets,
                                     [&](std::string_view q, std::size_t done, std::size_t total) {
                                       auto& [was_done, was_total] = last[std::string(q)];
                                       EXPECT_GE(done, was_done) << q;
                                       was_done = done;
                                       was_total = total;
                                       ++reports;
                                     },
                                     3));
  std::ifstream in(streamed, std::ios::binary);
  const std::vector<char> got(std::istreambuf_iterator<char>(in), {});
  const std::vector<char> want = read_all();
  ASSERT_EQ(got.size(), want.size());
  const auto [differs, _] = std::mismatch(got.begin(), got.end(), want.begin());
  EXPECT_EQ(differs, got.end()) << "the first difference at offset " << (differs - got.begin());
  for (const char* q : {"a", "b_g1", "b_g2", "h", "l"}) {
    ASSERT_TRUE(last.contains(q)) << q;
    EXPECT_EQ(last[q].first, last[q].second) << q;
  }
  EXPECT_GT(reports, 5u);  // chunks of 3 points: more than one report a query
  EXPECT_THROW(streamed_setup(scalars, secrets, {}, 0), std::invalid_argument);
}

TEST_F(ParameterFile, MissingFile) {
  fs::remove(path_);
  EXPECT_NE(load_error().find("cannot open"), std::string::npos);
}

TEST_F(ParameterFile, Truncated) {
  auto bytes = read_all();
  bytes.resize(bytes.size() - 100);
  write_all(bytes);
  EXPECT_NE(load_error().find("truncated: section 'l'"), std::string::npos) << load_error();
  bytes.resize(100);
  write_all(bytes);
  EXPECT_NE(load_error().find("truncated: 100 bytes"), std::string::npos) << load_error();
}

// The key's points are used in place: a file truncated under a loaded key is seen
// before use (change) and, once the fault handler is installed (as zkpipe does), a
// proof that reads past the new end reads zeros and the mapping reports the damage
// instead of the process dying of SIGBUS.
TEST_F(ParameterFile, ATruncationUnderALoadedKeyIsReportedNotFatal) {
  io::install_mapping_fault_handler();
  const auto mapping = io::FileMapping::open(path_);
  const ProvingKey loaded = load_parameter_file(mapping);
  const auto size = fs::file_size(path_);
  fs::resize_file(path_, 4096);
  EXPECT_EQ(mapping->change(), "size " + std::to_string(size) + " → 4096");
  EXPECT_EQ(mapping->damage(), std::nullopt);

  const Fr x = Fr::from_u64(77);
  PartitionWitness w = testing::synthesize([&](auto& cs) { testing::cubic_with_bits(cs, x, kFileBits); });
  CpuProver cpu;
  const Proof proof = prove(cpu, std::move(w), loaded, Blinding::random());
  ASSERT_TRUE(mapping->damage().has_value());
  EXPECT_GE(*mapping->damage(), 4096u);
  EXPECT_FALSE(verify(PreparedVerifyingKey(loaded.vk), proof, testing::cubic_public_inputs(x, kFileBits)));
  // A load through the damaged mapping says why, not what the zeros look like.
  try {
    load_parameter_file(mapping);
    ADD_FAILURE() << "loaded a damaged mapping";
  } catch (const ParameterFileError& e) {
    EXPECT_NE(std::string(e.what()).find("changed while being read"), std::string::npos) << e.what();
  }
}

TEST_F(ParameterFile, BadMagicAndVersion) {
  auto bytes = read_all();
  bytes[0] = 'X';
  write_all(bytes);
  EXPECT_NE(load_error().find("bad magic at offset 0"), std::string::npos) << load_error();
  bytes = read_all();
  bytes[0] = 'Z';
  bytes[8] = 9;
  write_all(bytes);
  EXPECT_NE(load_error().find("unsupported version 9 at offset 8"), std::string::npos) << load_error();
}

TEST_F(ParameterFile, ChecksumMismatchNamesTheSection) {
  auto bytes = read_all();
  // Flip one bit in the middle of the H section (located through a fresh load).
  std::size_t h_offset = 0;
  {
    ProvingKey fresh = load_parameter_file(path_);
    std::ifstream in(path_, std::ios::binary);
    std::vector<char> all{std::istreambuf_iterator<char>(in), {}};
    const char* h = reinterpret_cast<const char*>(fresh.h.data());
    const char* needle_end = h + 64;
    auto it = std::search(all.begin(), all.end(), h, needle_end);
    ASSERT_NE(it, all.end());
    h_offset = static_cast<std::size_t>(it - all.begin());
  }
  bytes[h_offset + 10] ^= 0x04;
  write_all(bytes);
  std::string err = load_error();
  EXPECT_NE(err.find("checksum mismatch in section 'h' at offset " + std::to_string(h_offset)), std::string::npos)
      << err;
  LoadOptions trusting;
  trusting.verify_checksums = false;
  trusting.check_points = false;  // the flipped bit took the point off the curve
  EXPECT_NO_THROW(load_parameter_file(path_, trusting));
}

TEST_F(ParameterFile, InconsistentCounts) {
  auto bytes = read_all();
  // Header layout: magic(8) version(4) curve(4) g1(4) g2(4) num_inputs(8) num_aux(8)
  // domain(8) a_count(8) at offset 48.
  bytes[48] += 1;
  write_all(bytes);
  std::string err = load_error();
  EXPECT_NE(err.find("inconsistent counts"), std::string::npos) << err;
}

TEST_F(ParameterFile, AbsurdCountsDoNotAllocate) {
  auto bytes = read_all();
  for (int i = 0; i < 8; ++i) bytes[32 + i] = static_cast<char>(0x7f);  // num_aux ≈ 2^63
  write_all(bytes);
  EXPECT_NE(load_error().find("absurd counts"), std::string::npos) << load_error();
}

constexpr int kVkSection = 0;
constexpr int kDensitySection = 2;
constexpr int kLSection = 7;

TEST_F(ParameterFile, OffCurvePointRefusedEvenWithChecksumsRecomputed) {
  auto bytes = read_all();
  const std::uint64_t l = section_offset(bytes, kLSection);
  const std::uint64_t second_point = l + sizeof(G1Affine);
  bytes[second_point + 3] ^= 0x10;  // its x: still below p, no longer on the curve
  reseal(bytes, kLSection);
  write_all(bytes);
  const std::string err = load_error();
  EXPECT_NE(err.find("section 'l' at offset " + std::to_string(second_point) + ": point 1 is malformed"),
            std::string::npos)
      << err;
  LoadOptions unchecked;
  unchecked.check_points = false;
  EXPECT_NO_THROW(load_parameter_file(path_, unchecked));
}

TEST_F(ParameterFile, CoordinateNotBelowPRefused) {
  auto bytes = read_all();
  const std::uint64_t l = section_offset(bytes, kLSection);
  for (int i = 0; i < 48; ++i) bytes[l + i] = static_cast<char>(0xff);  // x = 2^384 - 1 > p
  reseal(bytes, kLSection);
  write_all(bytes);
  EXPECT_NE(load_error().find("section 'l' at offset " + std::to_string(l) + ": point 0 is malformed"),
            std::string::npos)
      << load_error();
}

TEST_F(ParameterFile, InfinityFlagOtherThanZeroOrOneRefused) {
  auto bytes = read_all();
  const std::uint64_t l = section_offset(bytes, kLSection);
  bytes[l + offsetof(G1Affine, infinity)] = 2;
  reseal(bytes, kLSection);
  write_all(bytes);
  EXPECT_NE(load_error().find("point 0 is malformed"), std::string::npos) << load_error();
}

// γ or δ at infinity would let A = α, B = β verify for any public inputs.
TEST_F(ParameterFile, VerifyingKeyPointAtInfinityRefused) {
  const auto original = read_all();
  // VkPoints: α₁, β₁ (G1), β₂, γ₂ (G2), δ₁ (G1), δ₂ (G2).
  const std::size_t gamma = 2 * sizeof(G1Affine) + sizeof(G2Affine);
  const std::size_t delta = gamma + sizeof(G2Affine) + sizeof(G1Affine);
  for (auto [at, name] : {std::pair{gamma, "vk_gamma_2"}, std::pair{delta, "vk_delta_2"}}) {
    auto bytes = original;
    bytes[section_offset(bytes, kVkSection) + at + offsetof(G2Affine, infinity)] = 1;
    reseal(bytes, kVkSection);
    write_all(bytes);
    const std::string err = load_error();
    EXPECT_NE(err.find(std::string(name) + " is the point at infinity"), std::string::npos) << err;
  }
}

TEST_F(ParameterFile, OffCurveAlphaRefused) {
  auto bytes = read_all();
  bytes[section_offset(bytes, kVkSection) + 5] ^= 0x20;  // α₁'s x
  reseal(bytes, kVkSection);
  write_all(bytes);
  const std::string err = load_error();
  EXPECT_NE(err.find("section 'vk_points' at offset " + std::to_string(section_offset(bytes, kVkSection)) +
                     ": vk_alpha_1 is malformed"),
            std::string::npos)
      << err;
}

TEST_F(ParameterFile, DensityByteOtherThanZeroOrOneRefused) {
  auto bytes = read_all();
  const std::uint64_t density = section_offset(bytes, kDensitySection);
  bytes[density + 1] = 7;
  reseal(bytes, kDensitySection);
  write_all(bytes);
  EXPECT_NE(load_error().find("section 'density' at offset " + std::to_string(density + 1) + ": byte 7"),
            std::string::npos)
      << load_error();
}

TEST_F(ParameterFile, FifoAndDeviceRefusedWithoutBlocking) {
  const fs::path fifo = dir_ / "key.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    load_parameter_file(fifo);
    ADD_FAILURE() << "a FIFO was accepted";
  } catch (const ParameterFileError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_parameter_file("/dev/zero"), ParameterFileError);
}

TEST_F(ParameterFile, KeyWithGammaEqualToDeltaIsRefusedUnlessAllowed) {
  ProvingKey insecure = key();
  insecure.vk.delta_g2 = insecure.vk.gamma_g2;
  const fs::path path = dir_ / "insecure.zkp";
  write_parameter_file(path, insecure);
  try {
    load_parameter_file(path);
    ADD_FAILURE() << "a key with gamma = delta was accepted";
  } catch (const ParameterFileError& e) {
    EXPECT_NE(std::string(e.what()).find("vk_gamma_2 = vk_delta_2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(load_parameter_file(path, {.insecure_key = InsecureKey::kAllow}).vk, insecure.vk);
}

TEST(PreparedVerifyingKeyTest, RefusesKeysThatAcceptForgedProofs) {
  const ProvingKey key = setup(testing::record([](auto& cs) { testing::cubic_with_bits(cs, Fr::from_u64(1), kFileBits); }),
                               ToxicWaste::from_seed(3));
  EXPECT_NO_THROW(PreparedVerifyingKey{key.vk});
  VerifyingKey bad = key.vk;
  bad.gamma_g2 = G2Affine::identity();
  bad.delta_g2 = G2Affine::identity();
  EXPECT_THROW(PreparedVerifyingKey{bad}, std::invalid_argument);
  bad = key.vk;
  bad.delta_g2 = G2Affine::identity();
  EXPECT_THROW(PreparedVerifyingKey{bad}, std::invalid_argument);
  bad = key.vk;
  bad.alpha_g1 = G1Affine::identity();
  EXPECT_THROW(PreparedVerifyingKey{bad}, std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::groth16
