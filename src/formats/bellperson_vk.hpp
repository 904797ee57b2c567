// The verifying-key file of bellperson (and bellman): points uncompressed in the
// zcash encoding, big-endian,
//
//   alpha_g1 (96 B)  beta_g1 (96 B)  beta_g2 (192 B)  gamma_g2 (192 B)
//   delta_g1 (96 B)  delta_g2 (192 B)  u32 BE ic count  ic[count] (96 B each)
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "groth16/keys.hpp"

namespace zkpipe::formats {

std::vector<std::uint8_t> encode_bellperson_vk(const groth16::VerifyingKey& vk);

// Throws FormatError (with `name` and the byte offset) for a wrong length, a count
// that does not match the size, a point that fails decoding (on curve, subgroup),
// beta_g1 or delta_g1 at infinity, or a
// key that lets proofs be forged (groth16::verifying_key_problem) unless insecure is kAllow.
groth16::VerifyingKey decode_bellperson_vk(std::span<const std::uint8_t> bytes, const std::string& name,
                                           groth16::InsecureKey insecure = groth16::InsecureKey::kRefuse);

}  // namespace zkpipe::formats
