#include "gpu/ntt.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "gpu/cuda_error.hpp"
#include "gpu/field.cuh"

namespace zkpipe::gpu {

namespace {

constexpr unsigned kElementwiseThreads = launch::kElementwiseThreads;
// A pass's thread handles 4 tile elements (one radix-4 butterfly per two stages).
constexpr unsigned kElementsPerThread = launch::kNttElementsPerThread;
static_assert(kElementsPerThread == 4 && 2 * sizeof(Fr) == launch::kNttBytesPerElement);
constexpr unsigned kMaxPassThreads = (1u << DeviceNtt::kMaxTileLog) / kElementsPerThread;
// Global loads of a pass with columns are runs of at least 2^kMinColumnsLog elements.
constexpr unsigned kMinColumnsLog = 2;
// The reversing last pass of a natural-order DIF takes 2^kRevTopLog columns from
// the top index bits, so its bit-reversed stores are runs of 2^kRevTopLog elements
// (128 bytes).
constexpr unsigned kRevTopLog = 2;

// The stages [s_lo, s_lo + k) of one pass; each block also takes 2^m neighbouring
// columns (index bits 0 … m−1) so its global loads are runs of 2^m elements.
struct Pass {
  unsigned s_lo;
  unsigned k;
  unsigned m;
};

// The first pass takes the low bits (contiguous, no columns needed); the rest are
// split evenly, leaving room in the tile for at least 2^kMinColumnsLog columns.
// With `reversing`, the first pass is the reversing one (a DIF's last): fewer
// stages, its columns from the top bits.
std::vector<Pass> plan_passes(unsigned lg, unsigned tile_log, bool reversing = false) {
  std::vector<Pass> passes;
  const unsigned k0 = std::min(lg, reversing ? tile_log - kRevTopLog : tile_log);
  passes.push_back({0, k0, reversing ? std::min(kRevTopLog, lg - k0) : 0});
  unsigned s = k0;
  unsigned rest = lg - k0;
  const unsigned max_k = tile_log - kMinColumnsLog;
  unsigned count = (rest + max_k - 1) / max_k;
  while (rest > 0) {
    const unsigned k = (rest + count - 1) / count;
    passes.push_back({s, k, std::min(s, tile_log - k)});
    s += k;
    rest -= k;
    --count;
  }
  return passes;
}

__device__ __forceinline__ u32 reverse_bits(u32 i, u32 lg) { return lg == 0 ? 0 : __brev(i) >> (32 - lg); }

__device__ __forceinline__ Fr power(const Fr* hi, const Fr* lo, u32 lo_bits, u32 e) {
  return hi[e >> lo_bits] * lo[e & ((1u << lo_bits) - 1)];
}

// The twiddle ω_{2^(s+1)}^j of stage s (j < 2^s): for the low stages from the stage
// tables (entry [2^s + j]), for the rest computed as ω^(j·2^(lg−1−s)) from two tables
// of about 2^(lg/2) powers. Tables for every stage would take 2·32·N bytes (8 GiB
// for both directions at 2^27); one product per twiddle in the top stages' passes
// costs far less than the memory.
struct Twiddles {
  const Fr* table;
  u32 table_stages;
  const Fr* hi;
  const Fr* lo;
  u32 lo_bits;
  u32 lg;

  __device__ __forceinline__ Fr get(u32 s, u32 j) const {
    if (s < table_stages) return table[(1u << s) + j];
    return power(hi, lo, lo_bits, j << (lg - 1 - s));
  }
};

// A pass's output scaling: the value stored at index o is multiplied by x^e,
// e = o or bitrev(o) (x^e from DevicePowers tables); none when hi is null.
struct StoreScale {
  const Fr* hi = nullptr;
  const Fr* lo = nullptr;
  u32 lo_bits = 0;
  bool bit_reversed = false;
};

// Fr values in shared memory as two planes of 16-byte halves: a quarter warp
// reading consecutive elements then touches eight distinct bank groups, where
// 32-byte elements side by side would put elements i and i+4 in the same banks.
struct SharedFr {
  uint4* lo;
  uint4* hi;

