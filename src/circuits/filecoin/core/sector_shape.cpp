#include "circuits/filecoin/core/sector_shape.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace zkpipe::filecoin::core {
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

std::uint64_t parse_sector_size(std::string_view text) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::string_view t = text;
  while (!t.empty() && space(t.front())) t.remove_prefix(1);
  while (!t.empty() && space(t.back())) t.remove_suffix(1);
  std::uint64_t count = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), count);
  std::string unit(end, t.data() + t.size());
  unit.erase(0, unit.find_first_not_of(' '));
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  constexpr std::pair<std::string_view, std::uint64_t> kUnits[] = {{"", 1}, {"kib", kKiB}, {"mib", kMiB}, {"gib", kGiB}};
  if (ec == std::errc() && end != t.data() && count != 0) {
    for (const auto& [name, bytes] : kUnits) {
      if (unit != name) continue;
      if (count > std::numeric_limits<std::uint64_t>::max() / bytes) break;
      return count * bytes;
    }
  }
  throw std::invalid_argument("sector size '" + std::string(text) +
                              "': expected 2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a number of bytes");
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

}  // namespace zkpipe::filecoin::core
