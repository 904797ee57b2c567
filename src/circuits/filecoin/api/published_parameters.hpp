// Filecoin's published Groth16 parameters (filecoin-proof-parameters, version 28:
// rust-fil-proofs' parameters.json) by circuit and sector size: the file names a
// storage provider's parameter directory holds, so that a daemon finds each circuit's
// .params without a list. A name is "v28-" + the circuit's cache prefix + "-" + the
// SHA-256 of its public parameters' identifier; PoRep's every API version and variant
// (interactive, synthetic, non-interactive) shares one file per sector size.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace zkpipe::filecoin::api {

enum class ParameterCircuit { kPorep, kWindowPost, kWinningPost, kSnapDeals };

// The .params file name for the circuit at sector_bytes (SnapDeals: the SHA-256
// variant, EmptySectorUpdate); nullopt when none is published. The .vk beside it has
// the same stem.
std::optional<std::string_view> published_params_name(ParameterCircuit circuit, std::uint64_t sector_bytes);

}  // namespace zkpipe::filecoin::api
