#include "service/api/cuzk_request.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/commit2_input.hpp"
#include "circuits/filecoin/core/sector_shape.hpp"
#include "memory/process_memory.hpp"
#include "service/errors.hpp"
#include "service/jobs/filecoin_post_job.hpp"
#include "service/jobs/filecoin_update_job.hpp"

namespace zkpipe::service::api {

namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = kKiB * 1024;
constexpr std::uint64_t kGiB = kMiB * 1024;

ServiceError invalid(const std::string& what) { return {ErrorKind::invalid_argument, what}; }

std::string size_suffix(std::uint64_t bytes) {
  if (bytes >= kGiB) return std::to_string(bytes / kGiB) + "g";
  if (bytes >= kMiB) return std::to_string(bytes / kMiB) + "m";
  return std::to_string(bytes / kKiB) + "k";
}

std::uint64_t millis(double seconds) {
  return seconds > 0 && std::isfinite(seconds) ? static_cast<std::uint64_t>(std::llround(seconds * 1000)) : 0;
}

CuzkJob porep_request(const cuzk::v1::SubmitProofRequest& request, const CuzkParams& params) {
  if (request.vanilla_proof().empty()) {
    throw invalid("vanilla_proof: empty; a POREP_SEAL_COMMIT carries the C1 output envelope "
                  "{\"SectorNum\", \"Phase1Out\", \"SectorSize\"}");
  }
  filecoin::api::Commit2Input input;
  try {
    input = filecoin::api::parse_commit2_input(request.vanilla_proof(), "vanilla_proof");
  } catch (const filecoin::api::C1OutputError& e) {
    memory::release_free_heap();  // what the refused envelope was parsed into
    throw invalid(e.what());
  }
  const filecoin::api::C1Output& c1 = input.phase1_output;
  const filecoin::core::SealProof& proof = c1.registered_proof;
  if (request.sector_size() != 0 && request.sector_size() != proof.sector_bytes) {
    throw invalid("sector_size: " + std::to_string(request.sector_size()) + ", but the C1 output is a " +
                  std::string(proof.name) + " proof of " + std::to_string(proof.sector_bytes) + "-byte sectors");
  }
  const std::filesystem::path file =
      params.file_for(cuzk_porep_circuit_id(proof), "the C1 output's " + std::string(proof.name));
  filecoin::api::SectorValues sector;
  sector.registered_proof = &proof;
  sector.prover_id = prover_id_of_miner(request.miner_id());
  sector.sector_id = request.sector_number();
  sector.ticket = c1.ticket;
  sector.seed = c1.seed;
  sector.comm_r = c1.comm_r;
  sector.comm_d = c1.comm_d;
  if (sector.replica_id() != c1.replica_id) {
    throw invalid("miner_id " + std::to_string(request.miner_id()) + " and sector_number " +
                  std::to_string(request.sector_number()) +
                  ": the C1 output's replica_id is not the one of this miner's sector (with its ticket and comm_d)");
  }
  CuzkJob out;
  try {
    // The circuit the engine proves, from the C1 output as parsed here: the service
    // checks it against the key and keeps it, and parses the envelope again only for
    // a job read back from its journal.
    out.circuit = std::make_shared<const filecoin::porep::StackedCircuit>(
        filecoin::api::stacked_circuit_from_c1(c1, sector, "vanilla_proof Phase1Out"));
  } catch (const filecoin::api::C1OutputError& e) {
    memory::release_free_heap();
    throw invalid(e.what());
  } catch (const std::invalid_argument& e) {
    memory::release_free_heap();
    throw invalid(e.what());
  }
  v1::FilecoinPorepJob& job = *out.request.mutable_filecoin_porep();
  job.set_c1_json(request.vanilla_proof());
  job.set_sector_json(filecoin::api::sector_values_to_json(sector));
  job.set_parameter_file(file.string());
  return out;
}

// WINDOW_POST_PARTITION / WINNING_POST: one partition's vanilla proofs, one blob a
// sector, with the randomness; prover_id plays no part in these circuits.
v1::SubmitProofRequest post_request(const cuzk::v1::SubmitProofRequest& request, const CuzkParams& params) {
  const jobs::RegisteredPost registered = jobs::registered_post_proof(request.registered_proof());
  const bool winning = request.proof_kind() == cuzk::v1::WINNING_POST;
  if (winning != (registered.proof.kind == filecoin::post::PostKind::kWinning)) {
    throw invalid("registered_proof " + std::to_string(request.registered_proof()) + " (" + registered.name +
                  ") is not a " + (winning ? "Winning" : "Window") + " PoSt proof");
  }
  if (request.sector_size() != 0 && request.sector_size() != registered.proof.sector_bytes) {
    throw invalid("sector_size: " + std::to_string(request.sector_size()) + ", but registered_proof " +
                  std::to_string(request.registered_proof()) + " is " + registered.name);
  }
  if (request.vanilla_proofs().empty()) throw invalid("vanilla_proofs: none given (one bincode blob a sector)");
  const std::filesystem::path file = params.file_for(cuzk_post_circuit_id(registered.proof), registered.name);
  v1::SubmitProofRequest out;
  v1::FilecoinPostJob& job = *out.mutable_filecoin_post();
  job.set_registered_proof(registered.name);
  job.set_randomness(request.randomness());
  *job.mutable_vanilla_proofs() = request.vanilla_proofs();
  job.set_parameter_file(file.string());
  job.set_partition_index(request.partition_index());
  return out;
}

// SNAP_DEALS_UPDATE (ProveReplicaUpdate2): the update's vanilla partition proofs, one
// bincode PartitionProof a partition in order, with its three 32-byte commitments;
// sector_number and miner_id play no part in the circuit.
v1::SubmitProofRequest update_request(const cuzk::v1::SubmitProofRequest& request, const CuzkParams& params) {
  const jobs::RegisteredUpdate registered = jobs::registered_update_proof(request.registered_proof());
  if (request.sector_size() != 0 && request.sector_size() != registered.sector_bytes) {
    throw invalid("sector_size: " + std::to_string(request.sector_size()) + ", but registered_proof " +
                  std::to_string(request.registered_proof()) + " is " + registered.name);
  }
  // As cuzk's to_array32; canonicity is checked with the job.
  for (const auto& [field, bytes] : {std::pair<const char*, const std::string*>{"comm_r_old", &request.comm_r_old()},
                                     {"comm_r_new", &request.comm_r_new()},
                                     {"comm_d_new", &request.comm_d_new()}}) {
    if (bytes->size() != 32) {
      throw invalid(std::string(field) + " must be exactly 32 bytes, got " + std::to_string(bytes->size()));
    }
  }
  if (request.vanilla_proofs().empty()) {
    throw invalid("vanilla_proofs: none given (one bincode PartitionProof a partition, in order)");
  }
  const std::filesystem::path file =
      params.file_for(cuzk_update_circuit_id(registered.sector_bytes), registered.name);
  v1::SubmitProofRequest out;
  v1::FilecoinUpdateJob& job = *out.mutable_filecoin_update();
  job.set_registered_proof(registered.name);
  job.set_comm_r_old(request.comm_r_old());
  job.set_comm_r_new(request.comm_r_new());
  job.set_comm_d_new(request.comm_d_new());
  *job.mutable_vanilla_proofs() = request.vanilla_proofs();
  job.set_parameter_file(file.string());
  return out;
}

}  // namespace

