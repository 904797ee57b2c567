#include "seal_proof_args.hpp"

#include <array>
#include <stdexcept>

#include "circuits/filecoin/core/sector_shape.hpp"

namespace zkpipe::cli {

namespace {

struct Unit {
  std::string_view label;
  std::uint64_t bytes;
};

constexpr std::array<Unit, 4> kUnits = {{{"bytes", 1}, {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30}}};

filecoin::core::ApiVersion parse_api(const std::string& api) {
  if (api == "1.0" || api == "1.0.0") return filecoin::core::ApiVersion::k1_0_0;
  if (api == "1.1" || api == "1.1.0") return filecoin::core::ApiVersion::k1_1_0;
  if (api == "1.2" || api == "1.2.0") return filecoin::core::ApiVersion::k1_2_0;
  throw std::invalid_argument("--api " + api + ": expected 1.0, 1.1 or 1.2");
}

}  // namespace

void add_seal_proof_options(CLI::App& cmd, SealProofChoice& choice) {
  cmd.add_option("--sector-size", choice.sector_size, "Sector size: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or bytes)");
  add_seal_proof_variant_options(cmd, choice);
}

void add_seal_proof_variant_options(CLI::App& cmd, SealProofChoice& choice) {
  CLI::Option* api = cmd.add_option("--api", choice.api,
                                    "Proofs API version of the size's seal proof: 1.0 (StackedDrg<size>V1), 1.1 "
                                    "(StackedDrg<size>V1_1), 1.2 (StackedDrg<size>V1_1_Feat_SyntheticPoRep)")
                          ->capture_default_str();
  CLI::Option* proof =
      cmd.add_option("--proof", choice.proof, "Registered seal proof by name, e.g. StackedDrg2KiBV1_1 (instead of --api)");
  api->excludes(proof);
}

const filecoin::core::SealProof& resolve_seal_proof(const SealProofChoice& choice) {
  if (!choice.proof.empty()) {
    const filecoin::core::SealProof& proof = filecoin::core::seal_proof(choice.proof);
    if (!choice.sector_size.empty() && filecoin::core::parse_sector_size(choice.sector_size) != proof.sector_bytes) {
      throw std::invalid_argument("--proof " + choice.proof + " seals " + describe_sector_size(proof.sector_bytes) +
                                  " sectors, not --sector-size " + choice.sector_size);
    }
    return proof;
  }
  if (choice.sector_size.empty()) throw std::invalid_argument("give --sector-size (or --proof NAME)");
  const std::uint64_t bytes = filecoin::core::parse_sector_size(choice.sector_size);
  filecoin::core::sector_shape(bytes);  // a size without published parameters: named with the known ones
  const filecoin::core::ApiVersion api = parse_api(choice.api);
  // 1.2's interactive-seed variant is the synthetic PoRep; the non-interactive one is
  // chosen by name.
  const filecoin::core::PorepChallenges challenges = api == filecoin::core::ApiVersion::k1_2_0
                                                         ? filecoin::core::PorepChallenges::kSynthetic
                                                         : filecoin::core::PorepChallenges::kInteractive;
  for (const filecoin::core::SealProof& proof : filecoin::core::seal_proofs()) {
    if (proof.sector_bytes == bytes && proof.api_version == api && proof.challenges == challenges) return proof;
  }
  throw std::logic_error("no registered seal proof for " + describe_sector_size(bytes) + " and API " + choice.api);
}

std::string describe_sector_size(std::uint64_t bytes) {
  for (auto u = kUnits.rbegin(); u != kUnits.rend(); ++u) {
    if (bytes >= u->bytes && bytes % u->bytes == 0) return std::to_string(bytes / u->bytes) + " " + std::string(u->label);
  }
  return std::to_string(bytes) + " bytes";
}

}  // namespace zkpipe::cli
