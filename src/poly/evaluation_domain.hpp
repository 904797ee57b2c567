// The multiplicative subgroup H = {ω^i : i < N} of Fr, N = 2^k, on which
// Groth16 evaluates its QAP polynomials, together with the coset g·H on which
// the prover divides by the vanishing polynomial Z(x) = x^N − 1 (Z is zero on H
// but equals the constant g^N − 1 on all of g·H).
//
// Holds the constants and the precomputed twiddles every NTT over the domain
// uses; building one costs O(√N) field operations and memory.
#pragma once

#include <cstddef>

#include "ff/fr.hpp"
#include "poly/four_step.hpp"

namespace zkpipe::poly {

class EvaluationDomain {
 public:
  // 2^28 points of Fr are 8 GiB per vector; beyond that a CPU prover has no use.
  static constexpr unsigned kMaxLogSize = 28;

  // The smallest power-of-two domain with at least min_size points. Throws
  // std::invalid_argument for 0 or for more than 2^kMaxLogSize points.
  explicit EvaluationDomain(std::size_t min_size);

  // The same size rule with another choice of roots: ω = root_generator^((r−1)/N)
  // and the given coset shift (snarkjs, for one, takes 5 and ω_2N). Throws
  // std::invalid_argument unless ω has order exactly N (root_generator must be a
  // quadratic non-residue) and the shift lies outside the domain (Z(shift) ≠ 0).
  EvaluationDomain(std::size_t min_size, const ff::Fr& root_generator, const ff::Fr& coset_shift);

  std::size_t size() const { return std::size_t{1} << log_size_; }
  unsigned log_size() const { return log_size_; }

  const ff::Fr& omega() const { return omega_; }          // a primitive N-th root of unity
  const ff::Fr& omega_inv() const { return omega_inv_; }  // ω^-1
  const ff::Fr& size_inv() const { return size_inv_; }    // N^-1
  const ff::Fr& coset_shift() const { return shift_; }    // g = ff::multiplicative_generator()
  const ff::Fr& coset_shift_inv() const { return shift_inv_; }

  // Z(x) = x^N − 1 at any point.
  ff::Fr vanishing_at(const ff::Fr& x) const;
  // Z on the coset g·H: the constant g^N − 1, and its inverse.
  const ff::Fr& vanishing_on_coset() const { return vanishing_on_coset_; }
  const ff::Fr& vanishing_on_coset_inv() const { return vanishing_on_coset_inv_; }

  const FourStepShape& shape() const { return shape_; }
  const FourStepTwiddles& forward_twiddles() const { return forward_; }
  const FourStepTwiddles& inverse_twiddles() const { return inverse_; }

 private:
  EvaluationDomain(unsigned log_size, const ff::Fr& omega, const ff::Fr& coset_shift);

  unsigned log_size_;
  ff::Fr omega_;
  ff::Fr omega_inv_;
  ff::Fr size_inv_;
  ff::Fr shift_;
  ff::Fr shift_inv_;
  ff::Fr vanishing_on_coset_;
  ff::Fr vanishing_on_coset_inv_;
  FourStepShape shape_;
  FourStepTwiddles forward_;
  FourStepTwiddles inverse_;
};

// A primitive 2^log_n-th root of unity taken from a quadratic non-residue g:
// g^((r−1)/2^log_n). Throws std::invalid_argument for log_n > 32 or a residue g.
ff::Fr root_of_unity_from(const ff::Fr& nonresidue, unsigned log_n);

}  // namespace zkpipe::poly
