#include "gpu/pinned_points.hpp"

#include <algorithm>

#include "memory/process_memory.hpp"

namespace zkpipe::gpu {

namespace {

// Points converted between releases of the source's pages: large enough that the
// threads stay busy, small enough that the mapping and the copy never both hold
// much of the key.
constexpr std::size_t kReleasePoints = std::size_t{1} << 22;

}  // namespace

template <class Curve>
PinnedPoints<Curve>::PinnedPoints(std::span<const ec::Affine<Curve>> points, bool file_mapped,
                                  memory::BufferLedger& ledger)
    : words_(ledger, std::max<std::size_t>(points.size(), 1)), size_(points.size()) {
  for (std::size_t first = 0; first < size_; first += kReleasePoints) {
    const std::span<const ec::Affine<Curve>> part = points.subspan(first, std::min(kReleasePoints, size_ - first));
    to_device_words(part, words_.data() + first);
    // Best effort: a refusal leaves the pages resident, as they were.
    if (file_mapped) memory::release_mapped_pages({part.data(), part.size_bytes()});
  }
}

template class PinnedPoints<ec::G1Curve>;
template class PinnedPoints<ec::G2Curve>;

}  // namespace zkpipe::gpu
