// A node of a sector, label or commitment as SDR stores it: 32 bytes holding an Fr
// element little-endian. SHA-256 outputs become such nodes through the SHA-256
// domain's trim (sha256_domain.hpp: the top two bits of the last byte cleared).
#pragma once

#include "circuits/filecoin/hashers/sha256_domain.hpp"

namespace zkpipe::filecoin::core {

using NodeBytes = hashers::Sha256Domain;

}  // namespace zkpipe::filecoin::core