std::string cuzk_update_circuit_id(std::uint64_t sector_bytes) { return "snap-" + size_suffix(sector_bytes); }

std::string cuzk_post_circuit_id(const filecoin::post::PostProof& proof) {
  return (proof.kind == filecoin::post::PostKind::kWinning ? "winning-" : "wpost-") + size_suffix(proof.sector_bytes);
}

std::string cuzk_porep_circuit_id(const filecoin::core::SealProof& proof) {
  return "porep-" + size_suffix(proof.sector_bytes);
}

std::pair<std::string, std::string> cuzk_preload_circuit(std::string_view circuit_id) {
  static constexpr std::pair<std::string_view, std::string_view> kKinds[] = {
      {"wpost-", "filecoin-window-post"}, {"winning-", "filecoin-winning-post"}, {"snap-", "filecoin-snapdeals"}};
  if (circuit_id.starts_with("porep-")) {
    return {"filecoin-porep", std::string(cuzk_porep_seal_proof(circuit_id).name)};
  }
  for (const auto& [prefix, circuit] : kKinds) {
    if (!circuit_id.starts_with(prefix)) continue;
    for (const filecoin::core::SectorShape& shape : filecoin::core::published_sector_shapes()) {
      if (circuit_id.substr(prefix.size()) == size_suffix(shape.sector_bytes)) {
        return {std::string(circuit), filecoin::core::sector_size_name(shape.sector_bytes)};
      }
    }
  }
  throw ServiceError(ErrorKind::not_found, "unknown circuit id " + std::string(circuit_id) +
                                               " (porep-, wpost-, winning- or snap- and 2k, 8m, 512m, 32g, 64g)");
}

