// Poseidon outside the circuit (HADES design: R_F/2 full rounds, R_P partial
// rounds with the S-box on the first cell only, R_F/2 full rounds; each round adds
// constants, applies x^5, then multiplies by the MDS matrix).
#pragma once

#include <span>

#include "hash/poseidon_params.hpp"

namespace zkpipe::hash::poseidon {

void permute(const Params& p, std::span<Fr> state);

// The domain tag of a Merkle-tree node hash: 2^arity − 1 in the capacity cell, as
// in neptune (Filecoin's Poseidon).
Fr merkle_domain_tag(std::size_t arity);

// Fixed-length hash of exactly `arity` elements: state = (tag, inputs...), permute,
// output the first rate cell.
Fr hash(const Params& p, std::span<const Fr> inputs);

}  // namespace zkpipe::hash::poseidon
