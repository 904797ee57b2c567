#include "proving/filecoin_porep.hpp"

#include <algorithm>
#include <string>
#include <system_error>
#include <utility>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "circuits/filecoin/api/commit2_input.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/challenges.hpp"
#include "formats/format_error.hpp"
#include "groth16/parameter_file.hpp"
#include "io/bounded_read.hpp"
#include "io/file_error.hpp"
#include "io/file_mapping.hpp"
#include "memory/process_memory.hpp"
#include "poly/evaluation_domain.hpp"
#include "r1cs/shape_system.hpp"

namespace zkpipe::proving {

namespace {

// Bounds on what is read into memory: a 64 GiB sector's non-interactive C1 output
// (126 partitions of 18 challenges, each with 14 parent columns of 11 labels and 11
// labels' 37 parents) is a few hundred MiB of JSON; sector.json is a few hundred bytes.
constexpr std::size_t kMaxC1Bytes = std::size_t{2} << 30;
constexpr std::size_t kMaxSectorBytes = std::size_t{64} << 10;

// lotus-bench's and curio's Commit2In wraps the output under "Phase1Out"; a bare
// SealCommitPhase1Output has no such key, nor any value that could spell it (its
// values are numbers, hex and arrays of them).
bool is_commit2_input(std::string_view json) { return json.find("\"Phase1Out\"") != std::string_view::npos; }

// The output and the name its fields are reported under: "<source> Phase1Out" inside
// a wrapper, as parse_commit2_input names them.
std::pair<filecoin::api::C1Output, std::string> parse_c1(std::string_view json, std::string_view source) {
  if (is_commit2_input(json)) {
    return {filecoin::api::parse_commit2_input(json, source).phase1_output, std::string(source) + " Phase1Out"};
  }
  return {filecoin::api::parse_c1_output(json, source), std::string(source)};
}


}  // namespace

FilecoinPorepInstance filecoin_porep_instance(std::string_view c1_json, std::string_view c1_source,
                                              std::string_view sector_json, std::string_view sector_source) {
  try {
    // The sector first: the C1 output is checked against it.
    filecoin::api::SectorValues sector = filecoin::api::parse_sector_values(sector_json, sector_source);
    const auto [c1, c1_name] = parse_c1(c1_json, c1_source);
    auto circuit = std::make_shared<const filecoin::porep::StackedCircuit>(
        filecoin::api::stacked_circuit_from_c1(c1, sector, c1_name));
    return FilecoinPorepInstance{std::move(circuit), std::move(sector)};
  } catch (const filecoin::api::C1OutputError&) {
    // What a refused document was parsed into goes back to the system, not to a
    // daemon's arenas.
    memory::release_free_heap();
    throw;
  }
}

FilecoinPorepInstance read_filecoin_porep(const std::filesystem::path& c1_json,
                                          const std::filesystem::path& sector_json) {
  const std::string sector = io::read_bounded_file(sector_json, kMaxSectorBytes, "sector.json");
  const std::string c1 = io::read_bounded_file(c1_json, kMaxC1Bytes, "C1 output");
  return filecoin_porep_instance(c1, c1_json.string(), sector, sector_json.string());
}

formats::CircuitRequirements filecoin_porep_requirements(const filecoin::core::SealProof& proof) {
  return bellperson_requirements(filecoin::api::stacked_circuit_shape(proof));
}

groth16::ProvingKey read_filecoin_porep_key(const std::filesystem::path& params, const filecoin::core::SealProof& proof,
                                            const formats::BellpersonReadOptions& options) {
  const std::string name = params.string() + " (as " + std::string(proof.name) + "'s parameters)";
  std::shared_ptr<const io::FileMapping> mapping;
  try {
    mapping = io::FileMapping::open(params);
  } catch (const io::FileError& e) {
    throw formats::FormatError(params.string(), e.what());
  }
  // Another circuit's file is refused from its counts, before its points are decoded.
  const formats::CircuitRequirements requirements = filecoin_porep_requirements(proof);
  formats::check_params_fit(formats::read_bellperson_params_counts(mapping), requirements, name);
  return formats::to_proving_key(formats::read_bellperson_params(mapping, options), requirements, name);
}

CachedBellpersonKey load_filecoin_porep_key(const std::shared_ptr<const io::FileMapping>& params,
                                            const filecoin::core::SealProof& proof, const std::filesystem::path& cache,
                                            const formats::BellpersonReadOptions& options,
                                            const formats::ConvertProgress& progress) {
  return load_bellperson_key(params, params->name() + " (as " + std::string(proof.name) + "'s parameters)",
                             filecoin_porep_requirements(proof), cache, options, progress);
}

CachedBellpersonKey load_filecoin_porep_key(const std::filesystem::path& params, const filecoin::core::SealProof& proof,
                                            const std::filesystem::path& cache,
                                            const formats::BellpersonReadOptions& options,
                                            const formats::ConvertProgress& progress) {
  std::shared_ptr<const io::FileMapping> mapping;
  try {
    mapping = io::FileMapping::open(params);
  } catch (const io::FileError& e) {
    throw formats::FormatError(params.string(), e.what());
  }
  return load_filecoin_porep_key(mapping, proof, cache, options, progress);
}


std::vector<std::vector<ff::Fr>> filecoin_porep_public_inputs(const filecoin::api::SectorValues& sector) {
  if (sector.registered_proof == nullptr) throw std::invalid_argument("sector values without a registered proof");
  const filecoin::core::SealProof& proof = *sector.registered_proof;
  const filecoin::porep::SdrGraph graph = filecoin::api::seal_graph(proof);
  const filecoin::porep::ReplicaId replica_id = sector.replica_id();
  const ff::Fr replica = filecoin::hashers::domain_to_fr(replica_id);
  const ff::Fr comm_d = filecoin::hashers::domain_to_fr(sector.comm_d);
  const ff::Fr comm_r = filecoin::hashers::domain_to_fr(sector.comm_r);
  std::vector<std::vector<ff::Fr>> inputs;
  inputs.reserve(proof.partitions());
  for (std::size_t p = 0; p < proof.partitions(); ++p) {
    const std::vector<std::uint64_t> challenges =
        filecoin::porep::porep_challenges(proof, replica_id, sector.seed, sector.comm_r, p);
    inputs.push_back(filecoin::porep::stacked_public_inputs(graph, replica, comm_d, comm_r, challenges));
  }
  return inputs;
}

}  // namespace zkpipe::proving
