// What makes a verifying key safe to verify with. A key is data from outside (a JSON
// file, a parameter file, a service request): with γ or δ at infinity the terms
// e(IC(x), γ) and e(C, δ) vanish and A = α, B = β verifies for any public inputs, so
// every reader refuses such keys, and the verifier refuses them again on its own.
#pragma once

#include <optional>
#include <string>

#include "groth16/keys.hpp"

namespace zkpipe::groth16 {

// The first problem found, naming the point ("vk_gamma_2 is the point at infinity"),
// or nullopt. Checks α·G1, β·G2, γ·G2, δ·G2 (never infinity) and every IC point: on
// the curve and in the prime-order subgroup. β·G1 and δ·G1 are checked only when
// present (the snarkjs JSON key has neither).
std::optional<std::string> verifying_key_problem(const VerifyingKey& vk);

}  // namespace zkpipe::groth16