  __device__ __forceinline__ Fr get(u32 i) const {
    const uint4 a = lo[i];
    const uint4 b = hi[i];
    return Fr{{a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w}};
  }
  __device__ __forceinline__ void set(u32 i, const Fr& x) const {
    lo[i] = make_uint4(x.v[0], x.v[1], x.v[2], x.v[3]);
    hi[i] = make_uint4(x.v[4], x.v[5], x.v[6], x.v[7]);
  }
};

// One pass: the tile and every twiddle its stages use go to shared memory first
// (all global loads in flight together, none between stages), then the stages run
// two at a time as radix-4 butterflies held in registers.
//
// Stage s (pairs 2^s apart) uses ω_{2^(s+1)}^j, j < 2^s (Twiddles), so a block's
// twiddles for one stage are runs of 2^m consecutive entries, like its data.
//
// kRev (DIF, s_lo = 0): the last pass of a natural-order output. Index bits are
// (top: 2^m columns, mid, low: the k stages); each value is stored at its
// bit-reversed index (bitrev t, bitrev mid, bitrev c). Those indices belong to
// other blocks' tiles, so unless one block holds the whole vector the pass reads
// a copy the previous pass left elsewhere (out of place). Its twiddles are the
// same for every column.
template <bool kDif, bool kRev = false>
class PassTile {
 public:
  __device__ PassTile(uint4* smem, u32 lg, u32 s_lo, u32 k, u32 m)
      : lg_(lg), s_lo_(s_lo), k_(k), m_(m), col_mask_((1u << m) - 1), size_(1u << (k + m)),
        tile_{smem, smem + size_},
        tw_{smem + 2 * size_, smem + 2 * size_ + (((1u << k) - 1) << m)} {
    if constexpr (kRev) {
      mid_ = blockIdx.x;
    } else {
      const u32 mid_bits = s_lo - m;
      mid_ = blockIdx.x & ((1u << mid_bits) - 1);
      base_ = ((blockIdx.x >> mid_bits) << (s_lo + k)) | (mid_ << m);
    }
  }

  __device__ void load(const Fr* data, const Twiddles& twiddles) const {
    const u32 tw_count = ((1u << k_) - 1) << m_;
    Fr x[kElementsPerThread];
    Fr w[kElementsPerThread];
#pragma unroll
    for (u32 r = 0; r < kElementsPerThread; ++r) {
      const u32 l = threadIdx.x + r * blockDim.x;
      if (l < size_) x[r] = data[global_index(l)];
      if (l < tw_count) {
        const u32 row = (l >> m_) + 1;  // 2^ls + t_low
        const u32 ls = 31 - __clz(row);
        const u32 t_low = row - (1u << ls);
        w[r] = kRev ? twiddles.get(ls, t_low)
                    : twiddles.get(s_lo_ + ls, (t_low << s_lo_) | (mid_ << m_) | (l & col_mask_));
      }
    }
#pragma unroll
    for (u32 r = 0; r < kElementsPerThread; ++r) {
      const u32 l = threadIdx.x + r * blockDim.x;
      if (l < size_) tile_.set(l, x[r]);
      if (l < tw_count) tw_.set(l, w[r]);
    }
    __syncthreads();
  }

  __device__ void store(Fr* data, const StoreScale& scale) const {
#pragma unroll
    for (u32 r = 0; r < kElementsPerThread; ++r) {
      const u32 l = threadIdx.x + r * blockDim.x;
      if (l >= size_) continue;
      const u32 o = kRev ? reverse_bits(global_index(l), lg_) : global_index(l);
      Fr x = tile_.get(l);
      if (scale.hi != nullptr) {
        x = x * power(scale.hi, scale.lo, scale.lo_bits, scale.bit_reversed ? reverse_bits(o, lg_) : o);
      }
      data[o] = x;
    }
  }

  // DIF runs the stages from the top down, DIT from the bottom up; an odd stage
  // count leaves one radix-2 stage, done first.
  __device__ void run() const {
    if (k_ % 2 == 1) {
      radix2(kDif ? k_ - 1 : 0);
      __syncthreads();
    }
    for (u32 i = k_ % 2; i < k_; i += 2) {
      radix4(kDif ? k_ - 1 - i - 1 : i);
      __syncthreads();
    }
  }

