// Filecoin's Poseidon instances: neptune's PoseidonConstants over BLS12-381 Fr.
//
// They are not the Poseidon paper's published instances (hash/poseidon_params.hpp):
//  - the Grain LFSR seed carries S-box code 1, not the script's 0, so the round
//    constants are a different stream;
//  - the MDS matrix is the fixed Cauchy matrix 1/(x_i + y_j) with x_i = i and
//    y_j = t + j (i, j < t), not one drawn from the LFSR;
//  - R_F = 8 and R_P depends on the width (neptune's round_numbers: 55 for arity 2,
//    56 for arity 4, 57 for arities 8 and 11, 59 for 16 and 24, 60 for 36),
//    with Strengthened raising R_P by 25 % (rounded up).
// The permutation itself is the plain HADES one (add constants, S-box, MDS), so the
// plain part runs on hash::poseidon::permute. neptune's circuit runs an equivalent
// but re-arranged permutation: round constants folded through the linear layers
// ("compressed") and the partial rounds' MDS factored into sparse matrices. Those
// derived constants are here too, since the circuit's variables hold their values.
#pragma once

#include <cstddef>
#include <vector>

#include "circuits/filecoin/hashers/poseidon_matrix.hpp"
#include "hash/poseidon_params.hpp"

namespace zkpipe::filecoin::hashers::poseidon {

enum class Strength { kStandard, kStrengthened };

// neptune's SparseMatrix: first column w_hat (all t rows), first row's tail v_rest
// (t − 1), identity elsewhere.
struct SparseMatrix {
  std::vector<Fr> w_hat;
  std::vector<Fr> v_rest;
};

struct Constants {
  hash::poseidon::Params plain;  // t, R_F, R_P, round constants, MDS
  SquareMatrix mds{0};           // plain.mds as a matrix
  // 8·t + R_P constants, in the order the circuit adds them: t before the first
  // S-boxes, then t after each S-box layer of the first half, one after each partial
  // S-box, t after each of the last half's S-box layers but the final one.
  std::vector<Fr> compressed_round_constants;
  SquareMatrix pre_sparse_matrix{0};          // the linear layer of the last first-half full round
  std::vector<SparseMatrix> sparse_matrices;  // the linear layer of each partial round, in order

  std::size_t width() const { return plain.t; }
  std::size_t arity() const { return plain.t - 1; }
  std::size_t half_full_rounds() const { return plain.full_rounds / 2; }
  std::size_t partial_rounds() const { return plain.partial_rounds; }
};

// (R_F, R_P) as neptune's round_numbers gives them, for the arities Filecoin
// instantiates (filecoin-hashers' POSEIDON_CONSTANTS_*): 2, 4, 8, 11, 16, 24, 36;
// std::invalid_argument for any other.
std::size_t full_rounds(std::size_t arity);
std::size_t partial_rounds(std::size_t arity, Strength strength);

// Derives everything from the arity; throws std::invalid_argument for an arity that
// is not supported.
Constants make_constants(std::size_t arity, Strength strength = Strength::kStandard);

// The instances, derived once on first use.
const Constants& constants(std::size_t arity, Strength strength = Strength::kStandard);

}  // namespace zkpipe::filecoin::hashers::poseidon
