#include "ec/msm/msm.hpp"

#include <optional>

#include "ec/msm/engine.hpp"
#include "ec/msm/plan.hpp"

namespace zkpipe::ec {

template <class Curve>
Jacobian<Curve> msm(std::span<const Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                    const MsmOptions& options) {
  detail::check_msm_sizes(bases.size(), scalars.size());
  // Built here so that a bad window size is reported before any work.
  const std::optional<WindowLayout> forced_layout =
      options.window_bits == 0 ? std::nullopt : std::optional(WindowLayout(options.window_bits));
  return detail::run_with_thread_cap(options, [&](std::size_t threads) {
    const auto choose_layout = [&](std::size_t terms) {
      return forced_layout.value_or(detail::choose_window_layout(terms, 1, threads));
    };
    const auto passes = [](const WindowLayout& layout) { return layout.windows(); };
    return detail::msm_over_table<Curve>(bases, 1, scalars, choose_layout, passes, options.buckets,
                                         threads);
  });
}

template Jacobian<G1Curve> msm<G1Curve>(std::span<const Affine<G1Curve>>, std::span<const ff::Fr>,
                                        const MsmOptions&);
template Jacobian<G2Curve> msm<G2Curve>(std::span<const Affine<G2Curve>>, std::span<const ff::Fr>,
                                        const MsmOptions&);

}  // namespace zkpipe::ec
