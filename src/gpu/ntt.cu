#include "gpu/ntt.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "gpu/cuda_error.hpp"
#include "gpu/field.cuh"

namespace zkpipe::gpu {

namespace {

// A pass's tile is 2^kTileLog elements (64 KiB of shared memory).
constexpr unsigned kTileLog = 11;
constexpr unsigned kElementwiseThreads = 256;

// The stages [s_lo, s_lo + k) of one pass; each block also takes 2^m neighbouring
// columns (index bits 0 … m−1) so its global loads are runs of 2^m elements.
struct Pass {
  unsigned s_lo;
  unsigned k;
  unsigned m;
};

// The first pass takes the low bits (contiguous, no columns needed); the rest are
// split evenly, leaving room in the tile for at least 4 columns.
std::vector<Pass> plan_passes(unsigned lg) {
  std::vector<Pass> passes;
  const unsigned k0 = std::min(lg, kTileLog);
  passes.push_back({0, k0, 0});
  unsigned s = k0;
  unsigned rest = lg - k0;
  const unsigned max_k = kTileLog - 2;
  unsigned count = (rest + max_k - 1) / max_k;
  while (rest > 0) {
    const unsigned k = (rest + count - 1) / count;
    passes.push_back({s, k, std::min(s, kTileLog - k)});
    s += k;
    rest -= k;
    --count;
  }
  return passes;
}

__device__ __forceinline__ u32 reverse_bits(u32 i, u32 lg) { return lg == 0 ? 0 : __brev(i) >> (32 - lg); }

template <bool kDif>
__global__ void ntt_pass_kernel(Fr* data, const Fr* twiddles, u32 lg, u32 s_lo, u32 k, u32 m) {
  extern __shared__ Fr tile[];
  const u32 tile_log = k + m;
  const u32 mid_bits = s_lo - m;
  const u32 mid = blockIdx.x & ((1u << mid_bits) - 1);
  const u32 hi = blockIdx.x >> mid_bits;
  const u32 col_mask = (1u << m) - 1;
  const u32 base = (hi << (s_lo + k)) | (mid << m);

  for (u32 l = threadIdx.x; l < (1u << tile_log); l += blockDim.x) {
    tile[l] = data[base | ((l >> m) << s_lo) | (l & col_mask)];
  }
  __syncthreads();
  for (u32 step = 0; step < k; ++step) {
    const u32 ls = kDif ? k - 1 - step : step;
    const u32 s = s_lo + ls;
    for (u32 b = threadIdx.x; b < (1u << (tile_log - 1)); b += blockDim.x) {
      const u32 c = b & col_mask;
      const u32 q = b >> m;
      const u32 t_low = q & ((1u << ls) - 1);
      const u32 t = ((q >> ls) << (ls + 1)) | t_low;
      const u32 i0 = (t << m) | c;
      const u32 i1 = i0 + (1u << (ls + m));
      // The butterfly's position within its block of 2^(s+1): its index mod 2^s.
      const u32 j = (t_low << s_lo) | (mid << m) | c;
      const Fr w = twiddles[j << (lg - 1 - s)];
      const Fr u = tile[i0];
      if constexpr (kDif) {
        const Fr v = tile[i1];
        tile[i0] = u + v;
        tile[i1] = (u - v) * w;
      } else {
        const Fr v = tile[i1] * w;
        tile[i0] = u + v;
        tile[i1] = u - v;
      }
    }
    __syncthreads();
  }
  for (u32 l = threadIdx.x; l < (1u << tile_log); l += blockDim.x) {
    data[base | ((l >> m) << s_lo) | (l & col_mask)] = tile[l];
  }
}

__global__ void expand_powers_kernel(Fr* out, u32 count, const Fr* hi, const Fr* lo, u32 lo_bits) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = hi[i >> lo_bits] * lo[i & ((1u << lo_bits) - 1)];
}

__global__ void scale_kernel(Fr* data, u32 lg, const Fr* hi, const Fr* lo, u32 lo_bits, bool bit_reversed) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1u << lg)) return;
  const u32 e = bit_reversed ? reverse_bits(i, lg) : i;
  data[i] = data[i] * (hi[e >> lo_bits] * lo[e & ((1u << lo_bits) - 1)]);
}

