// The tiny PoRep-like preset and keys for it, made once per test program (setup is
// the slow part), and a scratch directory per test.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "circuits/porep_like/porep_circuit.hpp"
#include "groth16/keys.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"

namespace zkpipe::proving::testing {

inline std::shared_ptr<const porep_like::PorepLikeCircuit> tiny_circuit(std::uint64_t seed = 3,
                                                                         std::size_t partitions = 1) {
  return std::make_shared<const porep_like::PorepLikeCircuit>(porep_like::find_preset("tiny"), seed, partitions);
}

// A key for the tiny preset from toxic waste seeded with `setup_seed`.
inline std::shared_ptr<const groth16::ProvingKey> tiny_key(std::uint64_t setup_seed) {
  static std::map<std::uint64_t, std::shared_ptr<const groth16::ProvingKey>> keys;
  auto& key = keys[setup_seed];
  if (!key) {
    const r1cs::R1csMatrices m = groth16::record_matrices(*tiny_circuit());
    key = std::make_shared<const groth16::ProvingKey>(groth16::setup(m, groth16::ToxicWaste::from_seed(setup_seed)));
  }
  return key;
}

// A fresh directory for this process and test, removed by the destructor.
class ScratchDir {
 public:
  ScratchDir() {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(::testing::TempDir()) /
            ("zkpipe_proving_" + std::to_string(::getpid()) + "_" + (test ? test->name() : "none"));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace zkpipe::proving::testing
