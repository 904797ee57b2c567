// Groth16 verification: e(A, B) = e(α, β)·e(IC(x), γ)·e(C, δ), checked as one
// multi-pairing e(A, B)·e(IC(x), −γ)·e(C, −δ) = e(α, β) with the key prepared once.
#pragma once

#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"

namespace zkpipe::groth16 {

// public_inputs excludes the constant ONE. Throws std::invalid_argument when their
// number does not match the key; returns false for a proof that does not verify.
bool verify(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const ff::Fr> public_inputs);

// All proofs at once: a random linear combination (128-bit coefficients from the
// system CSPRNG) checked with a single multi-pairing of k + 2 terms. True only if
// every proof verifies (up to a 2^-128 chance of accepting a bad batch).
bool verify_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                  std::span<const std::vector<ff::Fr>> public_inputs);

}  // namespace zkpipe::groth16
