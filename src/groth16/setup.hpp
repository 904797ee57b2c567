// Groth16 circuit-specific setup from recorded matrices.
//
// FOR TESTS AND BENCHMARKS ONLY: the toxic waste (α, β, γ, δ, τ) is derived from a
// seed, so anyone who knows the seed can forge proofs. Production parameters come
// from a multi-party ceremony and are imported (snarkjs .zkey, Filecoin .params).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "ec/fixed_base.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "groth16/parameter_file.hpp"
#include "r1cs/compiled_r1cs.hpp"
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

// What setup multiplies the generators by, query by query (the B scalars serve
// both B queries); the CPU and the device setups share it, so their keys agree
// point for point.
struct SetupScalars {
  QueryDensity density;
  std::size_t domain_size = 0;
  std::vector<ff::Fr> ic;
  std::vector<ff::Fr> a;
  std::vector<ff::Fr> b;
  std::vector<ff::Fr> l;
  std::vector<ff::Fr> h;
};

// The matrices must already hold the input constraints (r1cs::enforce_input_constraints;
// compile_circuit adds them).
SetupScalars setup_scalars(const r1cs::R1csMatrices& m, const ToxicWaste& secrets);
SetupScalars setup_scalars(const r1cs::CompiledR1cs& m, const ToxicWaste& secrets);

// α, β, γ, δ in their groups and the IC query (few points: always on the host), from
// the generators' tables the caller also uses for the bulk queries.
template <unsigned WindowBits>
VerifyingKey verifying_key(const ToxicWaste& secrets, std::span<const ff::Fr> ic_scalars,
                           const ec::FixedBaseTable<ec::G1Curve, WindowBits>& g1,
                           const ec::FixedBaseTable<ec::G2Curve, WindowBits>& g2);
extern template VerifyingKey verifying_key<8>(const ToxicWaste&, std::span<const ff::Fr>,
                                              const ec::FixedBaseTable<ec::G1Curve, 8>&,
                                              const ec::FixedBaseTable<ec::G2Curve, 8>&);

// The proving key on the host's cores.
ProvingKey setup(const SetupScalars& scalars, const ToxicWaste& secrets, const SetupProgress& progress = {});
ProvingKey setup(const r1cs::R1csMatrices& m, const ToxicWaste& secrets, const SetupProgress& progress = {});

// The same key as producers for write_parameter_file: each query's points are
// computed a chunk at a time as the file takes them, so that a setup written to disk
// holds its scalars and one chunk of `chunk_points`, not the key. `scalars` must
// outlive the write.
StreamedKey streamed_setup(const SetupScalars& scalars, const ToxicWaste& secrets, const SetupProgress& progress = {},
                           std::size_t chunk_points = std::size_t{1} << 16);

}  // namespace zkpipe::groth16