__global__ void bit_reverse_kernel(Fr* data, u32 lg) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1u << lg)) return;
  const u32 j = reverse_bits(i, lg);
  if (i < j) {
    const Fr t = data[i];
    data[i] = data[j];
    data[j] = t;
  }
}

__global__ void quotient_kernel(Fr* a, const Fr* b, const Fr* c, u32 n, Fr z_inv, bool divide) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Fr d = a[i] * b[i] - c[i];
  a[i] = divide ? d * z_inv : d;
}

unsigned elementwise_blocks(std::size_t n) { return static_cast<unsigned>((n + kElementwiseThreads - 1) / kElementwiseThreads); }

Fr* dev(ff::Fr* p) { return reinterpret_cast<Fr*>(p); }
const Fr* dev(const ff::Fr* p) { return reinterpret_cast<const Fr*>(p); }

Fr to_device(const ff::Fr& x) {
  Fr r;
  static_assert(sizeof(r) == sizeof(x));
  std::memcpy(&r, &x, sizeof(r));
  return r;
}

void upload(DeviceBuffer<ff::Fr>& dst, const std::vector<ff::Fr>& src) {
  dst.reserve(src.size());
  check(cudaMemcpy(dst.data(), src.data(), src.size() * sizeof(ff::Fr), cudaMemcpyHostToDevice), "upload table");
}

// ω^j for j < 2^log_count, built on the device from the two-level table.
DeviceBuffer<ff::Fr> twiddle_table(const ff::Fr& omega, unsigned log_count) {
  DevicePowers powers(omega, ff::Fr::one(), log_count);
  const std::size_t count = std::size_t{1} << log_count;
  DeviceBuffer<ff::Fr> table(count);
  expand_powers_kernel<<<elementwise_blocks(count), kElementwiseThreads>>>(
      dev(table.data()), static_cast<u32>(count), dev(powers.hi.data()), dev(powers.lo.data()), powers.lo_bits);
  check_launch("expand_powers_kernel");
  check(cudaDeviceSynchronize(), "twiddle table");
  return table;
}

}  // namespace

DevicePowers::DevicePowers(const ff::Fr& x, const ff::Fr& scale, unsigned log_count) : lo_bits((log_count + 1) / 2) {
  const std::size_t lo_count = std::size_t{1} << lo_bits;
  const std::size_t hi_count = std::size_t{1} << (log_count - lo_bits);
  std::vector<ff::Fr> lo_host(lo_count);
  std::vector<ff::Fr> hi_host(hi_count);
  lo_host[0] = ff::Fr::one();
  for (std::size_t i = 1; i < lo_count; ++i) lo_host[i] = lo_host[i - 1] * x;
  const ff::Fr step = lo_host[lo_count - 1] * x;  // x^(2^lo_bits)
  hi_host[0] = scale;
  for (std::size_t i = 1; i < hi_count; ++i) hi_host[i] = hi_host[i - 1] * step;
  upload(lo, lo_host);
  upload(hi, hi_host);
}

