#include "circuits/porep_like/preset.hpp"

#include <array>
#include <stdexcept>

namespace zkpipe::porep_like {

namespace {

// Sizes were tuned with `zkpipe circuit info`; the name gives the domain size.
const std::array<Preset, 5>& presets() {
  static const std::array<Preset, 5> all = {{
      // name   challenges layers parents slots data-depth replica-depth hash
      {"tiny", 2, 1, 2, 0, 0, 1, LabelHash::kPoseidon},
      {"2e16", 1, 1, 0, 0, 0, 1, LabelHash::kSha256},
      {"2e20", 2, 4, 2, 0, 4, 4, LabelHash::kSha256},
      {"2e24", 8, 11, 6, 0, 9, 8, LabelHash::kSha256},
      // Filecoin's 32 GiB partition: 18 challenges, 11 layers, 14 parents in 37 slots, 2^30 nodes.
      {"2e27", 18, 11, 14, 37, 30, 10, LabelHash::kSha256},
  }};
  return all;
}

}  // namespace

const Preset& find_preset(std::string_view name) {
  for (const Preset& p : presets()) {
    if (p.name == name) return p;
  }
  std::string known;
  for (const Preset& p : presets()) known += (known.empty() ? "" : ", ") + p.name;
  throw std::invalid_argument("unknown porep-like preset '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const Preset& p : presets()) names.push_back(p.name);
  return names;
}

}  // namespace zkpipe::porep_like
