#include "groth16/stored_points.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <type_traits>

namespace zkpipe::groth16 {

namespace {

static_assert(std::is_standard_layout_v<G1Affine> && std::is_standard_layout_v<G2Affine>);

bool is_canonical(const ff::Fp& x) { return ff::limbs_less(x.mont(), ff::Fp::kModulus); }
bool is_canonical(const ff::Fp2& x) { return is_canonical(x.c0) && is_canonical(x.c1); }

template <class Point>
bool is_well_formed(const std::uint8_t* stored) {
  // The flag is read as a byte first: any other value in a bool is undefined behaviour.
  std::uint8_t flag = 0;
  std::memcpy(&flag, stored + offsetof(Point, infinity), 1);
  if (flag > 1) return false;
  Point p;
  std::memcpy(static_cast<void*>(&p), stored, sizeof(Point));
  if (p.infinity) return true;
  return is_canonical(p.x) && is_canonical(p.y) && p.is_on_curve();
}

}  // namespace

template <class Point>
std::optional<std::size_t> first_malformed_point(std::span<const std::uint8_t> bytes) {
  const std::size_t count = bytes.size() / sizeof(Point);
  constexpr std::size_t kNone = ~std::size_t{0};
  std::atomic<std::size_t> first{kNone};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 1 << 14), [&](const auto& range) {
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      if (i >= first.load(std::memory_order_relaxed)) return;
      if (!is_well_formed<Point>(bytes.data() + i * sizeof(Point))) {
        std::size_t seen = first.load();
        while (i < seen && !first.compare_exchange_weak(seen, i)) {
        }
        return;
      }
    }
  });
  const std::size_t found = first.load();
  if (found == kNone) return std::nullopt;
  return found;
}

template std::optional<std::size_t> first_malformed_point<G1Affine>(std::span<const std::uint8_t>);
template std::optional<std::size_t> first_malformed_point<G2Affine>(std::span<const std::uint8_t>);

}  // namespace zkpipe::groth16
