// What makes a verifying key safe to verify with. A key is data from outside (a JSON
// file, a parameter file, a service request), and the pairing equation
//   e(A, B) = e(α, β)·e(IC(x), γ)·e(C, δ)
// proves nothing when the key lets a prover cancel its terms without a witness:
// γ or δ at infinity, γ = ±δ (C = ∓IC(x)), γ = ±β (A = α ± IC(x)), δ = ±β (B = γ,
// A = IC(x), C = ∓α), or an IC point at infinity (a public input the proof does not
// bind; all of them, or IC[0] with x = 0, and A = α, B = β, C = ∞ verifies). A snarkjs
// .zkey without a phase-2 contribution has γ = δ. Every reader refuses such keys, and
// the verifier refuses them again on its own.
#pragma once

#include <optional>
#include <string>

#include "groth16/keys.hpp"

namespace zkpipe::groth16 {

// The first problem found, naming the point ("vk_gamma_2 is the point at infinity",
// "vk_gamma_2 = vk_delta_2: …"), or nullopt. Checks α·G1, β·G2, γ·G2, δ·G2 (never
// infinity) and every IC point: on the curve and in the prime-order subgroup. β·G1 and
// δ·G1 are checked only when present (the snarkjs JSON key has neither). With kRefuse,
// also the relations that let proofs be forged (insecure_key_relation).
std::optional<std::string> verifying_key_problem(const VerifyingKey& vk, InsecureKey insecure = InsecureKey::kRefuse);

// The relation among well-formed points that makes the pairing equation trivial, saying
// why ("… any public inputs verify with A = α, B = β, C = −IC(x)"), or nullopt.
std::optional<std::string> insecure_key_relation(const VerifyingKey& vk);

}  // namespace zkpipe::groth16