const filecoin::core::SealProof& cuzk_porep_seal_proof(std::string_view circuit_id) {
  for (const filecoin::core::SealProof& proof : filecoin::core::seal_proofs()) {
    if (proof.name.ends_with("V1_1") && cuzk_porep_circuit_id(proof) == circuit_id) return proof;
  }
  throw ServiceError(ErrorKind::not_found, "unknown circuit id " + std::string(circuit_id) +
                                               " (this daemon proves porep-2k, porep-8m, porep-512m, porep-32g, "
                                               "porep-64g)");
}

filecoin::api::ProverId prover_id_of_miner(std::uint64_t miner_id) {
  filecoin::api::ProverId id{};
  std::size_t i = 0;
  do {
    const auto low = static_cast<std::uint8_t>(miner_id & 0x7f);
    miner_id >>= 7;
    id[i++] = miner_id != 0 ? static_cast<std::uint8_t>(low | 0x80) : low;
  } while (miner_id != 0);
  return id;
}

v1::Priority zkpipe_priority(cuzk::v1::Priority priority, cuzk::v1::ProofKind kind) {
  switch (priority) {
    case cuzk::v1::LOW: return v1::PRIORITY_LOW;
    case cuzk::v1::NORMAL: return v1::PRIORITY_NORMAL;
    case cuzk::v1::HIGH: return v1::PRIORITY_HIGH;
    case cuzk::v1::CRITICAL: return v1::PRIORITY_CRITICAL;
    case cuzk::v1::PRIORITY_UNSPECIFIED:
      if (kind == cuzk::v1::WINNING_POST) return v1::PRIORITY_CRITICAL;
      if (kind == cuzk::v1::WINDOW_POST_PARTITION) return v1::PRIORITY_HIGH;
      return v1::PRIORITY_NORMAL;
    default: return v1::PRIORITY_NORMAL;
  }
}

CuzkJob zkpipe_request(const cuzk::v1::SubmitProofRequest& request, const CuzkParams& params) {
  CuzkJob out;
  switch (request.proof_kind()) {
    case cuzk::v1::POREP_SEAL_COMMIT: out = porep_request(request, params); break;
    case cuzk::v1::WINDOW_POST_PARTITION:
    case cuzk::v1::WINNING_POST: out.request = post_request(request, params); break;
    case cuzk::v1::SNAP_DEALS_UPDATE: out.request = update_request(request, params); break;
    default:
      throw invalid("proof_kind: " + std::to_string(request.proof_kind()) +
                    " is no proof kind (POREP_SEAL_COMMIT 1, SNAP_DEALS_UPDATE 2, WINDOW_POST_PARTITION 3, "
                    "WINNING_POST 4)");
  }
  out.request.set_priority(zkpipe_priority(request.priority(), request.proof_kind()));
  out.request.set_label("cuzk " + (request.request_id().empty() ? std::string("(no request_id)")
                                                               : request.request_id().substr(0, 200)));
  return out;
}

cuzk::v1::AwaitProofResponse cuzk_response(const v1::AwaitProofResponse& answer, const std::string& job_id) {
  cuzk::v1::AwaitProofResponse out;
  out.set_job_id(job_id);
  switch (answer.state()) {
    case v1::JOB_STATE_DONE: {
      out.set_status(cuzk::v1::AwaitProofResponse::COMPLETED);
      out.set_proof(answer.proof());
      const v1::Timings& t = answer.timings();
      out.set_queue_wait_ms(millis(t.queue_wait()));
      out.set_srs_load_ms(millis(t.parameter_load()));
      out.set_synthesis_ms(millis(t.synthesis()));
      out.set_gpu_compute_ms(millis(t.device() + t.finalize()));
      out.set_total_ms(millis(t.total()));
      break;
    }
    case v1::JOB_STATE_FAILED:
      out.set_status(cuzk::v1::AwaitProofResponse::FAILED);
      out.set_error_message(answer.error());
      break;
    case v1::JOB_STATE_CANCELLED:
      out.set_status(cuzk::v1::AwaitProofResponse::CANCELLED);
      out.set_error_message(answer.error());
      break;
    default: out.set_status(cuzk::v1::AwaitProofResponse::TIMEOUT); break;
  }
  return out;
}

}  // namespace zkpipe::service::api
