#include "ec/batch_affine_x8.hpp"

#include <array>

#ifdef ZKPIPE_FF_X86_64

namespace zkpipe::ec::detail {

namespace {

// 1/x per lane (every lane nonzero), with one field inversion.
template <class Field, class Lanes>
Lanes invert_lanes(const Lanes& x) {
  std::array<Field, 8> value;
  std::array<Field, 8> prefix;
  Field acc = Field::one();
  for (std::size_t lane = 0; lane < 8; ++lane) {
    value[lane] = x.get(lane);
    acc *= value[lane];
    prefix[lane] = acc;
  }
  Field inv = acc.inverse();
  Lanes out{};
  for (std::size_t lane = 8; lane-- > 0;) {
    out.set(lane, lane > 0 ? inv * prefix[lane - 1] : inv);
    inv *= value[lane];
  }
  return out;
}

// Lanes past the batch's end add (1, 0) to (0, 0): a nonzero denominator, never
// written back.
template <class Curve>
void stage(std::span<const Affine<Curve>> buckets, std::span<const PendingAdd<Curve>> batch,
           BatchAddScratchX8<Curve>& s, std::size_t groups) {
  using Field = typename Curve::Field;
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::size_t lane = 0; lane < 8; ++lane) {
      const std::size_t e = 8 * g + lane;
      if (e < batch.size()) {
        const Affine<Curve>& bucket = buckets[batch[e].bucket];
        s.x1[g].set(lane, bucket.x);
        s.y1[g].set(lane, bucket.y);
        s.x2[g].set(lane, batch[e].point.x);
        s.y2[g].set(lane, batch[e].point.y);
      } else {
        s.x1[g].set(lane, Field::zero());
        s.y1[g].set(lane, Field::zero());
        s.x2[g].set(lane, Field::one());
        s.y2[g].set(lane, Field::zero());
      }
    }
  }
}

}  // namespace

template <class Curve>
ZKPIPE_TARGET_AVX512_IFMA void batch_add_x8(std::span<Affine<Curve>> buckets,
                                                                std::span<const PendingAdd<Curve>> batch,
                                                                BatchAddScratchX8<Curve>& s) {
  using Field = typename Curve::Field;
  using Vec = decltype(ff::fpx8_load(s.x1[0]));
  if (batch.empty()) return;
  const std::size_t groups = (batch.size() + 7) / 8;
  s.resize(groups);
  stage<Curve>(buckets, batch, s, groups);

  // prefix[g] = d_0·…·d_g per lane, d = x2 − x1.
  Vec acc = ff::fpx8_sub(ff::fpx8_load(s.x2[0]), ff::fpx8_load(s.x1[0]));
  ff::fpx8_store(s.prefix[0], acc);
  for (std::size_t g = 1; g < groups; ++g) {
    acc = ff::fpx8_mul(acc, ff::fpx8_sub(ff::fpx8_load(s.x2[g]), ff::fpx8_load(s.x1[g])));
    ff::fpx8_store(s.prefix[g], acc);
  }
  Vec inv = ff::fpx8_load(invert_lanes<Field>(s.prefix[groups - 1]));

  for (std::size_t g = groups; g-- > 0;) {
    const Vec x1 = ff::fpx8_load(s.x1[g]);
    const Vec y1 = ff::fpx8_load(s.y1[g]);
    const Vec x2 = ff::fpx8_load(s.x2[g]);
    const Vec y2 = ff::fpx8_load(s.y2[g]);
    Vec d_inv = inv;
    if (g > 0) {
      d_inv = ff::fpx8_mul(inv, ff::fpx8_load(s.prefix[g - 1]));
      inv = ff::fpx8_mul(inv, ff::fpx8_sub(x2, x1));
    }
    const Vec lambda = ff::fpx8_mul(ff::fpx8_sub(y2, y1), d_inv);
    const Vec x3 = ff::fpx8_sub(ff::fpx8_sub(ff::fpx8_square(lambda), x1), x2);
    const Vec y3 = ff::fpx8_sub(ff::fpx8_mul(lambda, ff::fpx8_sub(x1, x3)), y1);
    ff::fpx8_store(s.x1[g], x3);
    ff::fpx8_store(s.y1[g], y3);
  }

  for (std::size_t e = 0; e < batch.size(); ++e) {
    Affine<Curve>& bucket = buckets[batch[e].bucket];
    bucket.x = s.x1[e / 8].get(e % 8);
    bucket.y = s.y1[e / 8].get(e % 8);
  }
}

template void batch_add_x8<G1Curve>(std::span<Affine<G1Curve>>, std::span<const PendingAdd<G1Curve>>,
                                    BatchAddScratchX8<G1Curve>&);
template void batch_add_x8<G2Curve>(std::span<Affine<G2Curve>>, std::span<const PendingAdd<G2Curve>>,
                                    BatchAddScratchX8<G2Curve>&);

}  // namespace zkpipe::ec::detail

#endif  // ZKPIPE_FF_X86_64