 private:
  // The input index of tile element l (for kRev, before the reversal).
  __device__ u32 global_index(u32 l) const {
    if constexpr (kRev) {
      const u32 top = m_ == 0 ? 0 : (l & col_mask_) << (lg_ - m_);
      return top | (mid_ << k_) | (l >> m_);
    } else {
      return base_ | ((l >> m_) << s_lo_) | (l & col_mask_);
    }
  }
  __device__ u32 index(u32 t, u32 c) const { return (t << m_) | c; }
  // Stage s_lo + ls is the full transform's stage 0 only when both are 0; its
  // twiddles are all 1.
  __device__ bool trivial(u32 ls) const { return s_lo_ + ls == 0; }
  __device__ Fr twiddle(u32 ls, u32 t, u32 c) const {
    return tw_.get((((1u << ls) - 1 + (t & ((1u << ls) - 1))) << m_) | c);
  }

  __device__ static void butterfly(Fr& u, Fr& v, const Fr& w, bool trivial) {
    if constexpr (kDif) {
      const Fr d = u - v;
      u = u + v;
      v = trivial ? d : d * w;
    } else {
      const Fr x = trivial ? v : v * w;
      v = u - x;
      u = u + x;
    }
  }

  __device__ void radix2(u32 ls) const {
    for (u32 b = threadIdx.x; b < size_ / 2; b += blockDim.x) {
      const u32 c = b & col_mask_;
      const u32 q = b >> m_;
      const u32 t0 = ((q >> ls) << (ls + 1)) | (q & ((1u << ls) - 1));
      const u32 i0 = index(t0, c);
      const u32 i1 = index(t0 + (1u << ls), c);
      Fr u = tile_.get(i0);
      Fr v = tile_.get(i1);
      const bool triv = trivial(ls);
      butterfly(u, v, triv ? u : twiddle(ls, t0, c), triv);
      tile_.set(i0, u);
      tile_.set(i1, v);
    }
  }

  // Stages a and a + 1 on the quad t0, t0 + 2^a, t0 + 2^(a+1), t0 + 2^a + 2^(a+1).
  __device__ void radix4(u32 a) const {
    for (u32 q = threadIdx.x; q < size_ / 4; q += blockDim.x) {
      const u32 c = q & col_mask_;
      const u32 rest = q >> m_;
      const u32 t0 = ((rest >> a) << (a + 2)) | (rest & ((1u << a) - 1));
      const u32 t1 = t0 + (1u << a);
      const u32 i[4] = {index(t0, c), index(t1, c), index(t0 + (2u << a), c), index(t1 + (2u << a), c)};
      Fr x[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) x[e] = tile_.get(i[e]);
      const bool triv = trivial(a);
      if constexpr (kDif) {
        butterfly(x[0], x[2], twiddle(a + 1, t0, c), false);
        butterfly(x[1], x[3], twiddle(a + 1, t1, c), false);
        const Fr w = triv ? x[0] : twiddle(a, t0, c);
        butterfly(x[0], x[1], w, triv);
        butterfly(x[2], x[3], w, triv);
      } else {
        const Fr w = triv ? x[0] : twiddle(a, t0, c);
        butterfly(x[0], x[1], w, triv);
        butterfly(x[2], x[3], w, triv);
        butterfly(x[0], x[2], twiddle(a + 1, t0, c), false);
        butterfly(x[1], x[3], twiddle(a + 1, t1, c), false);
      }
#pragma unroll
      for (int e = 0; e < 4; ++e) tile_.set(i[e], x[e]);
    }
  }