DeviceNtt::DeviceNtt(const poly::EvaluationDomain& domain)
    : log_size_(domain.log_size()),
      vanishing_inv_(domain.vanishing_on_coset_inv()),
      forward_twiddles_(twiddle_table(domain.omega(), log_size_ == 0 ? 0 : log_size_ - 1)),
      inverse_twiddles_(twiddle_table(domain.omega_inv(), log_size_ == 0 ? 0 : log_size_ - 1)),
      size_inv_(ff::Fr::one(), domain.size_inv(), log_size_),
      shift_(domain.coset_shift(), ff::Fr::one(), log_size_),
      shift_over_size_(domain.coset_shift(), domain.size_inv(), log_size_),
      shift_inv_over_size_(domain.coset_shift_inv(), domain.size_inv(), log_size_) {
  const int smem = static_cast<int>(sizeof(Fr) << kTileLog);
  check(cudaFuncSetAttribute(ntt_pass_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
        "ntt smem attribute");
  check(cudaFuncSetAttribute(ntt_pass_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
        "ntt smem attribute");
}

void DeviceNtt::dif(ff::Fr* values, const ff::Fr* twiddles, cudaStream_t stream) const {
  const std::vector<Pass> passes = plan_passes(log_size_);
  for (auto it = passes.rbegin(); it != passes.rend(); ++it) {
    const unsigned tile_log = it->k + it->m;
    if (it->k == 0) continue;
    const unsigned threads = std::max(1u, std::min(1024u, 1u << (tile_log - 1)));
    const unsigned blocks = 1u << (log_size_ - tile_log);
    ntt_pass_kernel<true><<<blocks, threads, sizeof(Fr) << tile_log, stream>>>(dev(values), dev(twiddles), log_size_,
                                                                               it->s_lo, it->k, it->m);
    check_launch("ntt_pass_kernel<dif>");
  }
}

void DeviceNtt::dit(ff::Fr* values, const ff::Fr* twiddles, cudaStream_t stream) const {
  for (const Pass& pass : plan_passes(log_size_)) {
    const unsigned tile_log = pass.k + pass.m;
    if (pass.k == 0) continue;
    const unsigned threads = std::max(1u, std::min(1024u, 1u << (tile_log - 1)));
    const unsigned blocks = 1u << (log_size_ - tile_log);
    ntt_pass_kernel<false><<<blocks, threads, sizeof(Fr) << tile_log, stream>>>(dev(values), dev(twiddles), log_size_,
                                                                                pass.s_lo, pass.k, pass.m);
    check_launch("ntt_pass_kernel<dit>");
  }
}

void DeviceNtt::scale(ff::Fr* values, const DevicePowers& powers, bool bit_reversed_index, cudaStream_t stream) const {
  scale_kernel<<<elementwise_blocks(size()), kElementwiseThreads, 0, stream>>>(
      dev(values), log_size_, dev(powers.hi.data()), dev(powers.lo.data()), powers.lo_bits, bit_reversed_index);
  check_launch("scale_kernel");
}

void DeviceNtt::bit_reverse(ff::Fr* values, cudaStream_t stream) const {
  bit_reverse_kernel<<<elementwise_blocks(size()), kElementwiseThreads, 0, stream>>>(dev(values), log_size_);
  check_launch("bit_reverse_kernel");
}

void DeviceNtt::transform(ff::Fr* values, Direction direction, poly::NttOrder order, cudaStream_t stream) const {
  const ff::Fr* twiddles = direction == Direction::forward ? forward_twiddles_.data() : inverse_twiddles_.data();
  switch (order) {
    case poly::NttOrder::natural_to_bit_reversed:
      dif(values, twiddles, stream);
      break;
    case poly::NttOrder::bit_reversed_to_natural:
      dit(values, twiddles, stream);
      break;
    case poly::NttOrder::natural_to_natural:
      dif(values, twiddles, stream);
      bit_reverse(values, stream);
      break;
  }
}

void DeviceNtt::forward(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const {
  transform(values, Direction::forward, order, stream);
}

void DeviceNtt::inverse(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const {
  transform(values, Direction::inverse, order, stream);
  scale(values, size_inv_, false, stream);
}

void DeviceNtt::coset_forward(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const {
  scale(values, shift_, order == poly::NttOrder::bit_reversed_to_natural, stream);
  transform(values, Direction::forward, order, stream);
}

void DeviceNtt::coset_inverse(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const {
  transform(values, Direction::inverse, order, stream);
  scale(values, shift_inv_over_size_, order == poly::NttOrder::natural_to_bit_reversed, stream);
}

void DeviceNtt::h_scalars(ff::Fr* a, ff::Fr* b, ff::Fr* c, bool divide_and_interpolate, cudaStream_t stream) const {
  // Evaluations on H → coefficients (bit-reversed, scaled by g^i/N in one pass) →
  // evaluations on the coset gH, natural order.
  for (ff::Fr* v : {a, b, c}) {
    dif(v, inverse_twiddles_.data(), stream);
    scale(v, shift_over_size_, true, stream);
    dit(v, forward_twiddles_.data(), stream);
  }
  quotient_kernel<<<elementwise_blocks(size()), kElementwiseThreads, 0, stream>>>(
      dev(a), dev(b), dev(c), static_cast<u32>(size()), to_device(vanishing_inv_), divide_and_interpolate);
  check_launch("quotient_kernel");
  if (!divide_and_interpolate) return;
  dif(a, inverse_twiddles_.data(), stream);
  scale(a, shift_inv_over_size_, true, stream);
  bit_reverse(a, stream);
}

}  // namespace zkpipe::gpu
