// Precomputed bases for MSMs over fixed bases used many times (proving-key points).
//
// Each base P is stored with shifted copies 2^(j·q·c)·P, j < m, where c is the window
// size and q = ceil(W / m) for W windows. An MSM then needs only q bucket passes (each
// window v + j·q of a scalar reads copy j) and q·c doublings instead of W passes and
// W·c doublings. The additions into buckets stay the same (one per term and window);
// what shrinks is the bucket reductions, which also lets a larger c pay off.
//
// Memory: m affine points per base, m·sizeof(Affine) = m·104 bytes (G1) or m·200 bytes
// (G2) per base. Measured (bench/msm.cpp G1MsmPrecomputed, one run on the 16-core
// Xeon host of the H200 machine): one thread, m = W (the default) is 1.6× faster at
// 2^12 points (39.5 vs 64.3 ms, c = 13, 20 copies, 8 MiB) and 1.4× at 2^16 (593 vs
// 837 ms, c = 16, 16 copies, 104 MiB); m = 4 gains ~1.2× for 4× memory; on 16 threads
// the gain is small (76 vs 80 ms at 2^16). Worth it for reused keys only where memory
// is plentiful: a 2^27-point G1 key at m = 16 would need ~200 GiB.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "ec/jacobian.hpp"
#include "ec/msm/digits.hpp"
#include "ec/msm/options.hpp"
#include "ff/fr.hpp"

namespace zkpipe::ec {

template <class Curve>
class PrecomputedBases {
 public:
  // copies: m, the shifted copies kept per base (0 = one per window, no doublings).
  // options.window_bits: c (0 = chosen for bases.size() terms and the threads the
  // MSMs will use, options.max_threads or all); the table is built under the same
  // thread cap. Throws std::invalid_argument for a window size out of range.
  explicit PrecomputedBases(std::span<const Affine<Curve>> bases, unsigned copies = 0,
                            const MsmOptions& options = {});

  std::size_t size() const { return size_; }
  const WindowLayout& layout() const { return layout_; }
  unsigned copies() const { return copies_; }
  // q: bucket passes per MSM.
  unsigned passes() const { return passes_; }
  std::size_t memory_bytes() const { return table_.size() * sizeof(Affine<Curve>); }
  // copies() consecutive points per base; copy 0 is the base itself.
  std::span<const Affine<Curve>> table() const { return table_; }

 private:
  std::size_t size_;
  WindowLayout layout_;
  unsigned passes_;
  unsigned copies_;
  std::vector<Affine<Curve>> table_;
};

// sum_i scalars[i]·bases[i]; throws std::invalid_argument when the sizes differ.
// options.window_bits is ignored: the table fixes the window size.
template <class Curve>
Jacobian<Curve> msm(const PrecomputedBases<Curve>& bases, std::span<const ff::Fr> scalars,
                    const MsmOptions& options = {});

extern template class PrecomputedBases<G1Curve>;
extern template class PrecomputedBases<G2Curve>;
extern template Jacobian<G1Curve> msm<G1Curve>(const PrecomputedBases<G1Curve>&,
                                               std::span<const ff::Fr>, const MsmOptions&);
extern template Jacobian<G2Curve> msm<G2Curve>(const PrecomputedBases<G2Curve>&,
                                               std::span<const ff::Fr>, const MsmOptions&);

}  // namespace zkpipe::ec