  u32 lg_, s_lo_, k_, m_, col_mask_, size_;
  u32 mid_ = 0, base_ = 0;
  SharedFr tile_, tw_;
};

// Three blocks of the largest tile fit a multiprocessor's shared memory; the
// register cap that follows keeps all three resident.
// The pass reads src and writes dst: the same vector (in place) or, around a
// reversing pass, two different ones.
template <bool kDif, bool kRev>
__global__ void __launch_bounds__(kMaxPassThreads, 3)
    ntt_pass_kernel(const Fr* src, Fr* dst, Twiddles twiddles, u32 lg, u32 s_lo, u32 k, u32 m, StoreScale scale) {
  extern __shared__ uint4 smem[];
  const PassTile<kDif, kRev> tile(smem, lg, s_lo, k, m);
  tile.load(src, twiddles);
  tile.run();
  tile.store(dst, scale);
}

// Shared memory bytes of a pass: the tile and its twiddles, both 2^(k+m) at most.
std::size_t pass_smem(const Pass& p) { return 2 * sizeof(Fr) << (p.k + p.m); }

__global__ void expand_powers_kernel(Fr* out, u32 count, const Fr* hi, const Fr* lo, u32 lo_bits) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = power(hi, lo, lo_bits, i);
}

// table[2^s + j] = ω_{2^(s+1)}^j for s < lg − 1, from the top stage's entries
// table[2^(lg−1) + j] = ω^j: ω_{2^(s+1)} = ω^(2^(lg−1−s)).
__global__ void stage_tables_kernel(Fr* table, u32 lg) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 || i >= (1u << (lg - 1))) return;
  const u32 s = 31 - __clz(i);
  table[i] = table[(1u << (lg - 1)) + ((i - (1u << s)) << (lg - 1 - s))];
}

__global__ void scale_kernel(Fr* data, u32 lg, const Fr* hi, const Fr* lo, u32 lo_bits, bool bit_reversed) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1u << lg)) return;
  data[i] = data[i] * power(hi, lo, lo_bits, bit_reversed ? reverse_bits(i, lg) : i);
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

// Entries of the stage tables of lg stages (entry 0 unused; at least two).
std::size_t stage_table_entries(unsigned lg) { return std::size_t{2} << (lg == 0 ? 0 : lg - 1); }

// The stage tables of a transform of size 2^lg with root omega (2^lg entries;
// entry 0 unused).
DeviceBuffer<ff::Fr> stage_twiddles(const ff::Fr& omega, unsigned lg, memory::BufferLedger& ledger) {
  DeviceBuffer<ff::Fr> table(ledger, stage_table_entries(lg));
  if (lg == 0) return table;
  const DevicePowers powers(omega, ff::Fr::one(), lg - 1, ledger);
  const std::size_t half = std::size_t{1} << (lg - 1);
  expand_powers_kernel<<<elementwise_blocks(half), kElementwiseThreads>>>(
      dev(table.data() + half), static_cast<u32>(half), dev(powers.hi.data()), dev(powers.lo.data()), powers.lo_bits);
  check_launch("expand_powers_kernel");
  stage_tables_kernel<<<elementwise_blocks(half), kElementwiseThreads>>>(dev(table.data()), lg);
  check_launch("stage_tables_kernel");
  check(cudaDeviceSynchronize(), "twiddle table");
  return table;
}

}  // namespace

std::size_t DevicePowers::entries(unsigned log_count) {
  const unsigned lo_bits = (log_count + 1) / 2;
  return (std::size_t{1} << lo_bits) + (std::size_t{1} << (log_count - lo_bits));
}

