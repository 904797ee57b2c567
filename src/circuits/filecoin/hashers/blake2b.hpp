// BLAKE2b (RFC 7693), unkeyed or keyed, with any digest length from 1 to 64 bytes.
// Filecoin uses it twice in SDR: the Feistel round function of the expander graph
// (64-byte digests) and the keys of the synthetic-PoRep challenge generators (keyed,
// 32-byte digests).
#pragma once

#include <cstdint>
#include <span>

namespace zkpipe::filecoin::hashers {

// Writes the BLAKE2b digest of `message` into `digest`, whose size is the digest
// length (the parameter block's digest_length). Throws std::invalid_argument when
// the digest is not 1..64 bytes or the key is longer than 64 bytes.
void blake2b(std::span<const std::uint8_t> message, std::span<std::uint8_t> digest,
             std::span<const std::uint8_t> key = {});

}  // namespace zkpipe::filecoin::hashers
