// Multi-scalar multiplication sum_i scalars[i]·bases[i] on the CPU (Pippenger with
// signed-digit windows, XYZZ buckets, oneTBB threads), for G1 and G2.
//
// Terms with scalar 0 or an identity base are dropped and scalar-1 terms are added
// directly, so Filecoin witnesses, mostly 0s and 1s, cost little more than their
// other terms. Scalars are read in Montgomery form, as ff::Fr holds them.
#pragma once

#include <span>

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "ec/jacobian.hpp"
#include "ec/msm/options.hpp"
#include "ff/fr.hpp"

namespace zkpipe::ec {

// Throws std::invalid_argument when the sizes differ (or exceed 2^32 - 1) or
// options.window_bits is out of range.
template <class Curve>
Jacobian<Curve> msm(std::span<const Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                    const MsmOptions& options = {});

extern template Jacobian<G1Curve> msm<G1Curve>(std::span<const Affine<G1Curve>>,
                                               std::span<const ff::Fr>, const MsmOptions&);
extern template Jacobian<G2Curve> msm<G2Curve>(std::span<const Affine<G2Curve>>,
                                               std::span<const ff::Fr>, const MsmOptions&);

}  // namespace zkpipe::ec
