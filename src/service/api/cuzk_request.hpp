// cuzk.v1 requests as zkpipe jobs, and zkpipe's answers as cuzk's (docs/CUZK.md).
//
// A POREP_SEAL_COMMIT's vanilla_proof is the C1 envelope curio sends ({"SectorNum",
// "Phase1Out", "SectorSize"}): it becomes a zkpipe.v1 FilecoinPorepJob whose
// sector.json is made from the C1 output's values and the request's miner_id and
// sector_number, checked against the C1 output's replica_id when the job is submitted
// (a wrong miner or sector number is refused there, naming the field).
//
// WINDOW_POST_PARTITION / WINNING_POST become a zkpipe.v1 FilecoinPostJob (the
// registered proof by its Go ABI number, the randomness, one vanilla proof blob a
// sector); SNAP_DEALS_UPDATE a FilecoinUpdateJob (the RegisteredUpdateProof number 0–4,
// comm_r_old / comm_r_new / comm_d_new of exactly 32 bytes each, one bincode
// PartitionProof a partition in order). Their vanilla proofs are checked whole when
// the job is submitted, errors naming the zkpipe job's field.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "circuits/filecoin/api/sector_values.hpp"
#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/post/post_proof.hpp"
#include "r1cs/partitioned_circuit.hpp"
#include "cuzk/v1/proving.pb.h"
#include "service/api/cuzk_params.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::api {


// cuzk's ids for a seal proof's circuit: "porep-32g", "porep-64g"; for the smaller
// sizes (not in cuzk) "porep-2k", "porep-8m", "porep-512m".
std::string cuzk_porep_circuit_id(const filecoin::core::SealProof& proof);
// "wpost-32g", "winning-32g" (cuzk's); "wpost-2k", "winning-2k", ... for the smaller sizes.
std::string cuzk_post_circuit_id(const filecoin::post::PostProof& proof);
// "snap-32g", "snap-64g" (cuzk's); "snap-2k", "snap-8m", "snap-512m" for the smaller sizes.
std::string cuzk_update_circuit_id(std::uint64_t sector_bytes);
// What PreloadSRS loads for a circuit id: zkpipe.v1 PreloadParams' circuit and preset
// ("filecoin-porep" and "StackedDrg32GiBV1_1" for "porep-32g"; "filecoin-window-post",
// "filecoin-winning-post" or "filecoin-snapdeals" and the sector size, "32GiB", for
// "wpost-32g", "winning-32g", "snap-32g"). Throws ServiceError not_found for another id.
std::pair<std::string, std::string> cuzk_preload_circuit(std::string_view circuit_id);
// The seal proof (api version 1.1) a "porep-…" id names. Throws ServiceError not_found.
const filecoin::core::SealProof& cuzk_porep_seal_proof(std::string_view circuit_id);

// The payload of the miner's Filecoin ID address: miner_id as unsigned LEB128, then zeros.
filecoin::api::ProverId prover_id_of_miner(std::uint64_t miner_id);

// cuzk's priorities onto zkpipe's; unspecified by kind (winning CRITICAL, window HIGH,
// the others NORMAL), an unknown value NORMAL, as cuzk does.
v1::Priority zkpipe_priority(cuzk::v1::Priority priority, cuzk::v1::ProofKind kind);

// A SubmitProof as a zkpipe job: the request, and for a PoRep the circuit its C1
// output was read into (the service keeps it for the engine; null for the others).
struct CuzkJob {
  v1::SubmitProofRequest request;
  std::shared_ptr<const r1cs::PartitionedCircuit> circuit;
};

// The zkpipe job a SubmitProof asks for, its .params taken from `params`. Throws
// ServiceError: invalid_argument naming the field, not_found for a circuit id without
// parameters.
CuzkJob zkpipe_request(const cuzk::v1::SubmitProofRequest& request, const CuzkParams& params);

// A zkpipe answer in cuzk's terms (times in ms). A job not yet ended is TIMEOUT.
cuzk::v1::AwaitProofResponse cuzk_response(const v1::AwaitProofResponse& answer, const std::string& job_id);

}  // namespace zkpipe::service::api
