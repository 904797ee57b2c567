#include "gpu/pinned_points.hpp"

#include <algorithm>

#include "io/file_mapping.hpp"

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
    : words_(ledger), size_(points.size()) {
  // The source's pages leave the resident set before the page-locked memory is
  // allocated (page-locking makes all of it resident at once), so that the process
  // never holds both whole; below they come back from the page cache a chunk at a
  // time. Best effort: a refusal leaves them resident, as they were.
  if (file_mapped) io::release_mapped_pages(points.data(), points.size_bytes());
  words_.reserve(std::max<std::size_t>(size_, 1));
  for (std::size_t first = 0; first < size_; first += kReleasePoints) {
    const std::span<const ec::Affine<Curve>> part = points.subspan(first, std::min(kReleasePoints, size_ - first));
    to_device_words(part, words_.data() + first);
    if (file_mapped) io::release_mapped_pages(part.data(), part.size_bytes());
  }
}

template class PinnedPoints<ec::G1Curve>;
template class PinnedPoints<ec::G2Curve>;

}  // namespace zkpipe::gpu
