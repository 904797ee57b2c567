// Which Filecoin seal proof a command works on, from the command line: a sector size
// (2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a number of bytes) with a proofs API version,
// or a registered proof's name (`zkpipe filecoin …`, `zkpipe circuit info --circuit
// filecoin-porep`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "circuits/filecoin/core/seal_proof.hpp"

namespace zkpipe::cli {

struct SealProofChoice {
  std::string sector_size;  // empty: taken from --proof
  std::string api = "1.1";
  std::string proof;  // a registered proof's name; empty: from the size and the API version
};

// --sector-size, --api and --proof (--api and --proof exclude each other).
void add_seal_proof_options(CLI::App& cmd, SealProofChoice& choice);
// --api and --proof alone, for a command whose --sector-size is another option's.
void add_seal_proof_variant_options(CLI::App& cmd, SealProofChoice& choice);

// The registered proof chosen: --proof by name (its sector size must be --sector-size
// when both are given), else the size's proof of --api: 1.0 StackedDrg<size>V1, 1.1
// StackedDrg<size>V1_1 (the default), 1.2 StackedDrg<size>V1_1_Feat_SyntheticPoRep.
// Throws std::invalid_argument naming what is missing, unknown or inconsistent.
const filecoin::core::SealProof& resolve_seal_proof(const SealProofChoice& choice);

// "2 KiB", "32 GiB", or bytes for a size that is no whole number of KiB.
std::string describe_sector_size(std::uint64_t bytes);

}  // namespace zkpipe::cli
