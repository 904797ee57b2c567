// The SDR PoRep's shape for each sector size with published Groth16 parameters
// (filecoin-proofs constants.rs): nodes, layers, the replica tree's arities, and how
// many partitions and challenges a seal proof has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace zkpipe::filecoin::core {

// One node (label, data or replica element) is 32 bytes.
inline constexpr std::uint64_t kNodeBytes = 32;

struct SectorShape {
  std::uint64_t sector_bytes = 0;
  std::size_t layers = 0;  // SDR layers (labels per column)
  // Arities of tree_r_last and tree_c, base/sub/top (0: that level is absent). The
  // replica's base trees are arity 8; 32 GiB adds an arity-8 sub level, 64 GiB also an
  // arity-2 top level.
  std::size_t base_arity = 8;
  std::size_t sub_arity = 0;
  std::size_t top_arity = 0;
  // Interactive PoRep (also the synthetic variant): partitions and the minimum total
  // number of challenges, spread evenly over the partitions.
  std::size_t interactive_partitions = 0;
  std::size_t interactive_min_challenges = 0;
  // Non-interactive PoRep (FIP-0092): more partitions, more challenges.
  std::size_t non_interactive_partitions = 0;
  std::size_t non_interactive_min_challenges = 0;

  std::uint64_t nodes() const { return sector_bytes / kNodeBytes; }
};

// 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB, in that order.
std::span<const SectorShape> published_sector_shapes();

// Throws std::invalid_argument naming the size and listing the published ones.
const SectorShape& sector_shape(std::uint64_t sector_bytes);

// A sector size as users write it: "2KiB", "32GiB" (any case, a space allowed before
// the unit: "32 gib"), or a number of bytes ("34359738368"). Any size, published or
// not (sector_shape says which are). Throws std::invalid_argument naming the text and
// the accepted forms.
std::uint64_t parse_sector_size(std::string_view text);

// "2KiB", "8MiB", "512MiB", "32GiB", "64GiB": the size as registered proofs name it.
// Throws as sector_shape does.
std::string sector_size_name(std::uint64_t sector_bytes);

// ceil(minimum / partitions): the challenges one partition proves.
std::size_t challenges_per_partition(std::size_t minimum_challenges, std::size_t partitions);

}  // namespace zkpipe::filecoin::core
