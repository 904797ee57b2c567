// A Filecoin SnapDeals update job (zkpipe.v1.FilecoinUpdateJob, ProveReplicaUpdate2):
// the vanilla partition proofs travel in the request (journaled with it) and are read,
// checked and turned into the circuit's partitions at submit — encoding, tree shapes,
// roots, comm_r_old / comm_r_new, the challenges comm_r_new draws, the apex leaves and
// comm_d_new, every new label — and again when the job starts. Errors name the
// request's field and the partition.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "circuits/filecoin/update/update_circuit.hpp"
#include "service/jobs/job_kind.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::jobs {

const JobKind& filecoin_update_job();

inline constexpr std::string_view kUpdateProofField = "filecoin_update.registered_proof";
inline constexpr std::string_view kUpdateCommROldField = "filecoin_update.comm_r_old";
inline constexpr std::string_view kUpdateCommRNewField = "filecoin_update.comm_r_new";
inline constexpr std::string_view kUpdateCommDNewField = "filecoin_update.comm_d_new";
inline constexpr std::string_view kUpdateVanillaField = "filecoin_update.vanilla_proofs";
inline constexpr std::string_view kUpdateParamsField = "filecoin_update.parameter_file";

// A RegisteredUpdateProof of filecoin-proofs-api: its sector size and circuit shape
// (the SHA-256 tree_d variant, the one filecoin-proofs-api proves).
struct RegisteredUpdate {
  std::string name;  // "StackedDrg32GiBV1"
  std::uint64_t sector_bytes = 0;
  filecoin::update::UpdateShape shape;
  // The circuit's name, as `zkpipe setup --circuit filecoin-snapdeals --sector-size S`
  // names it (and the residency knows its key): "filecoin-snapdeals/32GiB".
  std::string circuit_name;
};

// Throws ServiceError invalid_argument naming the field and the known names.
RegisteredUpdate registered_update_proof(std::string_view name);
// cuzk's numbers (the Go ABI's RegisteredUpdateProof): 0–4 for 2 KiB, 8 MiB, 512 MiB,
// 32 GiB, 64 GiB (V1). Throws ServiceError invalid_argument.
RegisteredUpdate registered_update_proof(std::uint64_t abi_number);

// The job's partition count (the sector size's); 0 for an unknown registered proof
// (asked while answering and journaling, which must not throw).
std::uint32_t filecoin_update_partitions(const v1::FilecoinUpdateJob& job);

// The job's circuit with every partition, everything checked. Throws ServiceError
// invalid_argument naming the field (and the partition: vanilla_proofs[k]).
std::shared_ptr<const filecoin::update::EmptySectorUpdateCircuit> filecoin_update_circuit(
    const v1::FilecoinUpdateJob& job);

}  // namespace zkpipe::service::jobs
