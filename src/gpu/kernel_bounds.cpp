#include "gpu/kernel_bounds.hpp"

#include "ff/fr.hpp"
#include "gpu/msm.hpp"
#include "gpu/msm_shape.hpp"
#include "gpu/ntt.hpp"

namespace zkpipe::gpu {

KernelBound bound(const KernelWork& work, const DeviceRates& rates) {
  KernelBound out;
  if (rates.bytes_per_second > 0) out.memory_seconds = work.bytes / rates.bytes_per_second;
  if (rates.products_per_second > 0) out.compute_seconds += work.products / rates.products_per_second;
  if (rates.additions_per_second > 0) out.compute_seconds += work.additions / rates.additions_per_second;
  return out;
}

KernelWork h_step_work(unsigned log_size, unsigned tile_log) {
  const double n = static_cast<double>(std::size_t{1} << log_size);
  const double element = sizeof(ff::Fr);
  const auto passes = [&](bool reversing) {
    return static_cast<double>(DeviceNtt::pass_count(log_size, tile_log, reversing));
  };
  // a, b, c: an inverse DIF and a forward DIT each; then the quotient's inverse,
  // reversing its output into natural order.
  const double transform_passes = 3 * (passes(false) + passes(false)) + passes(true);
  KernelWork work;
  work.bytes = transform_passes * 2 * element * n  // each pass reads and writes every element
               + 4 * element * n;                  // the quotient reads a, b, c and writes a
  const double butterflies = log_size == 0 ? 0 : (log_size - 1) * n / 2;
  work.products = 7 * butterflies + 4 * n + 2 * n;
  return work;
}

KernelWork msm_accumulate_work(std::size_t terms, unsigned window_bits) {
  const msm_shape::WindowShape shape = msm_shape::window_shape(window_bits);
  const double entries = static_cast<double>(terms) * shape.windows;
  KernelWork work;
  work.additions = entries;
  work.bytes = entries * (sizeof(G1AffineWords) + sizeof(std::uint32_t));
  return work;
}

KernelWork msm_witness_work(std::size_t terms, std::size_t ones, std::size_t general, unsigned window_bits) {
  KernelWork work = msm_accumulate_work(general, window_bits);
  const double one_terms = static_cast<double>(ones);
  work.additions += one_terms;
  work.bytes += one_terms * (sizeof(G1AffineWords) + sizeof(std::uint32_t)) +
                static_cast<double>(terms) * sizeof(ff::Fr);
  return work;
}

}  // namespace zkpipe::gpu
