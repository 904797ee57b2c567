#include "poly/bit_reverse.hpp"

#include <array>
#include <bit>
#include <stdexcept>
#include <string>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace zkpipe::poly {

namespace {

using ff::Fr;

// Indices split as (hi, mid, lo) with hi and lo kTileBits wide. The reversal
// sends tile T(mid) = {(hi, mid, lo)} onto tile T(rev mid), element (hi, lo) to
// (rev lo, rev hi), so whole tiles of 2^kTileBits short contiguous runs move
// together instead of one scattered element at a time.
constexpr unsigned kTileBits = 4;
constexpr std::size_t kTileSide = std::size_t{1} << kTileBits;
using Tile = std::array<Fr, kTileSide * kTileSide>;

void swap_pairs_directly(std::span<Fr> a, unsigned log_n) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size(), 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      std::size_t j = reverse_bits(i, log_n);
      if (i < j) std::swap(a[i], a[j]);
    }
  });
}

void load_tile(std::span<const Fr> a, std::size_t base, std::size_t row_stride, Tile& tile) {
  for (std::size_t hi = 0; hi < kTileSide; ++hi) {
    for (std::size_t lo = 0; lo < kTileSide; ++lo) {
      tile[hi * kTileSide + lo] = a[base + hi * row_stride + lo];
    }
  }
}

// Writes tile element (hi, lo) to position (rev lo, rev hi) of the tile at base.
void store_tile_reversed(std::span<Fr> a, std::size_t base, std::size_t row_stride,
                         const Tile& tile) {
  for (std::size_t hi = 0; hi < kTileSide; ++hi) {
    for (std::size_t lo = 0; lo < kTileSide; ++lo) {
      std::size_t to = reverse_bits(lo, kTileBits) * row_stride + reverse_bits(hi, kTileBits);
      a[base + to] = tile[hi * kTileSide + lo];
    }
  }
}

void swap_tiles(std::span<Fr> a, unsigned log_n) {
  const unsigned mid_bits = log_n - 2 * kTileBits;
  const std::size_t row_stride = std::size_t{1} << (log_n - kTileBits);
  const std::size_t tiles = std::size_t{1} << mid_bits;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tiles, 16), [&](const auto& range) {
    Tile first;
    Tile second;
    for (std::size_t mid = range.begin(); mid != range.end(); ++mid) {
      std::size_t partner = reverse_bits(mid, mid_bits);
      if (partner < mid) continue;
      std::size_t base = mid << kTileBits;
      std::size_t partner_base = partner << kTileBits;
      load_tile(a, base, row_stride, first);
      load_tile(a, partner_base, row_stride, second);
      store_tile_reversed(a, partner_base, row_stride, first);
      if (partner != mid) store_tile_reversed(a, base, row_stride, second);
    }
  });
}

}  // namespace

void bit_reverse_permutation(std::span<Fr> a) {
  if (!std::has_single_bit(a.size())) {
    throw std::invalid_argument("bit_reverse_permutation: size " + std::to_string(a.size()) +
                                " is not a power of two");
  }
  const auto log_n = static_cast<unsigned>(std::countr_zero(a.size()));
  if (log_n < 2 * kTileBits + 4) {
    swap_pairs_directly(a, log_n);
  } else {
    swap_tiles(a, log_n);
  }
}

}  // namespace zkpipe::poly
