#include "service/job_request_builder.hpp"

#include <functional>
#include <optional>
#include <string_view>

#include "circuits/filecoin/api/sector_values.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "proving/proof_request.hpp"
#include "service/filecoin_job.hpp"
#include "service/filecoin_post_job.hpp"
#include "service/filecoin_update_job.hpp"

namespace zkpipe::service {

engine::Priority engine_priority(int priority) {
  switch (priority) {
    case v1::PRIORITY_CRITICAL: return engine::Priority::critical;
    case v1::PRIORITY_HIGH: return engine::Priority::high;
    case v1::PRIORITY_LOW: return engine::Priority::low;
    default: return engine::Priority::normal;
  }
}

std::uint32_t partitions_of(const v1::SubmitProofRequest& request) {
  if (request.has_filecoin_porep()) return filecoin_partitions(request.filecoin_porep());
  if (request.has_filecoin_post()) return 1;
  if (request.has_filecoin_update()) return filecoin_update_partitions(request.filecoin_update());
  return request.has_circom() ? 1 : request.porep().partitions();
}

std::shared_ptr<const r1cs::PartitionedCircuit> porep_circuit(const v1::PorepInstance& porep) {
  return std::make_shared<porep_like::PorepLikeCircuit>(porep_like::find_preset(porep.preset()), porep.seed(),
                                                         porep.partitions());
}

std::string porep_circuit_name(const v1::PorepInstance& porep) {
  return "porep-like/" + porep_like::find_preset(porep.preset()).name;
}

namespace {

// A PoSt or SnapDeals job alike: its circuit read from the vanilla proofs in the
// request (again when it starts: a queued job holds only its bytes), proved with a
// zkpipe key or Filecoin's .params.
struct VanillaJob {
  const std::string& parameter_file;
  std::string_view field;
  std::string circuit_name;  // the residency's, known without reading the proofs
  std::function<std::shared_ptr<const r1cs::PartitionedCircuit>()> circuit;
};

std::optional<VanillaJob> vanilla_job(const v1::SubmitProofRequest& request) {
  if (request.has_filecoin_post()) {
    const v1::FilecoinPostJob& job = request.filecoin_post();
    return VanillaJob{job.parameter_file(), kPostParamsField, registered_post_proof(job.registered_proof()).proof.name(),
                      [&job] { return filecoin_post_circuit(job); }};
  }
  if (request.has_filecoin_update()) {
    const v1::FilecoinUpdateJob& job = request.filecoin_update();
    return VanillaJob{job.parameter_file(), kUpdateParamsField,
                      registered_update_proof(job.registered_proof()).circuit_name,
                      [&job] { return filecoin_update_circuit(job); }};
  }
  return std::nullopt;
}

// One proof per partition, each verifying against the circuit's inputs.
bool partitions_verify(const groth16::ProvingKey& key, std::span<const groth16::Proof> proofs,
                       const r1cs::PartitionedCircuit& circuit) {
  if (proofs.size() != circuit.partitions()) return false;
  const groth16::PreparedVerifyingKey pvk(key.vk);
  for (std::size_t p = 0; p < proofs.size(); ++p) {
    if (!groth16::verify(pvk, proofs[p], circuit.public_inputs(p))) return false;
  }
  return true;
}

}  // namespace

JobRequestBuilder::JobRequestBuilder(const PathPolicy& paths, ParameterResidency& residency,
                                     const groth16::ProverBackend& sizing)
    : paths_(paths), residency_(residency), sizing_(sizing) {}

std::pair<std::string, bool> JobRequestBuilder::parameters_of(const v1::SubmitProofRequest& request) const {
  try {
    if (request.has_circom()) {
      const std::filesystem::path file = paths_.confine(request.circom().zkey());
      return {file.string() + "\n" + kCircomCircuit, residency_.loaded(file, kCircomCircuit)};
    }
    if (request.has_filecoin_porep()) {
      const v1::FilecoinPorepJob& job = request.filecoin_porep();
      const std::filesystem::path file = paths_.confine(job.parameter_file(), kFilecoinParamsField);
      const std::string circuit = filecoin_circuit_name(filecoin_seal_proof(job));
      return {file.string() + "\n" + circuit, residency_.loaded(file, circuit)};
    }
    if (const auto vanilla = vanilla_job(request)) {
      const std::filesystem::path file = paths_.confine(vanilla->parameter_file, vanilla->field);
      return {file.string() + "\n" + vanilla->circuit_name, residency_.loaded(file, vanilla->circuit_name)};
    }
    const std::filesystem::path file = paths_.confine(request.porep().parameter_file());
    const std::string circuit = porep_circuit_name(request.porep());
    return {file.string() + "\n" + circuit, residency_.loaded(file, circuit)};
  } catch (const std::exception&) {
    return {"", true};
  }
}

PreparedJob JobRequestBuilder::prepare(const v1::SubmitProofRequest& request, const CheckedFiles& checked) const {
  if (request.has_filecoin_porep()) return prepare_filecoin(request.filecoin_porep(), checked);
  if (const auto vanilla = vanilla_job(request)) {
    return prepare_vanilla(vanilla->circuit(), vanilla->parameter_file, vanilla->field, checked);
  }
  return request.has_circom() ? prepare_circom(request.circom(), checked) : prepare_porep(request.porep(), checked);
}

PreparedJob JobRequestBuilder::prepare_porep(const v1::PorepInstance& porep, const CheckedFiles& checked) const {
  const auto circuit = porep_circuit(porep);
  const auto key_file = paths_.reopen(porep.parameter_file(), checked.key);
  PreparedJob out{residency_.acquire(key_file, *circuit), {}, {}, {}};
  proving::PreparedRequest prepared = proving::preset_request(proving::request_basis(out.lease.parameters(), sizing_), circuit);
  out.request = std::move(prepared.request);
  out.check = std::move(prepared.check);
  return out;
}

PreparedJob JobRequestBuilder::prepare_circom(const v1::CircomJob& circom, const CheckedFiles& checked) const {
  const auto zkey_file = paths_.reopen(circom.zkey(), checked.key);
  // Open from now until synthesis reads it: what is read is the file checked.
  const auto witness_file = paths_.reopen(circom.witness(), checked.witness, "witness file");
  PreparedJob out{residency_.acquire_zkey(zkey_file), {}, {}, {}};
  // As `zkpipe groth16 prove`: nothing is returned that does not verify.
  proving::PreparedRequest prepared = proving::circom_request(proving::request_basis(out.lease.parameters(), sizing_),
                                                             {.witness = witness_file, .zkey = out.lease.zkey(), .r1cs = nullptr, .r1cs_name = {}});
  out.request = std::move(prepared.request);
  out.check = std::move(prepared.check);
  out.public_signals = std::move(prepared.public_signals);
  return out;
}

PreparedJob JobRequestBuilder::prepare_filecoin(const v1::FilecoinPorepJob& job, const CheckedFiles& checked) const {
  // Read again from the request (checked at submit): a queued job holds only its bytes.
  proving::FilecoinPorepInstance instance = filecoin_instance(job);
  const auto key_file = paths_.reopen(job.parameter_file(), checked.key, kFilecoinParamsField);
  PreparedJob out{residency_.acquire_filecoin(key_file, *instance.sector.registered_proof), {}, {}, {}};
  proving::PreparedRequest prepared =
      proving::preset_request(proving::request_basis(out.lease.parameters(), sizing_), std::move(instance.circuit));
  out.request = std::move(prepared.request);
  out.check = std::move(prepared.check);
  return out;
}

PreparedJob JobRequestBuilder::prepare_vanilla(std::shared_ptr<const r1cs::PartitionedCircuit> circuit,
                                               const std::string& parameter_file, std::string_view field,
                                               const CheckedFiles& checked) const {
  const auto key_file = paths_.reopen(parameter_file, checked.key, field);
  PreparedJob out{residency_.acquire_key_or_params(key_file, *circuit), {}, {}, {}};
  proving::PreparedRequest prepared =
      proving::preset_request(proving::request_basis(out.lease.parameters(), sizing_), std::move(circuit));
  out.request = std::move(prepared.request);
  out.check = std::move(prepared.check);
  return out;
}

bool JobRequestBuilder::verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs,
                                 const std::string& public_json) const {
  if (request.has_circom()) {
    const ParameterResidency::Lease lease = residency_.acquire_zkey(paths_.open(request.circom().zkey()));
    const auto inputs = formats::public_from_json(public_json, "the recorded public.json");
    return proofs.size() == 1 &&
           groth16::verify(groth16::PreparedVerifyingKey(lease.parameters()->key().vk), proofs.front(), inputs);
  }
  if (request.has_filecoin_porep()) {
    const v1::FilecoinPorepJob& job = request.filecoin_porep();
    const filecoin::api::SectorValues sector = filecoin::api::parse_sector_values(job.sector_json(), kSectorField);
    const ParameterResidency::Lease lease =
        residency_.acquire_filecoin(paths_.open(job.parameter_file(), kFilecoinParamsField), *sector.registered_proof);
    const groth16::PreparedVerifyingKey pvk(lease.parameters()->key().vk);
    // As verify_seal checks a seal proof: the inputs from the sector's values alone.
    const auto inputs = proving::filecoin_porep_public_inputs(sector);
    if (proofs.size() != inputs.size()) return false;
    for (std::size_t p = 0; p < proofs.size(); ++p) {
      if (!groth16::verify(pvk, proofs[p], inputs[p])) return false;
    }
    return true;
  }
  if (const auto vanilla = vanilla_job(request)) {
    const auto circuit = vanilla->circuit();
    const ParameterResidency::Lease lease =
        residency_.acquire_key_or_params(paths_.open(vanilla->parameter_file, vanilla->field), *circuit);
    return partitions_verify(lease.parameters()->key(), proofs, *circuit);
  }
  const auto circuit = porep_circuit(request.porep());
  const ParameterResidency::Lease lease = residency_.acquire(paths_.open(request.porep().parameter_file()), *circuit);
  return partitions_verify(lease.parameters()->key(), proofs, *circuit);
}

}  // namespace zkpipe::service
