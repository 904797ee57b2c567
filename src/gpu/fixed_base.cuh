// DeviceFixedBase's kernel and members, templated on the curve; included by
// fixed_base_g1.cu and fixed_base_g2.cu only, one curve each.
#pragma once

#include "gpu/fixed_base.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "gpu/cuda_error.hpp"
#include "gpu/device_point.cuh"
#include "gpu/device_profile.hpp"

namespace zkpipe::gpu {

namespace fixed_base {

constexpr unsigned kThreads = launch::kFixedBaseThreads;
constexpr unsigned kWindowBits = 8;
constexpr unsigned kDigits = 1u << kWindowBits;
constexpr unsigned kWindows = 32;  // 256 bits: a canonical Fr has 255
// Scalars per chunk (128 MiB): each chunk's products take ~0.1 s on an H200, the
// step of the progress bar.
constexpr std::size_t kChunkScalars = std::size_t{1} << 22;

// G2's products call the addition out of line: inlined, this one kernel took nvcc
// minutes per architecture (src/gpu/README.md, "Compile time"), and setup runs it
// once per key.
template <class Xyzz>
__device__ __forceinline__ Xyzz add_entry(const Xyzz& acc, const typename Xyzz::Affine& entry) {
  if constexpr (std::is_same_v<Xyzz, G2Xyzz>) {
    return outlined_add_affine(acc, entry);
  } else {
    return acc.add_affine(entry);
  }
}

template <class Xyzz>
__global__ void products(const typename Xyzz::Affine* table, const Fr* scalars, typename Xyzz::Affine* out,
                         std::size_t n) {
  using Affine = typename Xyzz::Affine;
  using F = decltype(Affine{}.x);
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const Fr k = scalars[i].to_canonical();
  Xyzz acc = Xyzz::identity();
#pragma unroll 1
  for (unsigned w = 0; w < kWindows; ++w) {
    const u32 digit = (k.v[w / 4] >> (8 * (w % 4))) & (kDigits - 1);
    if (digit != 0) acc = add_entry(acc, table[w * kDigits + digit]);
  }
  Affine r;
  if (acc.is_identity()) {
    r.x = F::zero();
    r.y = F::zero();
  } else {
    // ZZ = Z², ZZZ = Z³: 1/Z³ from one inversion, then 1/Z² = (ZZ/ZZZ)².
    const F zzz_inv = acc.ZZZ.inverse();
    const F zz_inv = (acc.ZZ * zzz_inv).square();
    r.x = acc.X * zz_inv;
    r.y = acc.Y * zzz_inv;
  }
  out[i] = r;
}

}  // namespace fixed_base

template <class Curve>
DeviceFixedBase<Curve>::DeviceFixedBase(const ec::FixedBaseTable<Curve>& table, cudaStream_t stream)
    : table_(table.table().size()) {
  static_assert(ec::FixedBaseTable<Curve>::kWindowBits == fixed_base::kWindowBits &&
                ec::FixedBaseTable<Curve>::kWindows <= fixed_base::kWindows);
  std::vector<AffineWords<Curve>> words(table.table().size());
  to_device_words(table.table(), words.data());
  check(cudaMemcpyAsync(table_.data(), words.data(), words.size() * sizeof(AffineWords<Curve>),
                        cudaMemcpyHostToDevice, stream),
        "upload the fixed-base table");
  check(cudaStreamSynchronize(stream), "upload the fixed-base table");
}

template <class Curve>
DeviceBases<Curve> DeviceFixedBase<Curve>::mul(std::span<const ff::Fr> scalars, PinnedStaging& staging,
                                               cudaStream_t stream,
                                               const std::function<void(std::size_t done)>& progress,
                                               memory::BufferLedger& ledger) const {
  using Xyzz = typename DevicePoint<Curve>::Xyzz;
  using Affine = typename Xyzz::Affine;
  static_assert(sizeof(Affine) == sizeof(AffineWords<Curve>));
  DeviceBases<Curve> out(scalars.size(), ledger);
  // One chunk buffer: stream order puts each chunk's upload after the previous
  // chunk's kernel (the copies take ~5 % of the kernels' time, not worth hiding).
  DeviceBuffer<ff::Fr> chunk(std::min(fixed_base::kChunkScalars, std::max<std::size_t>(scalars.size(), 1)));
  for (std::size_t first = 0; first < scalars.size(); first += fixed_base::kChunkScalars) {
    const std::size_t n = std::min(fixed_base::kChunkScalars, scalars.size() - first);
    staging.upload(chunk.data(), scalars.subspan(first, n), stream);
    const auto blocks = static_cast<unsigned>((n + fixed_base::kThreads - 1) / fixed_base::kThreads);
    fixed_base::products<Xyzz><<<blocks, fixed_base::kThreads, 0, stream>>>(
        reinterpret_cast<const Affine*>(table_.data()), reinterpret_cast<const Fr*>(chunk.data()),
        reinterpret_cast<Affine*>(out.data()) + first, n);
    check(cudaGetLastError(), "fixed-base kernel");
    if (progress) {
      check(cudaStreamSynchronize(stream), "fixed-base products");
      progress(first + n);
    }
  }
  check(cudaStreamSynchronize(stream), "fixed-base products");
  if (progress && scalars.empty()) progress(0);
  return out;
}

}  // namespace zkpipe::gpu
