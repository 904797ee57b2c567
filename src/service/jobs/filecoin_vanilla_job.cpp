#include "service/jobs/filecoin_vanilla_job.hpp"

#include "formats/excerpt.hpp"
#include "formats/format_error.hpp"
#include "groth16/parameter_file.hpp"
#include "proving/preset_workload.hpp"
#include "service/errors.hpp"
#include "service/jobs/filecoin_porep_job.hpp"

namespace zkpipe::service::jobs {

CheckedJob FilecoinVanillaJob::validate(const v1::SubmitProofRequest& request,
                                        std::shared_ptr<const r1cs::PartitionedCircuit> read,
                                        const JobContext& context) const {
  if (!read) read = circuit(request);
  const auto key = context.paths.open(parameter_file(request), parameter_field());
  auto refused = [&](const std::exception& e) {
    return ServiceError(ErrorKind::invalid_argument,
                        std::string(parameter_field()) + ": " + formats::excerpt(e.what(), 1000));
  };
  try {
    if (!groth16::is_parameter_file(key->name())) {
      // A bellperson .params: its counts against its size and its verifying key's IC
      // count against the inputs, from its head; the queries when it loads.
      check_filecoin_key_file(key, read->public_inputs(0).size());
    }
    context.residency.check_shape(key->name(), [&] { return read; });
  } catch (const residency::ShapeMismatch& e) {
    throw refused(e);
  } catch (const formats::FormatError& e) {
    throw refused(e);
  }
  return {key->identity(), {}, std::move(read)};
}

ParameterEntry FilecoinVanillaJob::parameters(const v1::SubmitProofRequest& request, const config::PathPolicy& paths) const {
  return {paths.confine(parameter_file(request), parameter_field()), circuit_name(request)};
}

PreparedJob FilecoinVanillaJob::prepare(const v1::SubmitProofRequest& request, const CheckedJob& checked,
                                        const JobContext& context) const {
  // A job read back from a queue holds only the proofs' bytes: read them again.
  std::shared_ptr<const r1cs::PartitionedCircuit> read = checked.circuit ? checked.circuit : circuit(request);
  const auto key_file = context.paths.reopen(parameter_file(request), checked.key, parameter_field());
  residency::ParameterResidency::Lease lease = context.residency.acquire_key_or_params(key_file, *read);
  return circuit_job(std::move(lease), std::move(read), context.sizing);
}

bool FilecoinVanillaJob::verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs,
                                  const std::string&, const JobContext& context) const {
  const auto read = circuit(request);
  const residency::ParameterResidency::Lease lease = context.residency.acquire_key_or_params(
      context.paths.open(parameter_file(request), parameter_field()), *read);
  return every_partition_verifies(lease.parameters()->key(), proofs, *read);
}

Preloaded FilecoinVanillaJob::preload(const v1::PreloadParamsRequest& request, const JobContext& context) const {
  if (request.preset().empty()) {
    throw ServiceError(ErrorKind::invalid_argument,
                       "preset is required: the sector size the parameters are for (e.g. 32GiB)");
  }
  std::shared_ptr<const r1cs::PartitionedCircuit> circuit;
  try {
    circuit = proving::make_shape_circuit({.circuit = request.circuit(), .preset = request.preset()});
  } catch (const std::invalid_argument& e) {
    throw ServiceError(ErrorKind::invalid_argument, formats::excerpt(e.what(), 300));
  }
  const auto opened = context.paths.open(request.parameter_file());
  return {context.residency.acquire_key_or_params(opened, *circuit), {opened->name(), circuit->name()}};
}

}  // namespace zkpipe::service::jobs
