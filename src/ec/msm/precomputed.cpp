#include "ec/msm/precomputed.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

#include "ec/batch_normalize.hpp"
#include "ec/msm/engine.hpp"
#include "ec/msm/plan.hpp"

namespace zkpipe::ec {

namespace {

WindowLayout precomputed_layout(std::size_t points, unsigned copies, const MsmOptions& options) {
  if (options.window_bits != 0) return WindowLayout(options.window_bits);
  return detail::run_with_thread_cap(options, [&](std::size_t threads) {
    return detail::choose_window_layout(points, copies, threads);
  });
}

// Writes the copies of bases [begin, end) into table: for each base, repeated
// doubling in Jacobian coordinates, then one batch normalization for the block.
template <class Curve>
void fill_copies(std::span<const Affine<Curve>> bases, std::size_t begin, std::size_t end,
                 unsigned copies, unsigned doublings_per_copy, std::span<Affine<Curve>> table) {
  std::vector<Jacobian<Curve>> shifted((end - begin) * copies);
  for (std::size_t i = begin; i < end; ++i) {
    Jacobian<Curve> p = Jacobian<Curve>::from_affine(bases[i]);
    for (unsigned j = 0; j < copies; ++j) {
      if (j > 0) {
        for (unsigned d = 0; d < doublings_per_copy; ++d) p = p.dbl();
      }
      shifted[(i - begin) * copies + j] = p;
    }
  }
  batch_normalize(std::span<const Jacobian<Curve>>(shifted),
                  table.subspan(begin * copies, shifted.size()));
}

}  // namespace

template <class Curve>
PrecomputedBases<Curve>::PrecomputedBases(std::span<const Affine<Curve>> bases, unsigned copies,
                                          const MsmOptions& options)
    : size_(bases.size()),
      layout_(precomputed_layout(bases.size(), copies, options)),
      passes_(detail::virtual_windows(layout_, copies)),
      // Only as many copies as the passes need (e.g. W = 16 with 5 asked: q = 4, 4 copies).
      copies_((layout_.windows() + passes_ - 1) / passes_) {
  detail::check_msm_term_count(size_);
  table_.resize(size_ * copies_);
  constexpr std::size_t kBlock = 256;
  const std::size_t blocks = (size_ + kBlock - 1) / kBlock;
  detail::run_with_thread_cap(options, [&](std::size_t) {
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
      fill_copies<Curve>(bases, b * kBlock, std::min(size_, (b + 1) * kBlock), copies_,
                         passes_ * layout_.bits(), table_);
    });
  });
}

template <class Curve>
Jacobian<Curve> msm(const PrecomputedBases<Curve>& bases, std::span<const ff::Fr> scalars,
                    const MsmOptions& options) {
  detail::check_msm_sizes(bases.size(), scalars.size());
  return detail::run_with_thread_cap(options, [&](std::size_t threads) {
    const auto layout = [&](std::size_t) { return bases.layout(); };
    const auto passes = [&](const WindowLayout&) { return bases.passes(); };
    return detail::msm_over_table<Curve>(bases.table(), bases.copies(), scalars, layout, passes,
                                         options.buckets, threads);
  });
}

template class PrecomputedBases<G1Curve>;
template class PrecomputedBases<G2Curve>;
template Jacobian<G1Curve> msm<G1Curve>(const PrecomputedBases<G1Curve>&, std::span<const ff::Fr>,
                                        const MsmOptions&);
template Jacobian<G2Curve> msm<G2Curve>(const PrecomputedBases<G2Curve>&, std::span<const ff::Fr>,
                                        const MsmOptions&);

}  // namespace zkpipe::ec
