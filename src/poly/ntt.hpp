// Radix-2 number-theoretic transforms over Fr on an EvaluationDomain, in place
// and multithreaded (oneTBB).
//
//   forward:        a_i            -> A(ω^j)       = Σ a_i ω^(ij)
//   inverse:        A(ω^j)         -> a_i          (includes the 1/N)
//   coset forward:  a_i            -> A(g·ω^j)     (a_i scaled by g^i, then forward)
//   coset inverse:  A(g·ω^j)       -> a_i          (inverse, then a_i scaled by g^-i)
//
// The order says how input and output are indexed. Transforms that leave
// bit-reversed output feed transforms that take bit-reversed input, so a
// prover can chain inverse then (coset) forward with no permutation between:
//     inverse_ntt(d, v, NttOrder::natural_to_bit_reversed);
//     coset_forward_ntt(d, v, NttOrder::bit_reversed_to_natural);
// natural_to_natural costs one bit-reversal pass more than the other two.
//
// Every function throws std::invalid_argument unless |values| = domain.size().
#pragma once

#include <span>

#include "ff/fr.hpp"
#include "poly/bit_reverse.hpp"
#include "poly/evaluation_domain.hpp"

namespace zkpipe::poly {

enum class NttOrder { natural_to_natural, natural_to_bit_reversed, bit_reversed_to_natural };

void forward_ntt(const EvaluationDomain& domain, std::span<ff::Fr> values,
                 NttOrder order = NttOrder::natural_to_natural);
void inverse_ntt(const EvaluationDomain& domain, std::span<ff::Fr> values,
                 NttOrder order = NttOrder::natural_to_natural);
void coset_forward_ntt(const EvaluationDomain& domain, std::span<ff::Fr> values,
                       NttOrder order = NttOrder::natural_to_natural);
void coset_inverse_ntt(const EvaluationDomain& domain, std::span<ff::Fr> values,
                       NttOrder order = NttOrder::natural_to_natural);

}  // namespace zkpipe::poly