DevicePowers::DevicePowers(const ff::Fr& x, const ff::Fr& scale, unsigned log_count, memory::BufferLedger& ledger)
    : hi(ledger), lo(ledger), lo_bits((log_count + 1) / 2) {
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

DeviceNtt::StageTwiddles::StageTwiddles(const ff::Fr& omega, unsigned log_size, unsigned table_stages,
                                        memory::BufferLedger& ledger)
    : table(ledger), stages(std::min(log_size, table_stages)) {
  // The tables' stages use the roots of order up to 2^stages: ω^(2^(log_size − stages)).
  ff::Fr root = omega;
  for (unsigned i = stages; i < log_size; ++i) root = root * root;
  table = stage_twiddles(root, stages, ledger);
  if (stages < log_size) top.emplace(omega, ff::Fr::one(), log_size - 1, ledger);
}

std::size_t DeviceNtt::pass_count(unsigned log_size, unsigned tile_log, bool reversing) {
  if (log_size == 0) return 0;
  const std::vector<Pass> passes =
      plan_passes(log_size, std::clamp(tile_log, kMinColumnsLog + 2, kMaxTileLog), reversing);
  return static_cast<std::size_t>(std::count_if(passes.begin(), passes.end(), [](const Pass& p) { return p.k > 0; }));
}

std::size_t DeviceNtt::table_bytes(unsigned log_size, unsigned table_stages) {
  const unsigned stages = std::min(log_size, table_stages);
  std::size_t per_direction = stage_table_entries(stages);
  if (stages < log_size) per_direction += DevicePowers::entries(log_size - 1);
  // Both directions, and the four scalings' powers.
  return (2 * per_direction + 4 * DevicePowers::entries(log_size)) * sizeof(ff::Fr);
}

DeviceNtt::DeviceNtt(const poly::EvaluationDomain& domain, unsigned tile_log, unsigned table_stages)
    : DeviceNtt(domain, memory::BufferLedger::process(), tile_log, table_stages) {}

DeviceNtt::DeviceNtt(const poly::EvaluationDomain& domain, memory::BufferLedger& ledger, unsigned tile_log,
                     unsigned table_stages)
    : log_size_(domain.log_size()),
      tile_log_(std::clamp(tile_log, kMinColumnsLog + 2, kMaxTileLog)),
      vanishing_inv_(domain.vanishing_on_coset_inv()),
      forward_twiddles_(domain.omega(), log_size_, table_stages, ledger),
      inverse_twiddles_(domain.omega_inv(), log_size_, table_stages, ledger),
      size_inv_(ff::Fr::one(), domain.size_inv(), log_size_, ledger),
      shift_(domain.coset_shift(), ff::Fr::one(), log_size_, ledger),
      shift_over_size_(domain.coset_shift(), domain.size_inv(), log_size_, ledger),
      shift_inv_over_size_(domain.coset_shift_inv(), domain.size_inv(), log_size_, ledger),
      scratch_(ledger) {
  // The tile's own shared memory, not the largest tile's: a device whose blocks take
  // less (choose_kernel_config) still runs the tiles that fit.
  const int smem = static_cast<int>(2 * sizeof(Fr) << tile_log_);
  for (auto kernel : {ntt_pass_kernel<true, false>, ntt_pass_kernel<false, false>, ntt_pass_kernel<true, true>}) {
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "ntt smem attribute");
  }
}

void DeviceNtt::run_pass(const ff::Fr* src, ff::Fr* dst, const StageTwiddles& twiddles, PassKind kind, unsigned s_lo,
                         unsigned k, unsigned m, const DevicePowers* powers, bool scale_bit_reversed,
                         cudaStream_t stream) const {
  const Pass pass{s_lo, k, m};
  const unsigned threads = std::max(1u, (1u << (k + m)) / kElementsPerThread);
  const unsigned blocks = 1u << (log_size_ - k - m);
  StoreScale scale;
  if (powers) scale = {dev(powers->hi.data()), dev(powers->lo.data()), powers->lo_bits, scale_bit_reversed};
  auto kernel = kind == PassKind::dit ? ntt_pass_kernel<false, false>
                : kind == PassKind::dif ? ntt_pass_kernel<true, false>
                                        : ntt_pass_kernel<true, true>;
  Twiddles tw{dev(twiddles.table.data()), twiddles.stages, nullptr, nullptr, 0, log_size_};
  if (twiddles.top) {
    tw.hi = dev(twiddles.top->hi.data());
    tw.lo = dev(twiddles.top->lo.data());
    tw.lo_bits = twiddles.top->lo_bits;
  }
  kernel<<<blocks, threads, pass_smem(pass), stream>>>(dev(src), dev(dst), tw, log_size_, s_lo, k, m, scale);
  check_launch("ntt_pass_kernel");
}

void DeviceNtt::dif(ff::Fr* values, const StageTwiddles& twiddles, bool natural_output, const DevicePowers* powers,
                    ff::Fr* scratch, cudaStream_t stream) const {
  const std::vector<Pass> passes = plan_passes(log_size_, tile_log_, natural_output);
  // With more than one pass, the one before the reversing pass writes to scratch.
  ff::Fr* staged = natural_output && passes.size() > 1 ? scratch_for(scratch) : values;
  for (std::size_t p = passes.size(); p-- > 0;) {
    const Pass& pass = passes[p];
    if (pass.k == 0) continue;
    const ff::Fr* src = p == 0 ? staged : values;
    ff::Fr* dst = p == 1 ? staged : values;
    run_pass(src, dst, twiddles, p == 0 && natural_output ? PassKind::dif_reversing : PassKind::dif, pass.s_lo, pass.k,
             pass.m, p == 0 ? powers : nullptr, !natural_output, stream);
  }
}

