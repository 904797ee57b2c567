// snarkjs's JSON files for Groth16 on BLS12-381, read and written byte for byte as
// snarkjs writes them (JSON.stringify with a one-space indent, no final newline):
//
//   proof.json               {"pi_a": [x, y, "1"], "pi_b": [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]],
//                             "pi_c": [x, y, "1"], "protocol": "groth16", "curve": "bls12381"}
//   public.json              ["w1", …, "w_nPublic"]  (outputs first, then public inputs)
//   verification_key.json    protocol, curve, nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2,
//                            vk_delta_2, vk_alphabeta_12 (= e(α, β)), IC
//
// Numbers are canonical decimal strings ("0x…" hex is accepted on input). Points are
// read as snarkjs reads them: a third coordinate other than 1 makes them Jacobian,
// z = 0 is the point at infinity. Every point read is checked to be on the curve and
// in the prime-order subgroup (snarkjs checks only the former); a verifying key
// must also pass groth16::verifying_key_problem (α, β, γ, δ never at infinity; no
// relation such as γ = δ that lets proofs be forged, unless the caller allows it).
//
// The texts are untrusted: nesting deeper than kMaxJsonDepth or objects with more than
// kMaxJsonMembers members are refused while parsing (linear time, bounded stack), and
// values echoed in errors are cut short.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"

namespace zkpipe::formats {

inline constexpr int kMaxJsonDepth = 16;            // a verifying key's deepest value is at 4
inline constexpr std::size_t kMaxJsonMembers = 64;  // a verifying key has 9
// Bounds for io::read_bounded_file (io/bounded_read.hpp): a proof is under 1 KiB; a key with
// 200,000 public inputs is about 50 MiB; a public signal takes at most 81 bytes.
inline constexpr std::size_t kMaxProofJsonBytes = std::size_t{64} << 10;
inline constexpr std::size_t kMaxVerifyingKeyJsonBytes = std::size_t{64} << 20;
constexpr std::size_t max_public_json_bytes(std::size_t signals) { return 4096 + 128 * signals; }

// `name` is the file name used in error messages; all readers throw FormatError.
std::string proof_to_json(const groth16::Proof& proof);
groth16::Proof proof_from_json(std::string_view text, const std::string& name);

std::string public_to_json(std::span<const ff::Fr> public_signals);
std::vector<ff::Fr> public_from_json(std::string_view text, const std::string& name);

// vk.beta_g1 and vk.delta_g1 are not part of the file; the reader leaves them at infinity.
std::string verifying_key_to_json(const groth16::VerifyingKey& vk);
groth16::VerifyingKey verifying_key_from_json(std::string_view text, const std::string& name,
                                              groth16::InsecureKey insecure = groth16::InsecureKey::kRefuse);

}  // namespace zkpipe::formats
