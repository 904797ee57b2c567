// Poseidon outside the circuit (HADES design: R_F/2 full rounds, R_P partial
// rounds with the S-box on the first cell only, R_F/2 full rounds; each round adds
// constants, applies x^5, then multiplies by the MDS matrix). The instances are
// Filecoin's (neptune's), derived in circuits/filecoin/hashers/poseidon_constants.hpp.
#pragma once

#include <span>

#include "hash/poseidon_params.hpp"

namespace zkpipe::hash::poseidon {

void permute(const Params& p, std::span<Fr> state);

}  // namespace zkpipe::hash::poseidon