void DeviceNtt::dit(ff::Fr* values, const StageTwiddles& twiddles, const DevicePowers* powers, cudaStream_t stream) const {
  const std::vector<Pass> passes = plan_passes(log_size_, tile_log_);
  for (const Pass& pass : passes) {
    if (pass.k == 0) continue;
    const bool last = &pass == &passes.back();
    run_pass(values, values, twiddles, PassKind::dit, pass.s_lo, pass.k, pass.m, last ? powers : nullptr, false,
             stream);
  }
}

ff::Fr* DeviceNtt::scratch_for(ff::Fr* given) const {
  if (given != nullptr) return given;
  const std::lock_guard lock(scratch_mutex_);
  scratch_.reserve(size());
  return scratch_.data();
}

void DeviceNtt::scale(ff::Fr* values, const DevicePowers& powers, bool bit_reversed_index, cudaStream_t stream) const {
  scale_kernel<<<elementwise_blocks(size()), kElementwiseThreads, 0, stream>>>(
      dev(values), log_size_, dev(powers.hi.data()), dev(powers.lo.data()), powers.lo_bits, bit_reversed_index);
  check_launch("scale_kernel");
}

void DeviceNtt::transform(ff::Fr* values, Direction direction, poly::NttOrder order, const DevicePowers* powers,
                          cudaStream_t stream, ff::Fr* scratch) const {
  const StageTwiddles& twiddles = direction == Direction::forward ? forward_twiddles_ : inverse_twiddles_;
  if (log_size_ == 0) {  // no stages and no reordering
    if (powers) scale(values, *powers, false, stream);
    return;
  }
  switch (order) {
    case poly::NttOrder::natural_to_bit_reversed:
      dif(values, twiddles, false, powers, nullptr, stream);
      break;
    case poly::NttOrder::bit_reversed_to_natural:
      dit(values, twiddles, powers, stream);
      break;
    case poly::NttOrder::natural_to_natural:
      dif(values, twiddles, true, powers, scratch, stream);
      break;
  }
}

void DeviceNtt::forward(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const {
  transform(values, Direction::forward, order, nullptr, stream);
}

void DeviceNtt::inverse(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const {
  transform(values, Direction::inverse, order, &size_inv_, stream);
}

void DeviceNtt::coset_forward(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const {
  scale(values, shift_, order == poly::NttOrder::bit_reversed_to_natural, stream);
  transform(values, Direction::forward, order, nullptr, stream);
}

void DeviceNtt::coset_inverse(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const {
  transform(values, Direction::inverse, order, &shift_inv_over_size_, stream);
}

void DeviceNtt::h_scalars(ff::Fr* a, ff::Fr* b, ff::Fr* c, bool divide_and_interpolate, cudaStream_t stream) const {
  // Evaluations on H → coefficients (bit-reversed, scaled by g^i/N as the last pass
  // stores them) → evaluations on the coset gH, natural order.
  for (ff::Fr* v : {a, b, c}) {
    transform(v, Direction::inverse, poly::NttOrder::natural_to_bit_reversed, &shift_over_size_, stream);
    transform(v, Direction::forward, poly::NttOrder::bit_reversed_to_natural, nullptr, stream);
  }
  quotient_kernel<<<elementwise_blocks(size()), kElementwiseThreads, 0, stream>>>(
      dev(a), dev(b), dev(c), static_cast<u32>(size()), to_device(vanishing_inv_), divide_and_interpolate);
  check_launch("quotient_kernel");
  if (!divide_and_interpolate) return;
  // Back to coefficients in natural order, scaled by g^−i/N; c is free for the
  // reversing pass's input.
  transform(a, Direction::inverse, poly::NttOrder::natural_to_natural, &shift_inv_over_size_, stream, c);
}

}  // namespace zkpipe::gpu
