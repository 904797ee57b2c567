// The file lotus-bench and curio hand to a commit-phase-2 prover (lotus-bench's Commit2In,
// what curio's cuzk reads as "c1.json"): {"SectorNum": n, "Phase1Out": base64 of the
// commit-phase-1 output's JSON bytes, "SectorSize": bytes}, as Go's encoding/json writes
// it ([]byte as standard base64 with padding).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "circuits/filecoin/api/c1_output.hpp"

namespace zkpipe::filecoin::api {

struct Commit2Input {
  std::uint64_t sector_number = 0;
  C1Output phase1_output;

  bool operator==(const Commit2Input&) const = default;
};

// Throws C1OutputError: paths in the wrapper ("Phase1Out", "SectorSize") name `source`;
// those inside the decoded output name "<source> Phase1Out". SectorSize must be the
// registered proof's sector size.
Commit2Input parse_commit2_input(std::string_view json, std::string_view source);

std::string commit2_input_to_json(const Commit2Input& input);

}  // namespace zkpipe::filecoin::api
