// Groth16 circuit-specific setup from recorded matrices.
//
// FOR TESTS AND BENCHMARKS ONLY: the toxic waste (α, β, γ, δ, τ) is derived from a
// seed, so anyone who knows the seed can forge proofs. Production parameters come
// from a multi-party ceremony and are imported (snarkjs .zkey, Filecoin .params).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "r1cs/recording_system.hpp"

namespace zkpipe::groth16 {

struct ToxicWaste {
  ff::Fr alpha;
  ff::Fr beta;
  ff::Fr gamma;
  ff::Fr delta;
  ff::Fr tau;

  static ToxicWaste from_seed(std::uint64_t seed);
};

// Reports (query name, points done, points total) as each query is computed.
using SetupProgress = std::function<void(std::string_view query, std::size_t done, std::size_t total)>;

// The matrices must already hold the input constraints (r1cs::enforce_input_constraints).
ProvingKey setup(const r1cs::R1csMatrices& m, const ToxicWaste& secrets, const SetupProgress& progress = {});

}  // namespace zkpipe::groth16
