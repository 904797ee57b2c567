#include "gpu/mapped_points.hpp"

#include <algorithm>
#include <cstddef>

#include "gpu/cuda_error.hpp"
#include "gpu/device_profile.hpp"

namespace zkpipe::gpu {

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// Where a host point's words are: its record of `record_words` 64-bit words starts
// with x and y (`coordinate_words`), and its infinity flag is the byte at bit
// `flag_shift` of word `flag_word`.
struct HostPointLayout {
  unsigned record_words;
  unsigned coordinate_words;
  unsigned flag_word;
  unsigned flag_shift;
};

template <class Curve>
constexpr HostPointLayout host_layout() {
  using Host = ec::Affine<Curve>;
  static_assert(sizeof(Host) % sizeof(u64) == 0 && sizeof(AffineWords<Curve>) % sizeof(u64) == 0);
  static_assert(sizeof(AffineWords<Curve>) == offsetof(Host, infinity), "x and y lead the host record");
  return {sizeof(Host) / sizeof(u64), sizeof(AffineWords<Curve>) / sizeof(u64),
          static_cast<unsigned>(offsetof(Host, infinity) / sizeof(u64)),
          static_cast<unsigned>(offsetof(Host, infinity) % sizeof(u64) * 8)};
}

// A group of kLanes lanes per point, one word each: a point's record is read as one
// run of consecutive words, which the link carries as few requests. Every lane of a
// warp runs the same number of rounds (the shuffle needs them all).
template <unsigned kLanes>
__global__ void gather_mapped_kernel(const u64* records, HostPointLayout layout, const u32* indices, std::size_t first,
                                     std::size_t count, u64* out) {
  static_assert(32 % kLanes == 0);
  const unsigned lane = threadIdx.x % kLanes;
  const std::size_t group = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / kLanes;
  const std::size_t groups = gridDim.x * static_cast<std::size_t>(blockDim.x) / kLanes;
  const std::size_t rounds = (count + groups - 1) / groups;
  for (std::size_t round = 0; round < rounds; ++round) {
    const std::size_t j = round * groups + group;
    const bool live = j < count;
    u64 word = 0;
    if (live && lane < layout.record_words) {
      const std::size_t i = indices != nullptr ? indices[j] : first + j;
      word = records[i * layout.record_words + lane];
    }
    const u64 flag = __shfl_sync(0xffffffffu, word, layout.flag_word, kLanes);
    const bool infinity = ((flag >> layout.flag_shift) & 0xff) != 0;
    if (live && lane < layout.coordinate_words) out[j * layout.coordinate_words + lane] = infinity ? 0 : word;
  }
}

// Enough groups in flight to cover the link's latency; more would only take SMs
// from the MSM running beside the gather.
constexpr unsigned kBlocksPerSm = 2;

}  // namespace

template <class Curve>
void gather_mapped_points(const ec::Affine<Curve>* points, const std::uint32_t* indices, std::size_t first,
                          std::size_t count, AffineWords<Curve>* out, cudaStream_t stream) {
  if (count == 0) return;
  constexpr HostPointLayout layout = host_layout<Curve>();
  constexpr unsigned lanes = layout.record_words <= 16 ? 16 : 32;
  static_assert(layout.record_words <= lanes);
  constexpr unsigned threads = launch::kElementwiseThreads;
  int device = 0;
  int sms = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "multiprocessor count");
  const std::size_t needed = (count * lanes + threads - 1) / threads;
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>(needed, std::size_t(sms) * kBlocksPerSm));
  gather_mapped_kernel<lanes><<<blocks, threads, 0, stream>>>(reinterpret_cast<const u64*>(points), layout, indices,
                                                              first, count, reinterpret_cast<u64*>(out));
  check_launch("gather_mapped_kernel");
}

template void gather_mapped_points(const ec::Affine<ec::G1Curve>*, const std::uint32_t*, std::size_t, std::size_t,
                                   AffineWords<ec::G1Curve>*, cudaStream_t);
template void gather_mapped_points(const ec::Affine<ec::G2Curve>*, const std::uint32_t*, std::size_t, std::size_t,
                                   AffineWords<ec::G2Curve>*, cudaStream_t);

}  // namespace zkpipe::gpu
