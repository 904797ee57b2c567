// Shapes of the PoRep-like circuit, from test size to a real partition's size. Each
// preset's constraint count (input constraints included) lies in its domain's upper
// half, (2^(N−1), 2^N]: tiny 3,720 (2^12), 2e16 45,666, 2e20 988,142, 2e24 14,826,484,
// 2e27 132,569,306 (`zkpipe circuit info --preset NAME`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace zkpipe::porep_like {

enum class LabelHash { kSha256, kPoseidon };

struct Preset {
  std::string name;
  std::size_t challenges = 1;          // per partition
  std::size_t layers = 1;              // labels per challenged column (≤ 11)
  std::size_t parents = 0;             // distinct parent labels of each label
  // Parent slots in each label's preimage, filled by repeating the parents in order
  // (Filecoin repeats its 14 parents to 37 slots); 0 means one slot per parent.
  std::size_t parent_slots = 0;
  std::size_t data_tree_depth = 0;     // binary SHA-256 tree over the data (≤ 3·replica depth)
  std::size_t replica_tree_depth = 1;  // arity-8 Poseidon tree over the column hashes
  // SHA-256 is the real thing; Poseidon keeps the test preset near 2^12
  // constraints (one SHA-256 compression alone costs ~2^15).
  LabelHash label_hash = LabelHash::kSha256;

  std::size_t slots() const { return parent_slots == 0 ? parents : parent_slots; }
  std::size_t nodes() const { return std::size_t{1} << (3 * replica_tree_depth); }
};

// Throws std::invalid_argument listing the known presets.
const Preset& find_preset(std::string_view name);
std::vector<std::string> preset_names();

}  // namespace zkpipe::porep_like
