#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "test_circuits.hpp"

namespace zkpipe::groth16 {
namespace {

using ff::Fr;
namespace fs = std::filesystem;

const std::vector<bool> kBits = {1, 1, 0, 1};

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
        testing::record([](auto& cs) { testing::cubic_with_bits(cs, Fr::from_u64(1), kBits); }),
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

  fs::path dir_;
  fs::path path_;
};

TEST_F(ParameterFile, RoundTripIsExactAndProves) {
  ProvingKey loaded = load_parameter_file(path_);
  EXPECT_EQ(loaded, key());
  Fr x = Fr::from_u64(77);
  PartitionWitness w = testing::synthesize([&](auto& cs) { testing::cubic_with_bits(cs, x, kBits); });
  CpuProver cpu;
  Proof proof = prove(cpu, w, loaded, Blinding::random());
  EXPECT_TRUE(verify(PreparedVerifyingKey(loaded.vk), proof, testing::cubic_public_inputs(x, kBits)));
}

TEST_F(ParameterFile, SectionsArePageAlignedSoPointsAreUsableInPlace) {
  ProvingKey loaded = load_parameter_file(path_);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(loaded.h.data()) % 4096, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(loaded.b_g2.data()) % 4096, 0u);
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

}  // namespace
}  // namespace zkpipe::groth16
