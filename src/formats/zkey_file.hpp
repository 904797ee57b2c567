// snarkjs's Groth16 .zkey (version 1) on BLS12-381, read into a groth16::ProvingKey
// (H in snarkjs's odd-coset layout, A/B density-pruned of their infinity points)
// plus the A and B coefficient lists that turn a .wtns into the prover's a and b.
//
// See docs and shared fixtures FORMATS.md for the byte layout; in short: §1 protocol,
// §2 header and the α/β/γ/δ points, §3 IC, §4 coefficients (values v·2^512 mod r),
// §5 A, §6 B1, §7 B2, §8 C (aux wires only), §9 H, §10 contributions (ignored).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "io/read_only_file.hpp"

namespace zkpipe::formats {

struct ZkeyHeader {
  std::uint32_t n_vars = 0;
  std::uint32_t n_public = 0;  // ONE excluded
  std::uint32_t domain_size = 0;
};

struct ZkeyCoefficient {
  std::uint32_t row;
  std::uint32_t wire;
  ff::Fr value;
};

struct Zkey {
  ZkeyHeader header;
  groth16::ProvingKey key;
  // The A and B matrices, public-input rows (A[nConstraints + k][k] = 1) included.
  std::vector<ZkeyCoefficient> a_coefficients;
  std::vector<ZkeyCoefficient> b_coefficients;
};

struct ZkeyReadOptions {
  // The subgroup check dominates reading a large key (≈ two 64-bit scalar
  // multiplications per point); a key that was checked once (zkey import) or whose
  // only victim would be the prover's own proof may skip it. On-curve checks stay.
  bool check_subgroup = true;
  // The verifying key's points are checked whatever check_subgroup says; a key that
  // lets proofs be forged (γ = δ: no phase-2 contribution) only with kAllow.
  groth16::InsecureKey insecure_key = groth16::InsecureKey::kRefuse;
};

// Throws FormatError naming the file, section and offset of the first problem.
Zkey read_zkey(const std::filesystem::path& path, const ZkeyReadOptions& options = {});
// The same for a file already open (a job's, opened when it was checked).
Zkey read_zkey(std::shared_ptr<const io::ReadOnlyFile> file, const ZkeyReadOptions& options = {});

}  // namespace zkpipe::formats
