// A Filecoin PoSt partition job (zkpipe.v1.FilecoinPostJob): the vanilla proofs travel
// in the request (journaled with it) and are read, checked and turned into the
// circuit's one partition at submit — encoding, tree shapes, roots, comm_r, and that
// each proves the leaf the randomness draws for its sector — and again when the job
// starts. Errors name the request's field and the proof.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/post/post_circuit.hpp"
#include "circuits/filecoin/post/post_proof.hpp"
#include "service/jobs/job_kind.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::jobs {

const JobKind& filecoin_post_job();

inline constexpr std::string_view kPostProofField = "filecoin_post.registered_proof";
inline constexpr std::string_view kPostRandomnessField = "filecoin_post.randomness";
inline constexpr std::string_view kPostVanillaField = "filecoin_post.vanilla_proofs";
inline constexpr std::string_view kPostParamsField = "filecoin_post.parameter_file";

// A RegisteredPoStProof of filecoin-proofs-api: its circuit and API version.
struct RegisteredPost {
  std::string name;  // "StackedDrgWindow32GiBV1_2"
  filecoin::post::PostProof proof;
  filecoin::core::ApiVersion api;
};

// Throws ServiceError invalid_argument naming the field and the known names.
RegisteredPost registered_post_proof(std::string_view name);
// cuzk's numbers (the Go ABI's RegisteredPoStProof): winning 0–4, window V1 5–9, window
// V1_1 10–14, which cuzk proves as filecoin-proofs-api's V1_2. Throws ServiceError.
RegisteredPost registered_post_proof(std::uint64_t abi_number);

// The job's one-partition circuit, everything checked. Throws ServiceError
// invalid_argument naming the field (and the vanilla proof, challenge or offset).
std::shared_ptr<const filecoin::post::FallbackPostCircuit> filecoin_post_circuit(const v1::FilecoinPostJob& job);

}  // namespace zkpipe::service::jobs
