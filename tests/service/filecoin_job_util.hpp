// Filecoin jobs for the service tests: a 2 KiB sector sealed natively (its C1 output
// and sector.json as a client sends them); .params files without queries — enough for
// every check a submit makes (counts that match the size, the verifying key's IC count
// and points), never for a proof: their load fails, naming the file; a Window PoSt
// partition of synthetic 2 KiB sectors and a SnapDeals update of a synthetic 2 KiB
// sector, as their vanilla proofs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "circuits/filecoin/api/sector_values.hpp"
#include "circuits/filecoin/post/post_circuit.hpp"
#include "circuits/filecoin/post/post_proof.hpp"
#include "circuits/filecoin/update/update_circuit.hpp"
#include "groth16/keys.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::testing {

struct FilecoinDocuments {
  filecoin::api::SectorValues sector;
  std::string c1_json;
  std::string sector_json;
};

// A 2 KiB StackedDrg2KiBV1_1 sector of random data, sealed; `seed` picks the data
// and the sector's values, but for a prover_id / sector_id given.
FilecoinDocuments seal_2kib(std::uint64_t seed, std::optional<filecoin::api::ProverId> prover_id = std::nullopt,
                            std::optional<std::uint64_t> sector_id = std::nullopt);

// Sealed once per process: every test reads the same documents.
const FilecoinDocuments& sealed_2kib();

// A verifying key of well-formed, independent points with `ic_points` IC points.
groth16::VerifyingKey arbitrary_vk(std::size_t ic_points);

// A .params file of arbitrary_vk(ic_points) and empty queries (H, L, A, B₁, B₂).
void write_params_without_queries(const std::filesystem::path& path, std::size_t ic_points);
// Only the verifying key, as a .vk file holds it: the head of a .params file whose
// queries are cut off.
void write_params_head(const std::filesystem::path& path, std::size_t ic_points);

// The IC points of a 2 KiB seal proof's key: ONE, replica_id, comm_d, comm_r and 18
// per challenge, 2 challenges.
inline constexpr std::size_t k2KiBIcPoints = 1 + 3 + 2 * 18;

v1::SubmitProofRequest filecoin_request(const FilecoinDocuments& documents, const std::filesystem::path& params);

// Window PoSt over 2 KiB sectors (StackedDrgWindow2KiBV1_2).
const filecoin::post::PostProof& window_2kib();

// A Window PoSt partition of 2 KiB sectors as filecoin-proofs hands it to the SNARK:
// the circuit (to verify against) and the job of its vanilla proofs, proved with `key`.
struct PostPartitionInput {
  filecoin::post::FallbackPostCircuit circuit;
  v1::FilecoinPostJob job;
};

PostPartitionInput window_partition(std::uint64_t seed, const std::filesystem::path& key);

// Winning PoSt over 2 KiB sectors (StackedDrgWinning2KiBV1), and its partition the same way.
const filecoin::post::PostProof& winning_2kib();
PostPartitionInput winning_partition(std::uint64_t seed, const std::filesystem::path& key);

// SnapDeals over a 2 KiB sector: one partition of the SHA-256 circuit, about 1.25 M
// constraints.
const filecoin::update::UpdateShape& update_shape_2kib();

// An update of a 2 KiB sector as filecoin-proofs hands it to the SNARK: the circuit
// (to verify against) and the job of its vanilla partition proofs, proved with `key`.
struct UpdateInput {
  filecoin::update::EmptySectorUpdateCircuit circuit;
  v1::FilecoinUpdateJob job;
};

UpdateInput update_2kib(std::uint64_t seed, const std::filesystem::path& key);

// The key as `zkpipe setup --circuit filecoin-snapdeals --sector-size 2KiB` sets it up,
// from a blank partition of the shape (about a minute on two cores).
void write_update_key_2kib(const std::filesystem::path& path, std::uint64_t toxic_seed);

}  // namespace zkpipe::service::testing
