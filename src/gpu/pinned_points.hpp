// A streamed query's points in page-locked host memory, in the device's layout:
// what a streamed key's MSMs copy from, chunk by chunk, with the copy engine alone.
// The key's own points (104-byte records, usually a view into its file mapping)
// would need host threads to convert every chunk at every MSM, and those threads
// share the cores with synthesis: measured on an H100, a 32 GiB PoRep's streamed H
// query crossed at 12 GB/s that way against the link's 55. Made once per key on a
// prover; pages of a file-mapped source leave the process's resident set as they
// are copied (the page cache keeps them; a host prover reading the key maps them
// again), so the copy replaces the mapping's memory rather than adding to it.
#pragma once

#include <cstddef>
#include <span>

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"

namespace zkpipe::gpu {

template <class Curve>
class PinnedPoints {
 public:
  // Converts `points` on the host's threads; the page-locked bytes charge `ledger`
  // (LedgerSnapshot::pinned). file_mapped: `points` view a read-only file mapping,
  // whose copied pages may be released. Throws CudaError when the host cannot
  // page-lock that much.
  PinnedPoints(std::span<const ec::Affine<Curve>> points, bool file_mapped, memory::BufferLedger& ledger);

  std::span<const AffineWords<Curve>> span() const { return {words_.data(), size_}; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(AffineWords<Curve>); }

 private:
  PinnedBuffer<AffineWords<Curve>> words_;
  std::size_t size_;
};

using PinnedG1Points = PinnedPoints<ec::G1Curve>;
using PinnedG2Points = PinnedPoints<ec::G2Curve>;
extern template class PinnedPoints<ec::G1Curve>;
extern template class PinnedPoints<ec::G2Curve>;

}  // namespace zkpipe::gpu
