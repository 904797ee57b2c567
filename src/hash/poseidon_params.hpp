// A Poseidon instance over Fr with the x^5 S-box: its round numbers, round constants
// and MDS matrix. The constants come from the Grain LFSR (grain_lfsr.hpp); Filecoin's
// instances are made in circuits/filecoin/hashers/poseidon_constants.hpp.
#pragma once

#include <cstddef>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::hash::poseidon {

using ff::Fr;

struct Params {
  std::size_t t = 0;
  std::size_t full_rounds = 0;     // R_F, half before and half after the partial rounds
  std::size_t partial_rounds = 0;  // R_P
  std::vector<Fr> round_constants;  // (R_F + R_P)·t, consumed t per round
  std::vector<Fr> mds;              // t×t matrix, row-major

  const Fr& mds_at(std::size_t row, std::size_t col) const { return mds[row * t + col]; }
};

}  // namespace zkpipe::hash::poseidon
