#include "circuits/filecoin/sector_shape.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace zkpipe::filecoin {
namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;
constexpr std::uint64_t kGiB = 1024 * kMiB;

// The test sizes prove 2 challenges in one partition (26 over 13 without interaction);
// the production sizes 176 over 10 partitions (2253 over 126).
constexpr std::array<SectorShape, 5> kPublished = {{
    {2 * kKiB, 2, 8, 0, 0, 1, 2, 13, 26},
    {8 * kMiB, 2, 8, 0, 0, 1, 2, 13, 26},
    {512 * kMiB, 2, 8, 0, 0, 1, 2, 13, 26},
    {32 * kGiB, 11, 8, 8, 0, 10, 176, 126, 2253},
    {64 * kGiB, 11, 8, 8, 2, 10, 176, 126, 2253},
}};

}  // namespace

std::span<const SectorShape> published_sector_shapes() { return kPublished; }

const SectorShape& sector_shape(std::uint64_t sector_bytes) {
  for (const SectorShape& shape : kPublished) {
    if (shape.sector_bytes == sector_bytes) return shape;
  }
  std::string known;
  for (const SectorShape& shape : kPublished) known += (known.empty() ? "" : ", ") + std::to_string(shape.sector_bytes);
  throw std::invalid_argument("sector size " + std::to_string(sector_bytes) +
                              " bytes has no published SDR parameters (known: " + known + ")");
}

std::string sector_size_name(std::uint64_t sector_bytes) {
  const std::uint64_t bytes = sector_shape(sector_bytes).sector_bytes;
  if (bytes >= kGiB) return std::to_string(bytes / kGiB) + "GiB";
  if (bytes >= kMiB) return std::to_string(bytes / kMiB) + "MiB";
  return std::to_string(bytes / kKiB) + "KiB";
}

std::size_t challenges_per_partition(std::size_t minimum_challenges, std::size_t partitions) {
  if (partitions == 0) throw std::invalid_argument("challenges_per_partition: zero partitions");
  return (minimum_challenges + partitions - 1) / partitions;
}

}  // namespace zkpipe::filecoin
